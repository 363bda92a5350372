// Tauri implementation: the generated `commands` of ../bindings.ts
// (tauri-specta), each returning {status:"ok",data} | {status:"error",error}.
// Errors become a BackendError; documents come back without their null fields.
import { Channel } from "@tauri-apps/api/core";
import { open, save } from "@tauri-apps/plugin-dialog";
import { commands } from "../bindings";
import type * as B from "../bindings";
import { BackendError, asAppError, withoutNulls, type Backend } from "./index";
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

export class TauriBackend implements Backend {
  readonly isTauri = true;
  appInfo() { return unwrap(commands.appInfo()); }
  getSettings() { return unwrap(commands.getSettings()); }
  putSettings(s: T.Settings) { return unwrap(commands.putSettings(s)); }
  listAccelerators(filter: T.AcceleratorFilter) { return unwrap(commands.listAccelerators(filter)); }
  listProviders() { return unwrap(commands.listProviders()); }
  listOffersPage(filter: T.OfferFilter, offset: number, limit: number) { return unwrap(commands.listOffersPage(filter, offset, limit)); }
  offerHistory(id: string) { return unwrap(commands.offerHistory(id)); }
  acceleratorsForWorkload(filter: T.OfferFilter) { return unwrap(commands.acceleratorsForWorkload(filter)); }
  getSource(id: string) { return unwrap(commands.getSource(id)); }
  workloadClasses() { return unwrap(commands.workloadClasses()); }
  pricebook() { return unwrap(commands.pricebook()); }
  pricebookPutOffer(o: B.Offer_Deserialize) { return unwrap(commands.pricebookPutOffer(o)); }
  pricebookPutDiscount(d: B.Discount_Deserialize) { return unwrap(commands.pricebookPutDiscount(d)); }
  pricebookRemove(id: string) { return unwrap(commands.pricebookRemove(id)); }
  examples() { return unwrap(commands.examples()); }
  async scenarioFromToml(text: string) { return withoutNulls(await unwrap(commands.scenarioFromToml(text))); }
  scenarioToToml(scenario: T.ScenarioDoc) { return unwrap(commands.scenarioToToml(scenario)); }
  evaluate(scenario: T.ScenarioDoc) { return unwrap(commands.evaluate(scenario)); }
  recommend(scenario: T.ScenarioDoc, constraints: T.Constraints, rankBy: T.RankBy) { return unwrap(commands.recommend(scenario, constraints, rankBy)); }
  recommendPick(scenario: T.ScenarioDoc, constraints: T.Constraints, rankBy: T.RankBy, ids: string[]) { return unwrap(commands.recommendPick(scenario, constraints, rankBy, ids)); }
  simulate(scenario: T.ScenarioDoc, trials: number, seed: number) { return unwrap(commands.simulate(scenario, trials, seed)); }
  sensitivity(scenario: T.ScenarioDoc) { return unwrap(commands.sensitivity(scenario)); }
  libraryList() { return unwrap(commands.libraryList()); }
  async libraryOpen(id: number) {
    const saved = await unwrap(commands.libraryOpen(id));
    return { ...saved, scenario: withoutNulls(saved.scenario) };
  }
  librarySave(id: number | null, scenario: T.ScenarioDoc) { return unwrap(commands.librarySave(id, scenario)); }
  libraryDuplicate(id: number) { return unwrap(commands.libraryDuplicate(id)); }
  libraryRename(id: number, name: string) { return unwrap(commands.libraryRename(id, name)); }
  libraryDelete(id: number) { return unwrap(commands.libraryDelete(id)); }
  libraryCompare(a: number, b: number) { return unwrap(commands.libraryCompare(a, b)); }
  autosavePut(scenario: T.ScenarioDoc, libraryId: number | null) { return unwrap(commands.autosavePut(scenario, libraryId)); }
  async autosaveGet() {
    const draft = await unwrap(commands.autosaveGet());
    return draft && { ...draft, scenario: withoutNulls(draft.scenario) };
  }
  autosaveClear() { return unwrap(commands.autosaveClear()); }
  catalogUpdateFile(path: string) { return unwrap(commands.catalogUpdateFile(path)); }
  catalogUpdateUrl(url: string, onProgress: (p: T.Progress) => void) {
    const channel = new Channel<T.Progress>();
    channel.onmessage = onProgress;
    return unwrap(commands.catalogUpdateUrl(url, channel));
  }
  feedChoice() { return unwrap(commands.feedChoice()); }
  catalogRefresh(feeds: string[], skypilotUrl: string, azureUrl: string, onProgress: (p: T.RefreshProgress) => void) {
    const channel = new Channel<T.RefreshProgress>();
    channel.onmessage = onProgress;
    return unwrap(commands.catalogRefresh(feeds, skypilotUrl, azureUrl, channel));
  }
  catalogRefreshCancel() { return unwrap(commands.catalogRefreshCancel()); }
  async defaultExportPath(name: string, extension: string) {
    try {
      return await commands.defaultExportPath(name, extension);
    } catch (e) {
      throw new BackendError(asAppError(e));
    }
  }
  exportProposal(scenario: T.ScenarioDoc, path: string, fields: T.ProposalFields) {
    return unwrap(commands.exportProposal(scenario, path, fields));
  }
  exportSpreadsheet(scenario: T.ScenarioDoc, path: string) { return unwrap(commands.exportSpreadsheet(scenario, path)); }
  async pickOpenFile(filters: { name: string; extensions: string[] }[]) {
    const p = await open({ multiple: false, directory: false, filters });
    return typeof p === "string" ? p : null;
  }
  async pickSaveFile(defaultPath: string, filters: { name: string; extensions: string[] }[]) {
    return (await save({ defaultPath, filters })) ?? null;
  }
}
