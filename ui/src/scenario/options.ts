// Building and reshaping options in the scenario document (docs/scenario-format.md).
import type { OfferView, ScenarioDoc } from "../backend/types";
import { isTable } from "./paths";

export type Pool = "owned" | "reserved" | "on_demand" | "spot";
export const POOLS: Pool[] = ["owned", "reserved", "on_demand", "spot"];

export function uniqueId(existing: string[], base: string): string {
  const slug = base.toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40) || "option";
  if (!existing.includes(slug)) return slug;
  for (let n = 2; ; n++) if (!existing.includes(`${slug}-${n}`)) return `${slug}-${n}`;
}

export function defaultPool(pool: Pool): ScenarioDoc {
  switch (pool) {
    case "owned": return { servers: 1, accelerators_per_server: 8, capex_per_server: 1_500_000 };
    case "reserved": return { term_months: 12, price_per_accel_hour: 5 };
    case "on_demand": return { price_per_accel_hour: 8 };
    case "spot": return { price_per_accel_hour: 3 };
  }
}

export function customOption(existing: string[], kind: "buy" | "rent" | "mix", label: string): ScenarioDoc {
  const id = uniqueId(existing, kind);
  if (kind === "buy") return { id, label, kind, owned: defaultPool("owned") };
  if (kind === "rent") return { id, label, kind, billing: "on_demand", on_demand: defaultPool("on_demand") };
  return { id, label, kind, reserved: { ...defaultPool("reserved"), accelerators: 8 }, on_demand: defaultPool("on_demand") };
}

/** Changes an option's kind, keeping id, label, accelerator and the common fields. */
export function withKind(o: ScenarioDoc, kind: "buy" | "rent" | "mix"): ScenarioDoc {
  const base: ScenarioDoc = {};
  for (const [k, v] of Object.entries(o)) if (!POOLS.includes(k as Pool) && k !== "billing" && k !== "kind" && k !== "offer_filter") base[k] = v;
  const fresh = customOption([], kind, "");
  delete fresh.id; delete fresh.label;
  return { ...base, ...fresh, kind };
}

/** Changes a rent option's billing, carrying the price (or offer) over. */
export function withBilling(o: ScenarioDoc, billing: "on_demand" | "reserved" | "spot"): ScenarioDoc {
  const current = typeof o.billing === "string" ? o.billing : "on_demand";
  const oldPool = o[current];
  const old = isTable(oldPool) ? oldPool : {};
  const pool: ScenarioDoc = {};
  for (const k of ["price_per_accel_hour", "offer", "currency", "efficiency_ratio"]) if (old[k] !== undefined) pool[k] = old[k];
  if (billing === "reserved") pool.term_months = 12;
  if (pool.price_per_accel_hour === undefined && pool.offer === undefined) Object.assign(pool, defaultPool(billing));
  const next: ScenarioDoc = { ...o, billing };
  delete next[current];
  if (billing === "on_demand") delete next.on_demand;
  next[billing] = pool;
  return next;
}

/** A rent option that takes its price from a catalogue (or price-book) offer. */
export function optionFromOffer(existing: string[], offer: OfferView, billingLabel: string): ScenarioDoc {
  const billing = offer.billing_mode === "on_demand" ? "on_demand" : offer.billing_mode === "spot" ? "spot" : "reserved";
  const pool: ScenarioDoc = { offer: offer.id };
  if (billing === "reserved") pool.term_months = offer.term_months ?? 12;
  const o: ScenarioDoc = {
    id: uniqueId(existing, offer.id),
    label: `${offer.provider_name} ${offer.accelerator_name ?? offer.accelerator_id ?? ""} ${billingLabel}`.replace(/\s+/g, " ").trim(),
    kind: "rent",
    billing,
    [billing]: pool,
  };
  if (offer.accelerator_id) o.accelerator = offer.accelerator_id;
  if (offer.domestic) o.domestic = true;
  if (offer.provider_country) o.provider_country = offer.provider_country;
  return o;
}
