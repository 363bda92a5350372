// Contract types of the Rust backend (/tmp/suanli/contract.md). Field names are
// the serde names (snake_case). When ui/src/bindings.ts is generated, this file
// re-exports those types instead.

export type Lang = "en" | "zh";
export interface FieldError { path: string; value: string; message: string }
export interface AppError { code: string; message: string; fields: FieldError[] }
export interface Counts { accelerators: number; providers: number; offers: number; efficiency: number; sources: number }
export interface AppInfo {
  version: string;
  db_path: string;
  catalog_version: number | null;
  db_error: AppError | null;
  counts: Counts | null;
  /** The language backend messages come in (the setting, else the system's). */
  lang: Lang;
}
export type Currency = "CNY" | "USD";
export interface Settings { lang: Lang; currency: Currency; usd_cny: number; fx_source: string; reference_gpu: string }
export interface AcceleratorFilter { vendor: string | null; domestic: boolean | null; min_memory_gb: number | null; obtainable_in: "cn" | null }
export interface Accelerator {
  id: string; vendor: string; vendor_zh: string | null; name: string; name_zh: string | null; domestic: boolean | null;
  memory_gb: number | null; memory_type: string | null; memory_bandwidth_gbps: number | null;
  bf16_tflops: number | null; fp16_tflops: number | null; fp32_tflops: number | null; int8_tops: number | null; tdp_w: number | null;
  interconnect: string | null; interconnect_gbps: number | null; form_factor: string | null; software_stack: string | null;
  framework_adapter: string | null; release: string | null;
  export_status_cn: string | null; export_status_since: string | null; export_status_notes: string | null;
  list_price: number | null; list_price_currency: string | null; list_price_as_of: string | null;
  source: string; as_of: string | null; confidence: string; notes: string | null;
}
export interface Provider {
  id: string; name: string; name_zh: string | null; country: string | null; kind: string;
  source: string; as_of: string | null; confidence: string; [k: string]: unknown;
}
export interface Source { id: string; title: string; url: string | null; publisher: string | null; as_of: string | null; [k: string]: unknown }
export type BillingMode = "on_demand" | "reserved_1y" | "reserved_3y" | "spot" | "monthly" | "savings_plan" | "purchase";
export interface OfferFilter {
  accelerator: string | null; vendor: string | null; domestic: boolean | null; billing_mode: string | null;
  provider: string | null; provider_country: string | null; region: string | null; obtainable_in: "cn" | null;
  min_price: number | null; max_price: number | null; bare_metal: boolean | null; dedicated_gpu: boolean | null;
  encryption_in_transit: boolean | null; certification: string | null; workload_class: string | null;
  currency: string | null; fx: Record<string, number>; exclude_pricebook: boolean; sort: "id" | "price" | "effective";
}
export type PriceUnit = "instance_hour" | "accelerator_hour" | "instance_month" | "server";
export interface Offer {
  id: string; provider_id: string; accelerator_id: string | null; instance: string | null; region: string | null;
  billing_mode: string; accelerators_per_instance: number | null; price: number; price_unit: PriceUnit; currency: string;
  upfront: number | null; interconnect: string | null; as_of: string | null; source: string; confidence: string; notes: string | null;
}
export interface RatioUsed {
  ratio: number; workload_class: string; ids: string[]; source: string; confidence: string; as_of: string | null; reference_accelerator_id: string;
}
export interface OfferView extends Offer {
  origin: "catalogue" | "pricebook"; provider_name: string; provider_country: string | null; accelerator_name: string | null;
  vendor: string | null; domestic: boolean | null; export_status_cn: string | null; discount_share: number | null;
  price_per_accel_hour: number | null; comparable_price_per_accel_hour: number | null; efficiency: RatioUsed | null;
  effective_price_per_ref_gpu_hour: number | null;
}
export interface Discount { id: string; offer_id: string | null; provider_id: string | null; discount_share: number; note: string | null; as_of: string | null }
export interface PriceBook { offers: Offer[]; discounts: Discount[] }
export interface Example { file: string; name: string; toml: string }
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ScenarioDoc = Record<string, any>;
export type Kind = "buy" | "rent" | "mix";
export interface BreakEven { against: string; month: number | null }
export interface OptionJson {
  id: string; label: string; kind: Kind; currency: string; total_nominal: number; total_npv: number;
  effective_price_per_ref_gpu_hour: number | null; breakdown: Record<string, number>; monthly: number[];
  ref_gpu_hours_served: number; ref_gpu_hours_unserved: number; accelerator_hours: number; owned_utilisation: number | null;
  time_to_complete_months: number | null; completes_within_horizon: boolean | null; meets_deadline: boolean | null;
  break_even: BreakEven | null; latency_ms: number | null; notes: string[];
}
export interface EvaluationJson {
  scenario: string; currency: string; horizon_months: number; demand_ref_gpu_hours: number;
  cheapest_nominal: string | null; cheapest_npv: string | null; options: OptionJson[];
}
export interface SourceLine { option_id: string; field: string; text: string }
export interface Evaluated { evaluation: EvaluationJson; notes: string[]; sources: SourceLine[] }
export interface Range { p10: number; p50: number; p90: number; mean: number }
export interface Porting {
  maturity: string; adapter: string | null; engineer_months: number; cost: number; delay_months: number;
  maintenance_per_year: number; effort_is_default_assumption: boolean;
}
export interface SimOption {
  id: string; label: string; effective_price_per_ref_gpu_hour: number | null; all_in_per_ref_gpu_hour: number | null; total_npv: number;
  nominal: Range; npv: Range; probability_cheapest: number; porting: Porting | null;
  supply_risk: { score: number; drivers: [string, number][] } | null;
}
export interface SimulationJson { scenario: string; currency: string; trials: number; seed: number; options: SimOption[] }
export interface TornadoBar { path: string; low: number; high: number; swing: number; totals: [string, number, number][] }
export interface SensitivityJson {
  base_npv: [string, number][];
  tornado: TornadoBar[];
  break_even: { buy: string; rent: string; utilisation: number | null; current_utilisation: number | null; month: number | null }[];
}
export interface ScenarioMeta { id: number; name: string; created_at: string; updated_at: string }
export interface SavedScenario { meta: ScenarioMeta; scenario: ScenarioDoc }
export interface Draft { scenario: ScenarioDoc; library_id: number | null; saved_at: string }
export interface Change { path: string; before: string | null; after: string | null }
export interface TotalChange {
  option_id: string; label: string; before_npv: number | null; after_npv: number | null; before_nominal: number | null; after_nominal: number | null;
}
export interface Comparison { a: ScenarioMeta; b: ScenarioMeta; currency_a: string; currency_b: string; changes: Change[]; totals: TotalChange[] }
export interface UpdateSummary { version: number | null; offers_added: number; offers_changed: number; offers_removed: number; message: string }
export interface Progress { stage: "download" | "verify" | "apply" | "done" | string; done_bytes: number; total_bytes: number | null }
/** The proposal's cover fields (generated ProposalFields calls the organisation `firm`; it has no title: the PDF uses the scenario name). */
export interface ProposalMeta { client: string; author: string; organisation: string }
export interface Exported { path: string; bytes: number }
