// A backend that answers from recordings of the real one, for the UI's tests
// and `npm run dev` in a plain browser; never in a build (see selectBackend).
//
// recordings.json is written by Rust (src-tauri/tests/shell/recordings.rs):
// each recording is a command, its arguments and what the real command
// answered on a fresh database. A call is answered by the recording with the
// same command and the same arguments (compared as JSON: key order and null
// fields do not matter, as serde reads a missing optional field as null), in
// the current language. A call nobody recorded throws an `internal` error naming
// the nearest recording and where it differs: the test that made it needs a
// new line in the Rust script.
//
// What is plain storage rather than a rule — the library's rows, the draft,
// the settings, the price book's rows — is kept here in memory. Whether a
// save, a price or a discount is accepted, and everything computed, comes
// from the recordings.
import text from "./recordings.json?raw";
import type * as B from "../bindings";
import { BackendError, withoutNulls, type Backend } from "./index";
import type * as T from "./types";

type Commands = typeof B.commands;
type Ok<R> = R extends { status: "ok"; data: infer D } ? D : never;
type Reply<C extends keyof Commands> = Awaited<ReturnType<Commands[C]>>;
/** What a command answers when it succeeds, by its name in the bindings. */
export type Answer<C extends keyof Commands> = [Ok<Reply<C>>] extends [never] ? Reply<C> : Ok<Reply<C>>;

/** One recorded call (see src-tauri/tests/shell/recordings.rs). */
export interface Recording {
  name: string;
  /** The language the answer is in; absent when it is the same in both. */
  lang?: T.Lang;
  /** "unreadable": the database could not be opened; absent: a fresh one. */
  database?: "unreadable";
  command: string;
  args: { [key: string]: T.JsonValue };
  ok?: unknown;
  error?: T.AppError;
}

export const REGENERATE = "SUANLI_UPDATE_RECORDINGS=1 cargo test -p suanli-app --test shell recordings";

/** The recordings, as Rust wrote them. */
export const RECORDINGS: Recording[] = JSON.parse(text).recordings;

/** Arguments as one string: keys sorted, null fields left out. */
export function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return x;
    return Object.fromEntries(Object.entries(x).filter(([, y]) => y !== null).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}

/** Leaf paths at which two JSON values differ, with both values. */
function differences(a: unknown, b: unknown, path = "", out: string[] = []): string[] {
  const isObj = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === "object";
  if (isObj(a) && isObj(b) && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of [...keys].sort()) {
      const p = Array.isArray(a) ? `${path}[${k}]` : path ? `${path}.${k}` : k;
      differences(a[k] ?? null, b[k] ?? null, p, out);
    }
  } else if (canonical(a) !== canonical(b)) {
    const show = (x: unknown) => (x === null ? "absent" : JSON.stringify(x).slice(0, 40));
    out.push(`${path || "(the arguments)"}: ${show(a)}, recorded ${show(b)}`);
  }
  return out;
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const clone = <X>(x: X): X => JSON.parse(JSON.stringify(x));

/** Which recordings a test reads: the language, and the database (a fresh one unless "unreadable"). */
export type Where = ReplayOptions;

/** The recording `name` of `command`, for a test to compare with. */
export function recording(command: keyof Commands, name: string, where: Where = {}): Recording {
  const lang = where.lang ?? "en";
  const database = where.database ?? "fresh";
  const found = RECORDINGS.find((r) => r.command === snake(command) && r.name === name
    && (r.database ?? "fresh") === database && (r.lang ?? lang) === lang);
  if (!found) throw new Error(`no recording "${name}" of ${snake(command)} in ${lang} (${database} database)`);
  return clone(found);
}

/** What the command answered in the recording `name`. */
export function recordedAnswer<C extends keyof Commands>(command: C, name: string, where: Where = {}): Answer<C> {
  const r = recording(command, name, where);
  if (r.ok === undefined) throw new Error(`the recording "${name}" is an error: ${r.error?.message}`);
  // The recording is what this command answered: its type is the command's result.
  return r.ok as Answer<C>;
}

/** The error the command answered in the recording `name`. */
export function recordedError(command: keyof Commands, name: string, where: Where = {}): T.AppError {
  const r = recording(command, name, where);
  if (!r.error) throw new Error(`the recording "${name}" is no error`);
  return r.error;
}

export interface ReplayOptions {
  /** The system's language: the settings' language until they are saved. */
  lang?: T.Lang;
  /** "unreadable": replay a database that could not be opened (the recovery screen). */
  database?: "fresh" | "unreadable";
}

interface Row { meta: T.ScenarioMeta; scenario: T.ScenarioDoc }

export class ReplayBackend implements Backend {
  readonly isTauri = false;
  /** Names of the Backend methods called, in order. */
  readonly calls: string[] = [];
  /** The message of every call that had no recording. */
  readonly unrecorded: string[] = [];
  lang: T.Lang;
  readonly database: "fresh" | "unreadable";
  settings: T.Settings | null = null;
  book: T.PriceBook = { offers: [], discounts: [] };
  library = new Map<number, Row>();
  draft: T.Draft | null = null;
  private nextId = 1;
  private clock = 0;
  private index = new Map<string, Recording[]>();

  constructor(opts: ReplayOptions = {}) {
    this.lang = opts.lang ?? "en";
    this.database = opts.database ?? "fresh";
    for (const r of RECORDINGS) {
      if ((r.database ?? "fresh") !== this.database) continue;
      const key = `${r.command} ${canonical(r.args)}`;
      this.index.set(key, [...(this.index.get(key) ?? []), r]);
    }
  }

  /** The recorded answer of `command` (a name in the bindings) to `args`. */
  private async call<C extends keyof Commands>(command: C, args: { [key: string]: unknown }): Promise<Answer<C>> {
    const name = snake(command);
    const found = (this.index.get(`${name} ${canonical(args)}`) ?? []).filter((r) => r.lang === undefined || r.lang === this.lang);
    if (found.length !== 1) {
      const message = this.miss(name, args);
      this.unrecorded.push(message);
      throw new BackendError({ code: "internal", message, fields: [] });
    }
    const r = found[0];
    if (r.error) throw new BackendError(clone(r.error));
    // The recording is what this command answered: its type is the command's result.
    return clone(r.ok) as Answer<C>;
  }

  private miss(command: string, args: unknown): string {
    const same = RECORDINGS.filter((r) => r.command === command && (r.database ?? "fresh") === this.database);
    const near = same.map((r) => ({ r, diff: differences(clone(args), r.args) })).sort((a, b) => a.diff.length - b.diff.length)[0];
    let hint = "nothing of this command is recorded";
    if (near && near.diff.length === 0) hint = `"${near.r.name}" is recorded in ${near.r.lang} only`;
    else if (near) hint = `nearest "${near.r.name}" differs at ${near.diff.slice(0, 3).join("; ")}${near.diff.length > 3 ? ` (+${near.diff.length - 3} more)` : ""}`;
    return `${command} is not recorded (${this.lang}${this.database === "unreadable" ? ", unreadable database" : ""}): ${hint}. `
      + `Add the call to src-tauri/tests/shell/recordings.rs and run ${REGENERATE}`;
  }

  private log(method: string) { this.calls.push(method); }
  /** The store stands in for a working database only; an unreadable one answers as recorded. */
  private get stored() { return this.database === "fresh"; }
  private now(): string { return new Date(Date.UTC(2026, 10, 30, 9, 0, this.clock++)).toISOString().replace(/\.\d+Z$/, "Z"); }
  private row(id: number): Row {
    const row = this.library.get(id);
    if (!row) throw new BackendError({ code: "not_found", message: `scenario ${id} not found`, fields: [] });
    return row;
  }

  appInfo() { this.log("appInfo"); return this.call("appInfo", {}); }
  async getSettings() {
    this.log("getSettings");
    if (!this.stored) return this.call("getSettings", {});
    this.settings ??= await this.call("getSettings", {});
    return clone(this.settings);
  }
  async putSettings(s: T.Settings) {
    this.log("putSettings");
    if (!this.stored) return this.call("putSettings", { settings: s });
    this.settings = clone(s);
    this.lang = s.lang;
    return clone(s);
  }
  listAccelerators(filter: T.AcceleratorFilter) { this.log("listAccelerators"); return this.call("listAccelerators", { filter }); }
  listProviders() { this.log("listProviders"); return this.call("listProviders", {}); }
  listOffersPage(filter: T.OfferFilter, offset: number, limit: number) { this.log("listOffersPage"); return this.call("listOffersPage", { filter, offset, limit }); }
  offerHistory(id: string) { this.log("offerHistory"); return this.call("offerHistory", { id }); }
  acceleratorsForWorkload(filter: T.OfferFilter) { this.log("acceleratorsForWorkload"); return this.call("acceleratorsForWorkload", { filter }); }
  getSource(id: string) { this.log("getSource"); return this.call("getSource", { id }); }
  workloadClasses() { this.log("workloadClasses"); return this.call("workloadClasses", {}); }

  async pricebook() {
    this.log("pricebook");
    return this.stored ? clone(this.book) : this.call("pricebook", {});
  }
  async pricebookPutOffer(offer: B.Offer_Deserialize) {
    this.log("pricebookPutOffer");
    const accepted = await this.call("pricebookPutOffer", { offer });
    const row = accepted.offers.find((o) => o.id === offer.id);
    if (row) this.book.offers = [...this.book.offers.filter((o) => o.id !== row.id), row].sort((a, b) => a.id.localeCompare(b.id));
    return clone(this.book);
  }
  async pricebookPutDiscount(discount: B.Discount_Deserialize) {
    this.log("pricebookPutDiscount");
    const accepted = await this.call("pricebookPutDiscount", { discount });
    const row = accepted.discounts.find((d) => d.id === discount.id);
    if (row) this.book.discounts = [...this.book.discounts.filter((d) => d.id !== row.id), row].sort((a, b) => a.id.localeCompare(b.id));
    return clone(this.book);
  }
  async pricebookRemove(id: string) {
    this.log("pricebookRemove");
    const known = this.book.offers.some((o) => o.id === id) || this.book.discounts.some((d) => d.id === id);
    if (!known) return this.call("pricebookRemove", { id });
    this.book = { offers: this.book.offers.filter((o) => o.id !== id), discounts: this.book.discounts.filter((d) => d.id !== id) };
    return clone(this.book);
  }

  examples() { this.log("examples"); return this.call("examples", {}); }
  async scenarioFromToml(text: string) { this.log("scenarioFromToml"); return withoutNulls(await this.call("scenarioFromToml", { text })); }
  scenarioToToml(scenario: T.ScenarioDoc) { this.log("scenarioToToml"); return this.call("scenarioToToml", { scenario }); }
  evaluate(scenario: T.ScenarioDoc) { this.log("evaluate"); return this.call("evaluate", { scenario }); }
  recommend(scenario: T.ScenarioDoc, constraints: T.Constraints, rankBy: T.RankBy) { this.log("recommend"); return this.call("recommend", { scenario, constraints, rankBy }); }
  recommendPick(scenario: T.ScenarioDoc, constraints: T.Constraints, rankBy: T.RankBy, ids: string[]) { this.log("recommendPick"); return this.call("recommendPick", { scenario, constraints, rankBy, ids }); }
  simulate(scenario: T.ScenarioDoc, trials: number, seed: number) { this.log("simulate"); return this.call("simulate", { scenario, trials, seed }); }
  sensitivity(scenario: T.ScenarioDoc) { this.log("sensitivity"); return this.call("sensitivity", { scenario }); }

  async libraryList() {
    this.log("libraryList");
    if (!this.stored) return this.call("libraryList", {});
    return [...this.library.values()].map((r) => clone(r.meta))
      .sort((a, b) => b.updated_at.localeCompare(a.updated_at) || b.id - a.id);
  }
  async libraryOpen(id: number) {
    this.log("libraryOpen");
    if (!this.stored) return this.call("libraryOpen", { id });
    return clone(this.row(id));
  }
  /** Recorded without its id: whether it is accepted depends on the document alone. */
  async librarySave(id: number | null, scenario: T.ScenarioDoc) {
    this.log("librarySave");
    const accepted = await this.call("librarySave", { scenario });
    const before = id === null ? null : this.row(id).meta;
    const t = this.now();
    const meta = { id: before?.id ?? this.nextId++, name: accepted.name, created_at: before?.created_at ?? t, updated_at: t };
    this.library.set(meta.id, { meta, scenario: clone(scenario) });
    return clone(meta);
  }
  /** Recorded with the saved document in place of its id; the copy's name is the backend's. */
  async libraryDuplicate(id: number) {
    this.log("libraryDuplicate");
    const source = this.row(id);
    const copy = await this.call("libraryDuplicate", { scenario: source.scenario });
    const t = this.now();
    const meta = { id: this.nextId++, name: copy.name, created_at: t, updated_at: t };
    this.library.set(meta.id, { meta, scenario: { ...clone(source.scenario), name: copy.name } });
    return clone(meta);
  }
  async libraryRename(id: number, name: string) {
    this.log("libraryRename");
    const row = this.row(id);
    row.meta = { ...row.meta, name, updated_at: this.now() };
    row.scenario = { ...row.scenario, name };
    return clone(row.meta);
  }
  async libraryDelete(id: number) {
    this.log("libraryDelete");
    this.row(id);
    this.library.delete(id);
    return null;
  }
  /** Recorded with the two saved documents in place of their ids. */
  async libraryCompare(a: number, b: number) {
    this.log("libraryCompare");
    const [ra, rb] = [this.row(a), this.row(b)];
    const cmp = await this.call("libraryCompare", { a: ra.scenario, b: rb.scenario });
    return { ...cmp, a: clone(ra.meta), b: clone(rb.meta) };
  }
  async autosavePut(scenario: T.ScenarioDoc, libraryId: number | null) {
    this.log("autosavePut");
    if (!this.stored) return this.call("autosavePut", { scenario, libraryId });
    this.draft = { scenario: clone(scenario), library_id: libraryId, saved_at: this.now() };
    return null;
  }
  async autosaveGet() {
    this.log("autosaveGet");
    if (!this.stored) return this.call("autosaveGet", {});
    return this.draft && clone(this.draft);
  }
  async autosaveClear() {
    this.log("autosaveClear");
    if (!this.stored) return this.call("autosaveClear", {});
    this.draft = null;
    return null;
  }
  catalogUpdateFile(path: string) { this.log("catalogUpdateFile"); return this.call("catalogUpdateFile", { path }); }
  /** Recorded without the progress channel; no progress is replayed. */
  catalogUpdateUrl(url: string, _onProgress: (p: T.Progress) => void) { this.log("catalogUpdateUrl"); return this.call("catalogUpdateUrl", { url }); }
  feedChoice() { this.log("feedChoice"); return this.call("feedChoice", {}); }
  catalogRefresh(feeds: string[], skypilotUrl: string, azureUrl: string, _onProgress: (p: T.RefreshProgress) => void) {
    this.log("catalogRefresh");
    return this.call("catalogRefresh", { feeds, skypilotUrl, azureUrl });
  }
  catalogRefreshCancel() { this.log("catalogRefreshCancel"); return this.call("catalogRefreshCancel", {}); }
  defaultExportPath(name: string, extension: string) { this.log("defaultExportPath"); return this.call("defaultExportPath", { name, extension }); }
  exportProposal(scenario: T.ScenarioDoc, path: string, fields: T.ProposalFields) {
    this.log("exportProposal");
    return this.call("exportProposal", { scenario, path, fields });
  }
  exportSpreadsheet(scenario: T.ScenarioDoc, path: string) { this.log("exportSpreadsheet"); return this.call("exportSpreadsheet", { scenario, path }); }
  async pickOpenFile() { return null; }
  async pickSaveFile() { return null; }
}
