// One backend interface, with the Tauri implementation (tauri.ts) inside the
// app and, for tests and `npm run dev` only, a replay of answers recorded from
// the real backend (replay.ts). Nothing behind this interface computes in
// TypeScript: every figure, rule and parse comes from Rust.
import type * as B from "../bindings";
import type * as T from "./types";

export class BackendError extends Error {
  readonly error: T.AppError;
  constructor(error: T.AppError) {
    super(error.message);
    this.name = "BackendError";
    this.error = error;
  }
  get code(): string { return this.error.code; }
  get fields(): T.FieldError[] { return this.error.fields ?? []; }
}

const isAppError = (e: object): e is T.AppError => "code" in e && "message" in e && typeof e.code === "string" && typeof e.message === "string";

/** The AppError behind any thrown value (non-backend errors become code "internal"). */
export function asAppError(e: unknown): T.AppError {
  if (e instanceof BackendError) return e.error;
  if (e && typeof e === "object" && isAppError(e)) return { code: e.code, message: e.message, fields: e.fields ?? [] };
  return { code: "internal", message: e instanceof Error ? e.message : String(e), fields: [] };
}

type FileFilter = { name: string; extensions: string[] };

export interface Backend {
  readonly isTauri: boolean;
  appInfo(): Promise<T.AppInfo>;
  getSettings(): Promise<T.Settings>;
  putSettings(s: T.Settings): Promise<T.Settings>;
  listAccelerators(filter: T.AcceleratorFilter): Promise<T.Accelerator[]>;
  listProviders(): Promise<T.Provider[]>;
  listOffersPage(filter: T.OfferFilter, offset: number, limit: number): Promise<T.OfferPage>;
  offerHistory(id: string): Promise<T.PriceChange[]>;
  acceleratorsForWorkload(filter: T.OfferFilter): Promise<T.AcceleratorForWorkload[]>;
  getSource(id: string): Promise<T.Source | null>;
  workloadClasses(): Promise<string[]>;
  pricebook(): Promise<T.PriceBook>;
  pricebookPutOffer(o: B.Offer_Deserialize): Promise<T.PriceBook>;
  pricebookPutDiscount(d: B.Discount_Deserialize): Promise<T.PriceBook>;
  pricebookRemove(id: string): Promise<T.PriceBook>;
  examples(): Promise<T.Example[]>;
  scenarioFromToml(text: string): Promise<T.ScenarioDoc>;
  scenarioToToml(scenario: T.ScenarioDoc): Promise<string>;
  evaluate(scenario: T.ScenarioDoc): Promise<T.Evaluated>;
  recommend(scenario: T.ScenarioDoc, constraints: T.Constraints, rankBy: T.RankBy): Promise<T.Recommendation>;
  recommendPick(scenario: T.ScenarioDoc, constraints: T.Constraints, rankBy: T.RankBy, ids: string[]): Promise<T.ScenarioDoc>;
  simulate(scenario: T.ScenarioDoc, trials: number, seed: number): Promise<T.SimulationJson>;
  sensitivity(scenario: T.ScenarioDoc): Promise<T.SensitivityJson>;
  libraryList(): Promise<T.ScenarioMeta[]>;
  libraryOpen(id: number): Promise<T.SavedScenario>;
  librarySave(id: number | null, scenario: T.ScenarioDoc): Promise<T.ScenarioMeta>;
  libraryDuplicate(id: number): Promise<T.ScenarioMeta>;
  libraryRename(id: number, name: string): Promise<T.ScenarioMeta>;
  libraryDelete(id: number): Promise<null>;
  libraryCompare(a: number, b: number): Promise<T.Comparison>;
  autosavePut(scenario: T.ScenarioDoc, libraryId: number | null): Promise<null>;
  autosaveGet(): Promise<T.Draft | null>;
  autosaveClear(): Promise<null>;
  catalogUpdateFile(path: string): Promise<T.UpdateSummary>;
  catalogUpdateUrl(url: string, onProgress: (p: T.Progress) => void): Promise<T.UpdateSummary>;
  feedChoice(): Promise<T.FeedChoice>;
  catalogRefresh(feeds: string[], skypilotUrl: string, azureUrl: string, onProgress: (p: T.RefreshProgress) => void): Promise<T.FeedReport[]>;
  catalogRefreshCancel(): Promise<null>;
  defaultExportPath(name: string, extension: string): Promise<string>;
  exportProposal(scenario: T.ScenarioDoc, path: string, fields: T.ProposalFields): Promise<T.Exported>;
  exportSpreadsheet(scenario: T.ScenarioDoc, path: string): Promise<T.Exported>;
  /** Native file dialogs (Tauri only); null when cancelled or unavailable. */
  pickOpenFile(filters: FileFilter[]): Promise<string | null>;
  pickSaveFile(defaultPath: string, filters: FileFilter[]): Promise<string | null>;
}

/** The backend writes every absent optional field as null; the editor treats a
 * field as absent when it is missing. Dropping nulls loses nothing: the
 * scenario format reads a missing optional field as null. */
export function withoutNulls(doc: T.ScenarioDoc): T.ScenarioDoc {
  const drop = (v: T.JsonValue): T.JsonValue => {
    if (Array.isArray(v)) return v.map(drop);
    if (v !== null && typeof v === "object") return withoutNulls(v);
    return v;
  };
  return Object.fromEntries(Object.entries(doc).filter(([, v]) => v !== null).map(([k, v]) => [k, drop(v)]));
}

export function isTauri(): boolean {
  return typeof window !== "undefined" && window.__TAURI_INTERNALS__ !== undefined;
}

let current: Backend | null = null;

/** The backend for this window: Tauri inside the app; in a plain browser the
 * replay of recorded answers, on the dev server only (`import.meta.env.DEV`
 * is false in `vite build`, which then leaves replay.ts and its recordings out
 * of the bundle). A built UI outside the app has no backend. */
export async function selectBackend(): Promise<Backend> {
  if (current) return current;
  let backend: Backend;
  if (isTauri()) {
    const { TauriBackend } = await import("./tauri");
    backend = new TauriBackend();
  } else if (import.meta.env.DEV) {
    const { ReplayBackend } = await import("./replay");
    const params = new URLSearchParams(window.location.search);
    backend = new ReplayBackend({
      lang: navigator.language.toLowerCase().startsWith("zh") ? "zh" : "en",
      database: params.get("database") === "unreadable" ? "unreadable" : "fresh",
    });
  } else {
    throw new Error("Suanli's window runs inside the desktop app; opened on its own it has no backend.");
  }
  current = backend;
  return backend;
}

export type * from "./types";
