// Tauri implementation: the generated `commands` of ../bindings.ts (tauri-specta),
// each returning {status:"ok",data} | {status:"error",error}. Errors become a
// BackendError. Where the generated shapes differ from the UI's types (types.ts:
// the contract of /tmp/suanli/contract.md), the adapters below convert; see the
// notes at each.
import { Channel } from "@tauri-apps/api/core";
import { open, save } from "@tauri-apps/plugin-dialog";
import { commands } from "../bindings";
import type * as B from "../bindings";
import { BackendError, asAppError, type Backend } from "./index";
import type * as T from "./types";

type Res<X> = { status: "ok"; data: X } | { status: "error"; error: B.ErrorJson };

async function unwrap<X>(p: Promise<Res<X>>): Promise<X> {
  let r: Res<X>;
  try {
    r = await p;
  } catch (e) {
    throw new BackendError(asAppError(e));
  }
  if (r.status === "error") throw new BackendError(asAppError(r.error));
  return r.data;
}
/** The generated types mark every f64 as nullable and the scenario as `unknown`;
 * the values are those of the contract, so they are viewed through its types. */
const as = <X>(x: unknown) => x as X;

export class TauriBackend implements Backend {
  readonly isTauri = true;
  async appInfo() { return as<T.AppInfo>(await unwrap(commands.appInfo())); }
  async getSettings() { return as<T.Settings>(await unwrap(commands.getSettings())); }
  async putSettings(s: T.Settings) { return as<T.Settings>(await unwrap(commands.putSettings(s))); }
  async listAccelerators(filter: T.AcceleratorFilter) { return as<T.Accelerator[]>(await unwrap(commands.listAccelerators(filter))); }
  async listProviders() { return as<T.Provider[]>(await unwrap(commands.listProviders())); }
  async listOffers(filter: T.OfferFilter) { return as<T.OfferView[]>(await unwrap(commands.listOffers(filter))); }
  async getSource(id: string): Promise<T.Source | null> {
    // generated Source: {id, sheet, title, url, date}
    const s = await unwrap(commands.getSource(id));
    return s ? { ...s, publisher: null, as_of: s.date } : null;
  }
  async workloadClasses() { return unwrap(commands.workloadClasses()); }
  async pricebook() { return as<T.PriceBook>(await unwrap(commands.pricebook())); }
  async pricebookPutOffer(o: T.Offer) {
    // generated Offer.upfront is text
    return as<T.PriceBook>(await unwrap(commands.pricebookPutOffer({ ...o, upfront: o.upfront === null ? null : String(o.upfront) })));
  }
  async pricebookPutDiscount(d: T.Discount) { return as<T.PriceBook>(await unwrap(commands.pricebookPutDiscount(d))); }
  async pricebookRemove(id: string) { return as<T.PriceBook>(await unwrap(commands.pricebookRemove(id))); }
  async examples() { return unwrap(commands.examples()); }
  async scenarioFromToml(text: string) { return withoutNulls(as<T.ScenarioDoc>(await unwrap(commands.scenarioFromToml(text)))); }
  async scenarioToToml(scenario: T.ScenarioDoc) { return unwrap(commands.scenarioToToml(scenario)); }
  async evaluate(scenario: T.ScenarioDoc) { return as<T.Evaluated>(await unwrap(commands.evaluate(scenario))); }
  async simulate(scenario: T.ScenarioDoc, trials: number, seed: number) {
    return as<T.SimulationJson>(await unwrap(commands.simulate(scenario, trials, seed)));
  }
  async sensitivity(scenario: T.ScenarioDoc) { return as<T.SensitivityJson>(await unwrap(commands.sensitivity(scenario))); }
  async libraryList() { return unwrap(commands.libraryList()); }
  async libraryOpen(id: number) {
    const saved = as<T.SavedScenario>(await unwrap(commands.libraryOpen(id)));
    return { ...saved, scenario: withoutNulls(saved.scenario) };
  }
  async librarySave(id: number | null, scenario: T.ScenarioDoc) { return unwrap(commands.librarySave(id, scenario)); }
  async libraryDuplicate(id: number) { return unwrap(commands.libraryDuplicate(id)); }
  async libraryRename(id: number, name: string) { return unwrap(commands.libraryRename(id, name)); }
  async libraryDelete(id: number) { return unwrap(commands.libraryDelete(id)); }
  async libraryCompare(a: number, b: number) { return as<T.Comparison>(await unwrap(commands.libraryCompare(a, b))); }
  async autosavePut(scenario: T.ScenarioDoc, libraryId: number | null) { return unwrap(commands.autosavePut(scenario, libraryId)); }
  async autosaveGet() {
    const draft = as<T.Draft | null>(await unwrap(commands.autosaveGet()));
    return draft && { ...draft, scenario: withoutNulls(draft.scenario) };
  }
  async autosaveClear() { return unwrap(commands.autosaveClear()); }
  async catalogUpdateFile(path: string) { return summary(await unwrap(commands.catalogUpdateFile(path))); }
  async catalogUpdateUrl(url: string, onProgress: (p: T.Progress) => void) {
    const channel = new Channel<B.UpdateProgress_Deserialize>();
    // generated progress: stage "download" | "apply" | "done", done_bytes nullable
    channel.onmessage = (p) => onProgress({ stage: p.stage as T.Progress["stage"], done_bytes: p.done_bytes ?? 0, total_bytes: p.total_bytes ?? null });
    return summary(await unwrap(commands.catalogUpdateUrl(url, channel)));
  }
  async defaultExportPath(name: string, extension: string) {
    try {
      return await commands.defaultExportPath(name, extension);
    } catch (e) {
      throw new BackendError(asAppError(e));
    }
  }
  async exportProposal(scenario: T.ScenarioDoc, path: string, meta: T.ProposalMeta) {
    // generated ProposalFields: {client, author, firm, logo_path?}
    return unwrap(commands.exportProposal(scenario, path, { client: meta.client, author: meta.author, firm: meta.organisation }));
  }
  async exportSpreadsheet(scenario: T.ScenarioDoc, path: string) { return unwrap(commands.exportSpreadsheet(scenario, path)); }
  async pickOpenFile(filters: { name: string; extensions: string[] }[]) {
    const p = await open({ multiple: false, directory: false, filters });
    return typeof p === "string" ? p : null;
  }
  async pickSaveFile(defaultPath: string, filters: { name: string; extensions: string[] }[]) {
    return (await save({ defaultPath, filters })) ?? null;
  }
}

/** Generated UpdateSummary {pack, added, removed, repriced} → the UI's summary. */
/** The backend writes every absent optional field as null; the editor treats a
 * field as absent when it is missing. Dropping nulls loses nothing: the
 * scenario format reads a missing optional field as null. */
export function withoutNulls<X>(x: X): X {
  if (Array.isArray(x)) return x.map(withoutNulls) as X;
  if (x !== null && typeof x === "object") {
    return Object.fromEntries(Object.entries(x).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)])) as X;
  }
  return x;
}

function summary(s: B.UpdateSummary_Serialize): T.UpdateSummary {
  return { version: s.pack.version, offers_added: s.added, offers_changed: s.repriced, offers_removed: s.removed, message: s.pack.label };
}
