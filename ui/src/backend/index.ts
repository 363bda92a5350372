// One backend interface: a Tauri implementation (tauri.ts) and an in-memory
// mock (mock.ts) for tests and for `npm run dev` in a plain browser.
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

/** The AppError behind any thrown value (non-backend errors become code "internal"). */
export function asAppError(e: unknown): T.AppError {
  if (e instanceof BackendError) return e.error;
  if (e && typeof e === "object" && "code" in e && "message" in e) {
    const o = e as T.AppError;
    return { code: o.code, message: o.message, fields: o.fields ?? [] };
  }
  return { code: "internal", message: e instanceof Error ? e.message : String(e), fields: [] };
}

export interface Backend {
  readonly isTauri: boolean;
  appInfo(): Promise<T.AppInfo>;
  getSettings(): Promise<T.Settings>;
  putSettings(s: T.Settings): Promise<T.Settings>;
  listAccelerators(filter: T.AcceleratorFilter): Promise<T.Accelerator[]>;
  listProviders(): Promise<T.Provider[]>;
  listOffers(filter: T.OfferFilter): Promise<T.OfferView[]>;
  getSource(id: string): Promise<T.Source | null>;
  workloadClasses(): Promise<string[]>;
  pricebook(): Promise<T.PriceBook>;
  pricebookPutOffer(o: T.Offer): Promise<T.PriceBook>;
  pricebookPutDiscount(d: T.Discount): Promise<T.PriceBook>;
  pricebookRemove(id: string): Promise<T.PriceBook>;
  examples(): Promise<T.Example[]>;
  scenarioFromToml(text: string): Promise<T.ScenarioDoc>;
  scenarioToToml(scenario: T.ScenarioDoc): Promise<string>;
  evaluate(scenario: T.ScenarioDoc): Promise<T.Evaluated>;
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
  defaultExportPath(name: string, extension: string): Promise<string>;
  exportProposal(scenario: T.ScenarioDoc, path: string, meta: T.ProposalMeta): Promise<T.Exported>;
  exportSpreadsheet(scenario: T.ScenarioDoc, path: string): Promise<T.Exported>;
  /** Native file dialogs (Tauri only); null when cancelled or unavailable. */
  pickOpenFile(filters: { name: string; extensions: string[] }[]): Promise<string | null>;
  pickSaveFile(defaultPath: string, filters: { name: string; extensions: string[] }[]): Promise<string | null>;
}

export function isTauri(): boolean {
  return typeof window !== "undefined" && window.__TAURI_INTERNALS__ !== undefined;
}

let current: Backend | null = null;

/** The backend for this window: Tauri inside the app, the mock in a plain browser. */
export async function selectBackend(): Promise<Backend> {
  if (current) return current;
  if (isTauri()) {
    const { TauriBackend } = await import("./tauri");
    current = new TauriBackend();
  } else {
    const { MockBackend } = await import("./mock");
    current = new MockBackend();
  }
  return current;
}

export type * from "./types";
