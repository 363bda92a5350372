// A scenario field's path as the form names it, for screens that list fields:
// "options.rent-a100.on_demand.price_per_accel_hour" (or "options[1]…") →
// "Rent A100: Price per accelerator-hour (On demand)". A path it does not know
// comes back as it is; screens show the raw path in a tooltip either way.
import { useI18n } from "vue-i18n";

/** The last segment of a path → the form's label for it. */
const FIELD: Record<string, string> = {
  name: "editor.name", description: "editor.description", currency: "editor.currency",
  price_per_accel_hour: "editor.pricePerHour", efficiency_ratio: "editor.efficiency", capex_per_server: "editor.capex",
  servers: "editor.servers", accelerators_per_server: "editor.perServer", electricity_per_kwh: "editor.electricity",
  pue: "editor.pue", staff_per_year: "editor.staff", installation: "editor.installation", network_storage_capex: "editor.network",
  colocation_per_kw_month: "editor.colocation", maintenance_share_per_year: "editor.maintenance", other_opex_per_year: "editor.otherOpex",
  server_kw: "editor.serverKw", lead_time_months: "editor.leadTime", upfront_share: "editor.upfront", interruption_overhead: "editor.overhead",
  availability: "editor.availability", ref_gpu_hours: "editor.refGpuHours", discount_rate_annual: "editor.discountRate", horizon_months: "editor.horizon",
  term_months: "editor.termMonths", monthly_ref_gpus: "editor.monthly", low_priority_share: "editor.lowPriority",
  cluster_accelerators: "editor.cluster", deadline_months: "editor.deadline", workload_class: "editor.workloadClass",
  scale: "results.inputs.demandScale", scaling_efficiency: "results.inputs.scalingEfficiency", achieved_share: "results.inputs.achievedShare",
  market_residual_share: "results.inputs.resaleShare", engineer_month_cost: "results.inputs.engineerMonthCost",
  bridge_price_per_ref_gpu_hour: "results.inputs.bridgePrice", code_kloc: "results.inputs.codeKloc",
  custom_kernels: "results.inputs.customKernels", engineers: "results.inputs.engineers",
};

/** `options.ID.…` or `options[N].…`: the option's id or index, and the rest of the path. */
function optionPath(parts: string[]): { option: string | number; rest: string[] } | null {
  const indexed = /^options\[(\d+)\]$/.exec(parts[0]);
  if (indexed) return { option: Number(indexed[1]), rest: parts.slice(1) };
  if (parts[0] === "options" && parts.length > 2) return { option: parts[1], rest: parts.slice(2) };
  return null;
}

/**
 * `fieldName(path, optionLabel, currency)`: the field's name in the current
 * language. `optionLabel` names an option by its id or index (null: unknown,
 * the id or index is shown).
 */
export function useFieldName() {
  const { t, te } = useI18n();
  return (path: string, optionLabel: (option: string | number) => string | null, currency: string): string => {
    const parts = path.split(".");
    const last = parts[parts.length - 1];
    if (parts[0] === "fx" && parts.length === 2) return t("results.inputs.fx", { code: parts[1], cur: currency });
    const key = FIELD[last];
    const field = key && te(key) ? t(key, { cur: currency }) : null;
    const o = optionPath(parts);
    if (o && field) {
      const pool = o.rest.length > 1 && te(`editor.pools.${o.rest[0]}`) ? ` (${t(`editor.pools.${o.rest[0]}`)})` : "";
      return `${optionLabel(o.option) ?? o.option}: ${field}${pool}`;
    }
    return field ?? path;
  };
}
