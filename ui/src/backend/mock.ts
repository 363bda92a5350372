// In-memory backend for tests and for `npm run dev` in a plain browser.
import { BackendError, type Backend } from "./index";
import type * as T from "./types";
import { ACCELERATORS, EFFICIENCY, OFFERS, PROVIDERS, SOURCES } from "./mock-data";
import { evaluateMock, validate } from "./mock-engine";
import { parseToml, stringifyToml, TomlError } from "./toml";
import a100Toml from "@data/scenarios/a100-8x-buy-vs-rent.toml?raw";
import ascendToml from "@data/scenarios/ascend-910b-cluster.toml?raw";
import mixToml from "@data/scenarios/billing-mix.toml?raw";

const clone = <X>(x: X): X => JSON.parse(JSON.stringify(x));
const fail = (code: string, message: string, fields: T.FieldError[] = []): never => {
  throw new BackendError({ code, message, fields });
};
const now = () => new Date().toISOString().replace("T", " ").slice(0, 19);

export interface MockOptions {
  /** Simulate a database that could not be opened (recovery screen). */
  dbError?: T.AppError | null;
  /** Delay of every call in ms (to see loading states in the browser). */
  latencyMs?: number;
}

export class MockBackend implements Backend {
  readonly isTauri = false;
  settings: T.Settings = { lang: "zh", currency: "CNY", usd_cny: 7.1106, fx_source: "CFETS central parity 2025-09-22", reference_gpu: "nvidia-a100-sxm-80gb" };
  book: T.PriceBook = { offers: [], discounts: [] };
  library = new Map<number, T.SavedScenario>();
  draft: T.Draft | null = null;
  catalogVersion = 1;
  nextId = 1;
  calls: string[] = [];
  private opts: MockOptions;

  constructor(opts: MockOptions = {}) { this.opts = opts; }

  private async tick(name: string) {
    this.calls.push(name);
    if (this.opts.latencyMs) await new Promise((r) => setTimeout(r, this.opts.latencyMs));
  }

  async appInfo(): Promise<T.AppInfo> {
    await this.tick("appInfo");
    return {
      version: "0.1.0-mock", db_path: "/home/user/.local/share/suanli/suanli.db", catalog_version: this.catalogVersion,
      db_error: this.opts.dbError ?? null,
      counts: { accelerators: ACCELERATORS.length, providers: PROVIDERS.length, offers: OFFERS.length, efficiency: 14, sources: SOURCES.length },
      lang: this.settings.lang,
    };
  }
  async getSettings() { await this.tick("getSettings"); return clone(this.settings); }
  async putSettings(s: T.Settings) {
    await this.tick("putSettings");
    if (!(s.usd_cny > 0)) fail("invalid", "USD→CNY rate must be > 0", [{ path: "usd_cny", value: String(s.usd_cny), message: "must be > 0" }]);
    this.settings = clone(s);
    return clone(s);
  }
  async listAccelerators(f: T.AcceleratorFilter) {
    await this.tick("listAccelerators");
    return clone(ACCELERATORS.filter((a) =>
      (!f.vendor || a.vendor === f.vendor) && (f.domestic === null || (a.domestic ?? false) === f.domestic) &&
      (f.min_memory_gb === null || (a.memory_gb ?? 0) >= f.min_memory_gb) &&
      (f.obtainable_in === null || !["banned", "licence_required"].includes(a.export_status_cn ?? ""))));
  }
  async listProviders() { await this.tick("listProviders"); return clone(PROVIDERS); }
  async getSource(id: string) { await this.tick("getSource"); return clone(SOURCES.find((s) => s.id === id) ?? null); }
  async workloadClasses() { await this.tick("workloadClasses"); return Object.keys(EFFICIENCY); }

  async listOffers(f: T.OfferFilter): Promise<T.OfferView[]> {
    await this.tick("listOffers");
    const rows: T.OfferView[] = [];
    const all: [T.Offer, "catalogue" | "pricebook"][] = [
      ...OFFERS.map((o) => [o, "catalogue"] as [T.Offer, "catalogue"]),
      ...(f.exclude_pricebook ? [] : this.book.offers.map((o) => [o, "pricebook"] as [T.Offer, "pricebook"])),
    ];
    for (const [o, origin] of all) {
      const a = ACCELERATORS.find((x) => x.id === o.accelerator_id);
      const p = PROVIDERS.find((x) => x.id === o.provider_id);
      const disc = this.book.discounts.find((d) => d.offer_id === o.id || (d.offer_id === null && d.provider_id === o.provider_id));
      const per = o.price_unit === "instance_hour" ? o.price / (o.accelerators_per_instance ?? 1)
        : o.price_unit === "instance_month" ? o.price / (o.accelerators_per_instance ?? 1) / 730
        : o.price_unit === "accelerator_hour" ? o.price : null;
      const after = per === null ? null : per * (1 - (disc?.discount_share ?? 0));
      const toCny = (c: string) => (c === "CNY" ? 1 : c === "USD" ? f.fx.USD ?? this.settings.usd_cny : 1);
      const target = f.currency ?? o.currency;
      const comparable = after === null ? null : (after * toCny(o.currency)) / toCny(target);
      const e = f.workload_class && o.accelerator_id ? EFFICIENCY[f.workload_class]?.[o.accelerator_id] : undefined;
      const efficiency: T.RatioUsed | null = e ? { ratio: e.ratio, workload_class: f.workload_class!, ids: [`eff-${o.accelerator_id}`], source: e.source,
        confidence: e.confidence, as_of: "2025", reference_accelerator_id: "nvidia-a100-sxm-80gb" } : null;
      const v: T.OfferView = {
        ...clone(o), origin, provider_name: p?.name ?? o.provider_id, provider_country: p?.country ?? null,
        accelerator_name: a?.name ?? null, vendor: a?.vendor ?? null, domestic: a?.domestic ?? null, export_status_cn: a?.export_status_cn ?? null,
        discount_share: disc?.discount_share ?? null, price_per_accel_hour: after === null ? null : round4(after),
        comparable_price_per_accel_hour: comparable === null ? null : round4(comparable), efficiency,
        effective_price_per_ref_gpu_hour: comparable !== null && efficiency ? round4(comparable / efficiency.ratio) : null,
      };
      if (f.accelerator && o.accelerator_id !== f.accelerator) continue;
      if (f.domestic !== null && (v.domestic ?? false) !== f.domestic) continue;
      if (f.billing_mode && o.billing_mode !== f.billing_mode) continue;
      if (f.provider_country && v.provider_country !== f.provider_country) continue;
      if (f.provider && o.provider_id !== f.provider) continue;
      rows.push(v);
    }
    const key = (v: T.OfferView) => (f.sort === "effective" ? v.effective_price_per_ref_gpu_hour : v.comparable_price_per_accel_hour) ?? Infinity;
    if (f.sort !== "id") rows.sort((a, b) => key(a) - key(b));
    return rows;
  }

  async pricebook() { await this.tick("pricebook"); return clone(this.book); }
  async pricebookPutOffer(o: T.Offer) {
    await this.tick("pricebookPutOffer");
    const errs: T.FieldError[] = [];
    if (!o.id.trim()) errs.push({ path: "id", value: o.id, message: "id is required" });
    if (OFFERS.some((x) => x.id === o.id)) errs.push({ path: "id", value: o.id, message: "a catalogue offer has this id" });
    if (!PROVIDERS.some((p) => p.id === o.provider_id)) errs.push({ path: "provider_id", value: o.provider_id, message: "unknown provider" });
    if (!(o.price > 0)) errs.push({ path: "price", value: String(o.price), message: "price must be > 0" });
    if (errs.length) fail("invalid", "The offer has errors", errs);
    this.book.offers = [...this.book.offers.filter((x) => x.id !== o.id), clone(o)];
    return clone(this.book);
  }
  async pricebookPutDiscount(d: T.Discount) {
    await this.tick("pricebookPutDiscount");
    const errs: T.FieldError[] = [];
    if (!d.id.trim()) errs.push({ path: "id", value: d.id, message: "id is required" });
    if (!(d.discount_share >= 0 && d.discount_share < 1)) errs.push({ path: "discount_share", value: String(d.discount_share), message: "must be 0–1" });
    if (!d.offer_id && !d.provider_id) errs.push({ path: "offer_id", value: "", message: "name an offer or a provider" });
    if (errs.length) fail("invalid", "The discount has errors", errs);
    this.book.discounts = [...this.book.discounts.filter((x) => x.id !== d.id), clone(d)];
    return clone(this.book);
  }
  async pricebookRemove(id: string) {
    await this.tick("pricebookRemove");
    this.book = { offers: this.book.offers.filter((o) => o.id !== id), discounts: this.book.discounts.filter((d) => d.id !== id) };
    return clone(this.book);
  }

  async examples(): Promise<T.Example[]> {
    await this.tick("examples");
    return [
      { file: "a100-8x-buy-vs-rent.toml", toml: a100Toml, name: String(parseToml(a100Toml).name) },
      { file: "ascend-910b-cluster.toml", toml: ascendToml, name: String(parseToml(ascendToml).name) },
      { file: "billing-mix.toml", toml: mixToml, name: String(parseToml(mixToml).name) },
    ];
  }
  async scenarioFromToml(text: string) {
    await this.tick("scenarioFromToml");
    try {
      return parseToml(text) as T.ScenarioDoc;
    } catch (e) {
      if (e instanceof TomlError) fail("parse", e.message, [{ path: e.path, value: "", message: e.message }]);
      throw e;
    }
  }
  async scenarioToToml(s: T.ScenarioDoc) { await this.tick("scenarioToToml"); return stringifyToml(s); }

  async evaluate(s: T.ScenarioDoc): Promise<T.Evaluated> {
    await this.tick("evaluate");
    const errs = validate(s);
    if (errs.length) fail("invalid", `The scenario has ${errs.length} problem(s)`, errs);
    return evaluateMock(s);
  }
  async simulate(s: T.ScenarioDoc, trials: number, seed: number): Promise<T.SimulationJson> {
    await this.tick("simulate");
    const { evaluation } = await this.evaluate(s);
    const spread = (x: number, lo: number, hi: number): T.Range => ({ p10: x * lo, p50: x, p90: x * hi, mean: x * (lo + hi + 1) / 3 });
    const min = Math.min(...evaluation.options.map((o) => o.total_npv));
    return {
      scenario: evaluation.scenario, currency: evaluation.currency, trials, seed,
      options: evaluation.options.map((o, i) => {
        const opt = (s.options as T.ScenarioDoc[])[i];
        const porting = opt.porting ? {
          maturity: opt.porting.maturity, adapter: opt.porting.adapter ?? null, engineer_months: 12, cost: 600000, delay_months: 3,
          maintenance_per_year: 120000, effort_is_default_assumption: !s.porting,
        } : null;
        return {
          id: o.id, label: o.label, effective_price_per_ref_gpu_hour: o.effective_price_per_ref_gpu_hour,
          all_in_per_ref_gpu_hour: o.effective_price_per_ref_gpu_hour, total_npv: o.total_npv,
          nominal: spread(o.total_nominal, 0.88, 1.18), npv: spread(o.total_npv, 0.88, 1.18),
          probability_cheapest: o.total_npv === min ? 0.7 : 0.3 / Math.max(1, evaluation.options.length - 1),
          porting,
          // points 0–100, as the real backend (crates/model/src/supply.rs)
          supply_risk: opt.supply || opt.domestic ? { score: opt.domestic ? 17.5 : 35, drivers: [["export-control status", opt.domestic ? 2.5 : 20], ["one vendor or channel", 10], ["long-term supply stability", 5]] } : null,
        };
      }),
    };
  }
  async sensitivity(s: T.ScenarioDoc): Promise<T.SensitivityJson> {
    await this.tick("sensitivity");
    const base = evaluateMock(s).evaluation;
    const bars: T.TornadoBar[] = [];
    const paths: string[] = ["discount_rate_annual", "demand.scale"];
    (s.options as T.ScenarioDoc[]).forEach((o, i) => {
      if (o.owned) paths.push(`options[${i}].owned.capex_per_server`);
      for (const k of ["on_demand", "reserved", "spot"]) if (o[k]?.price_per_accel_hour !== undefined) paths.push(`options[${i}].${k}.price_per_accel_hour`);
    });
    for (const path of paths) {
      const vary = (f: number) => {
        const c = clone(s);
        if (path === "demand.scale") {
          if (c.demand.monthly_ref_gpus) c.demand.monthly_ref_gpus = c.demand.monthly_ref_gpus.map((x: number) => x * f);
          if (c.demand.ref_gpu_hours) c.demand.ref_gpu_hours *= f;
        } else {
          const keys = path.replace(/\[(\d+)\]/g, ".$1").split(".");
          let o = c;
          for (const k of keys.slice(0, -1)) o = o[k];
          const last = keys[keys.length - 1];
          o[last] = path === "discount_rate_annual" ? (o[last] ?? 0.08) * f : o[last] * f;
        }
        return evaluateMock(c).evaluation.options.map((x) => x.total_npv);
      };
      const lo = vary(0.8), hi = vary(1.2);
      const totals: [string, number, number][] = base.options.map((o, j) => [o.id, lo[j], hi[j]]);
      const swing = Math.max(...totals.map(([, a, b]) => Math.abs(b - a)));
      bars.push({ path, low: 0.8, high: 1.2, swing, totals });
    }
    bars.sort((a, b) => b.swing - a.swing);
    return { base_npv: base.options.map((o) => [o.id, o.total_npv]), tornado: bars, break_even: [] };
  }

  async libraryList() {
    await this.tick("libraryList");
    return [...this.library.values()].map((x) => clone(x.meta)).sort((a, b) => b.updated_at.localeCompare(a.updated_at) || b.id - a.id);
  }
  private get(id: number) {
    const x = this.library.get(id);
    if (!x) fail("not_found", `No saved scenario ${id}`);
    return x!;
  }
  async libraryOpen(id: number) { await this.tick("libraryOpen"); return clone(this.get(id)); }
  async librarySave(id: number | null, s: T.ScenarioDoc) {
    await this.tick("librarySave");
    const errs = validate(s);
    if (errs.length) fail("invalid", `Not saved: the scenario has ${errs.length} problem(s)`, errs);
    const t = now();
    const meta: T.ScenarioMeta = id !== null ? { ...this.get(id).meta, name: s.name, updated_at: t } : { id: this.nextId++, name: s.name, created_at: t, updated_at: t };
    this.library.set(meta.id, { meta, scenario: clone(s) });
    return clone(meta);
  }
  async libraryDuplicate(id: number) {
    await this.tick("libraryDuplicate");
    const src = this.get(id);
    const t = now();
    const name = `${src.meta.name} (copy)`;
    const meta = { id: this.nextId++, name, created_at: t, updated_at: t };
    this.library.set(meta.id, { meta, scenario: { ...clone(src.scenario), name } });
    return clone(meta);
  }
  async libraryRename(id: number, name: string) {
    await this.tick("libraryRename");
    if (!name.trim()) fail("invalid", "The name is empty", [{ path: "name", value: name, message: "required" }]);
    const x = this.get(id);
    x.meta = { ...x.meta, name, updated_at: now() };
    x.scenario.name = name;
    return clone(x.meta);
  }
  async libraryDelete(id: number) { await this.tick("libraryDelete"); this.get(id); this.library.delete(id); return null; }
  async libraryCompare(a: number, b: number): Promise<T.Comparison> {
    await this.tick("libraryCompare");
    const A = this.get(a), B = this.get(b);
    const fa = flatten(A.scenario), fb = flatten(B.scenario);
    const changes: T.Change[] = [];
    for (const k of [...new Set([...Object.keys(fa), ...Object.keys(fb)])].sort())
      if (fa[k] !== fb[k]) changes.push({ path: k, before: fa[k] ?? null, after: fb[k] ?? null });
    const ea = evaluateMock(A.scenario).evaluation.options, eb = evaluateMock(B.scenario).evaluation.options;
    const ids = [...new Set([...ea.map((o) => o.id), ...eb.map((o) => o.id)])];
    const totals = ids.map((id) => {
      const x = ea.find((o) => o.id === id), y = eb.find((o) => o.id === id);
      return { option_id: id, label: (y ?? x)!.label, before_npv: x?.total_npv ?? null, after_npv: y?.total_npv ?? null,
        before_nominal: x?.total_nominal ?? null, after_nominal: y?.total_nominal ?? null };
    });
    return { a: clone(A.meta), b: clone(B.meta), currency_a: A.scenario.currency, currency_b: B.scenario.currency, changes, totals };
  }

  async autosavePut(s: T.ScenarioDoc, libraryId: number | null) {
    await this.tick("autosavePut");
    this.draft = { scenario: clone(s), library_id: libraryId, saved_at: now() };
    return null;
  }
  async autosaveGet() { await this.tick("autosaveGet"); return clone(this.draft); }
  async autosaveClear() { await this.tick("autosaveClear"); this.draft = null; return null; }

  async catalogUpdateFile(path: string) {
    await this.tick("catalogUpdateFile");
    if (!path.trim()) fail("read", "No file given");
    if (!path.endsWith(".pack")) fail("pack", `${path} is not a Suanli catalogue pack (.pack)`);
    this.catalogVersion++;
    return { version: this.catalogVersion, offers_added: 3, offers_changed: 5, offers_removed: 1, message: `Catalogue updated to version ${this.catalogVersion}` };
  }
  async catalogUpdateUrl(url: string, onProgress: (p: T.Progress) => void) {
    await this.tick("catalogUpdateUrl");
    if (!/^https:\/\//.test(url)) fail("pack", "Only https:// addresses are accepted");
    const total = 400_000;
    for (let done = 0; done <= total; done += 100_000) {
      onProgress({ stage: "download", done_bytes: done, total_bytes: total });
      await new Promise((r) => setTimeout(r, 20));
    }
    onProgress({ stage: "verify", done_bytes: total, total_bytes: total });
    onProgress({ stage: "apply", done_bytes: total, total_bytes: total });
    this.catalogVersion++;
    onProgress({ stage: "done", done_bytes: total, total_bytes: total });
    return { version: this.catalogVersion, offers_added: 2, offers_changed: 4, offers_removed: 0, message: `Catalogue updated to version ${this.catalogVersion}` };
  }
  async defaultExportPath(name: string, extension: string) {
    await this.tick("defaultExportPath");
    const slug = name.replace(/[\\/:*?"<>|]+/g, "-").replace(/\s+/g, " ").trim().slice(0, 60) || "scenario";
    return `/home/user/Documents/${slug}.${extension}`;
  }
  private async exportTo(s: T.ScenarioDoc, path: string, ext: string): Promise<T.Exported> {
    const errs = validate(s);
    if (errs.length) fail("invalid", "The scenario has errors; fix them before exporting", errs);
    if (!path.trim()) fail("write", "No path given", [{ path: "path", value: path, message: "required" }]);
    if (!path.toLowerCase().endsWith(`.${ext}`)) fail("write", `The file name must end in .${ext}`, [{ path: "path", value: path, message: `must end in .${ext}` }]);
    return { path, bytes: ext === "pdf" ? 184_320 : 24_576 };
  }
  async exportProposal(s: T.ScenarioDoc, path: string, _meta: T.ProposalMeta) { await this.tick("exportProposal"); return this.exportTo(s, path, "pdf"); }
  async exportSpreadsheet(s: T.ScenarioDoc, path: string) { await this.tick("exportSpreadsheet"); return this.exportTo(s, path, "xlsx"); }
  async pickOpenFile() { return null; }
  async pickSaveFile() { return null; }
}

/** path → text of every leaf of a scenario, with options keyed by id. */
function flatten(x: unknown, prefix = "", out: Record<string, string> = {}): Record<string, string> {
  if (Array.isArray(x) && x.every((v) => v && typeof v === "object" && !Array.isArray(v))) {
    x.forEach((v, i) => flatten(v, `${prefix}[${(v as { id?: string }).id ?? i}]`, out));
  } else if (x && typeof x === "object" && !Array.isArray(x)) {
    for (const [k, v] of Object.entries(x)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else out[prefix] = Array.isArray(x) ? JSON.stringify(x) : String(x);
  return out;
}
const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
