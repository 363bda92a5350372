// The mock backend's stand-in for the Rust engine: plain arithmetic that
// follows the scenario format closely enough that results move when inputs
// move. It is not the cost model; the app uses the Rust engine.
import type { EvaluationJson, FieldError, OptionJson, ScenarioDoc, SourceLine } from "./types";
import { OFFERS } from "./mock-data";

const HOURS = 730;
const CURRENCIES = ["CNY", "USD", "EUR", "GBP", "JPY", "HKD", "SGD"];
const num = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

export function validate(s: ScenarioDoc): FieldError[] {
  const errs: FieldError[] = [];
  const bad = (path: string, value: unknown, message: string) => errs.push({ path, value: String(value ?? ""), message });
  if (typeof s.name !== "string" || !s.name.trim()) bad("name", s.name, "name is required");
  const h = s.horizon_months;
  if (!Number.isInteger(h) || h < 1 || h > 240) bad("horizon_months", h, "horizon must be a whole number of months, 1–240");
  if (!CURRENCIES.includes(s.currency)) bad("currency", s.currency, "unknown currency");
  const r = s.discount_rate_annual ?? 0;
  if (!num(r) || r < 0 || r > 1) bad("discount_rate_annual", r, "must be a share between 0 and 1");
  const d = s.demand;
  if (!d || typeof d !== "object") bad("demand", "", "demand is required");
  else if (d.kind === "profile") {
    const m = d.monthly_ref_gpus;
    if (!Array.isArray(m) || m.length === 0) bad("demand.monthly_ref_gpus", m, "give at least one monthly value");
    else m.forEach((x: unknown, i: number) => { if (!num(x) || x < 0) bad(`demand.monthly_ref_gpus[${i}]`, x, "must be a number ≥ 0"); });
  } else if (d.kind === "job") {
    const direct = d.ref_gpu_hours !== undefined && d.ref_gpu_hours !== null;
    if (direct) { if (!num(d.ref_gpu_hours) || d.ref_gpu_hours <= 0) bad("demand.ref_gpu_hours", d.ref_gpu_hours, "must be > 0"); }
    else for (const k of ["parameters", "tokens", "mfu", "reference_peak_tflops"]) {
      if (!num(d[k]) || d[k] <= 0) bad(`demand.${k}`, d[k], "give ref_gpu_hours or all of parameters, tokens, mfu, reference_peak_tflops");
    }
    if (num(d.mfu) && d.mfu > 1) bad("demand.mfu", d.mfu, "must be in (0, 1]");
    if (!num(d.cluster_accelerators) || d.cluster_accelerators < 1) bad("demand.cluster_accelerators", d.cluster_accelerators, "required, ≥ 1");
  } else if (d.kind !== "portfolio") bad("demand.kind", d.kind, "must be job, profile or portfolio");
  const opts = s.options;
  if (!Array.isArray(opts) || opts.length === 0) { bad("options", "", "at least one option is required"); return errs; }
  const seen = new Set<string>();
  opts.forEach((o: ScenarioDoc, i: number) => {
    const p = `options[${i}]`;
    if (typeof o.id !== "string" || !o.id.trim()) bad(`${p}.id`, o.id, "id is required");
    else if (seen.has(o.id)) bad(`${p}.id`, o.id, "duplicate option id");
    seen.add(o.id);
    if (!["buy", "rent", "mix"].includes(o.kind)) bad(`${p}.kind`, o.kind, "must be buy, rent or mix");
    if (o.efficiency_ratio !== undefined && (!num(o.efficiency_ratio) || o.efficiency_ratio < 0.001)) bad(`${p}.efficiency_ratio`, o.efficiency_ratio, "must be ≥ 0.001");
    const price = (pool: string) => {
      const q = o[pool];
      if (q.offer) { if (!OFFERS.some((x) => x.id === q.offer)) bad(`${p}.${pool}.offer`, q.offer, "no such offer in the catalogue"); return; }
      if (!num(q.price_per_accel_hour) || q.price_per_accel_hour < 0) bad(`${p}.${pool}.price_per_accel_hour`, q.price_per_accel_hour, "required, ≥ 0");
      if (q.currency && q.currency !== s.currency && !num(s.fx?.[q.currency])) bad(`fx.${q.currency}`, "", `no rate for ${q.currency}`);
    };
    if (o.kind === "buy") {
      const w = o.owned;
      if (!w) bad(`${p}.owned`, "", "a buy option needs [options.owned]");
      else {
        for (const k of ["servers", "accelerators_per_server"]) if (!Number.isInteger(w[k]) || w[k] < 1) bad(`${p}.owned.${k}`, w[k], "required, a whole number ≥ 1");
        if (!num(w.capex_per_server) || w.capex_per_server < 0) bad(`${p}.owned.capex_per_server`, w.capex_per_server, "required, ≥ 0");
        if (w.pue !== undefined && (!num(w.pue) || w.pue < 1 || w.pue > 5)) bad(`${p}.owned.pue`, w.pue, "must be 1–5");
        for (const k of ["electricity_per_kwh", "staff_per_year", "other_opex_per_year", "colocation_per_kw_month", "server_kw", "installation", "network_storage_capex"])
          if (w[k] !== undefined && (!num(w[k]) || w[k] < 0)) bad(`${p}.owned.${k}`, w[k], "must be ≥ 0");
      }
      if (o.on_demand) price("on_demand");
    } else if (o.kind === "rent") {
      if (!["on_demand", "reserved", "spot"].includes(o.billing)) bad(`${p}.billing`, o.billing, "must be on_demand, reserved or spot");
      else if (!o[o.billing] && !o.offer_filter) bad(`${p}.${o.billing}`, "", `a rent option with billing = ${o.billing} needs [options.${o.billing}]`);
      else if (o[o.billing]) price(o.billing);
      if (o.billing === "reserved" && o.reserved && (!Number.isInteger(o.reserved.term_months) || o.reserved.term_months < 1))
        bad(`${p}.reserved.term_months`, o.reserved.term_months, "required, 1–120");
    } else if (o.kind === "mix") {
      const pools = ["owned", "reserved", "on_demand", "spot"].filter((k) => o[k]);
      if (pools.length < 2) bad(`${p}`, "", "a mix needs a base with on_demand and/or spot, or both on_demand and spot");
      for (const k of ["reserved", "on_demand", "spot"]) if (o[k]) price(k);
    }
  });
  return errs;
}

function monthlyDemand(s: ScenarioDoc): number[] {
  const H = s.horizon_months as number;
  const d = s.demand;
  const out = new Array(H).fill(0);
  if (d.kind === "profile") {
    const m: number[] = d.monthly_ref_gpus ?? [0];
    for (let i = 0; i < H; i++) out[i] = m[i % m.length] * HOURS;
  } else if (d.kind === "job") {
    let total = jobHours(d);
    const perMonth = (d.cluster_accelerators ?? 8) * HOURS * ((d.run_hours_per_day ?? 24) / 24);
    for (let i = 0; i < H && total > 0; i++) { out[i] = Math.min(total, perMonth); total -= out[i]; }
  } else {
    for (const j of d.jobs ?? []) {
      const start = j.start_month ?? 0;
      const end = Math.min(j.deadline_month ?? H, H);
      const w = jobHours(j) / Math.max(1, end - start);
      for (let i = start; i < end; i++) out[i] += w;
    }
  }
  return out;
}

function jobHours(d: ScenarioDoc): number {
  if (num(d.ref_gpu_hours)) return d.ref_gpu_hours;
  return (6 * d.parameters * d.tokens) / (d.reference_peak_tflops * 1e12 * d.mfu) / 3600;
}

/** Price per accelerator-hour in the scenario currency, and where it came from. */
function poolPrice(s: ScenarioDoc, pool: ScenarioDoc): { price: number; from: string | null } {
  if (pool.offer) {
    const o = OFFERS.find((x) => x.id === pool.offer)!;
    const per = o.price_unit === "instance_hour" ? o.price / (o.accelerators_per_instance ?? 1)
      : o.price_unit === "instance_month" ? o.price / (o.accelerators_per_instance ?? 1) / HOURS : o.price;
    const fx = o.currency === s.currency ? 1 : s.fx?.[o.currency] ?? (o.currency === "USD" ? 7.1 : 1);
    return { price: per * fx, from: `offer ${o.id} (${o.source}, ${o.as_of}, ${o.confidence})` };
  }
  const cur = pool.currency ?? s.currency;
  const fx = cur === s.currency ? 1 : s.fx?.[cur] ?? 1;
  return { price: pool.price_per_accel_hour * fx, from: null };
}

export function evaluateMock(s: ScenarioDoc): { evaluation: EvaluationJson; sources: SourceLine[]; notes: string[] } {
  const H = s.horizon_months as number;
  const demand = monthlyDemand(s);
  const rate = s.discount_rate_annual ?? 0;
  const sources: SourceLine[] = [];
  const notes: string[] = [];
  const options: OptionJson[] = (s.options as ScenarioDoc[]).map((o) => {
    const eff = (o.efficiency_ratio ?? 1) * (o.achieved_share ?? 1);
    const cats: Record<string, number[]> = {};
    const add = (k: string, m: number, v: number) => { (cats[k] ??= new Array(H).fill(0))[m] += v; };
    let served = 0, unserved = 0, accelHours = 0, ownedUsed = 0, ownedCap = 0;
    const rent = (pool: string, m: number, refHours: number, cat = pool) => {
      const { price, from } = poolPrice(s, o[pool]);
      const hrs = refHours / eff * (pool === "spot" ? 1 + (o.spot.interruption_overhead ?? 0) : 1);
      add(cat, m, hrs * price);
      accelHours += hrs;
      served += refHours;
      if (from && m === 0) { sources.push({ option_id: o.id, field: `${pool}.price_per_accel_hour`, text: from }); notes.push(`${o.id}: ${pool} price from ${from}`); }
    };
    for (const [field, text] of Object.entries(o.sources ?? {})) if (typeof text === "string") sources.push({ option_id: o.id, field, text });
    if (o.kind === "buy" && o.owned) {
      const w = o.owned;
      const hw = w.servers * w.capex_per_server;
      const lead = w.lead_time_months ?? 0;
      const payAt = w.capex_payment === "on_order" ? 0 : Math.min(lead, H - 1);
      add("hardware", payAt, hw + (w.network_storage_capex ?? 0));
      if (w.installation) add("installation", payAt, w.installation);
      const cap = w.servers * w.accelerators_per_server * HOURS;
      for (let m = 0; m < H; m++) {
        if (m < lead) { if (o.on_demand) rent("on_demand", m, demand[m]); else unserved += demand[m]; continue; }
        const use = Math.min(demand[m] / eff, cap);
        ownedUsed += use; ownedCap += cap; accelHours += use; served += use * eff;
        const util = use / cap;
        add("power", m, w.servers * (w.server_kw ?? 0) * HOURS * util * (w.pue ?? 1) * (w.electricity_per_kwh ?? 0));
        add("hosting", m, w.servers * (w.provisioned_kw_per_server ?? w.server_kw ?? 0) * (w.colocation_per_kw_month ?? 0));
        add("staff", m, (w.staff_per_year ?? 0) / 12);
        add("maintenance", m, hw * (w.maintenance_share_per_year ?? 0) / 12);
        add("other_opex", m, (w.other_opex_per_year ?? 0) / 12);
        const over = demand[m] - use * eff;
        if (over > 1e-9) { if (o.on_demand) rent("on_demand", m, over); else unserved += over; }
      }
      const life = (w.depreciation_years ?? 5) * 12;
      const residual = w.residual === "market" ? hw * (w.market_residual_share ?? 0) : hw * Math.max(0, 1 - (H - lead) / life);
      if (residual) add("residual_value", H - 1, -residual);
    } else if (o.kind === "rent" && o[o.billing]) {
      if (o.billing === "reserved") {
        const peak = Math.max(...demand);
        const n = o.reserved.accelerators ?? Math.ceil(peak / eff / HOURS);
        const { price } = poolPrice(s, o.reserved);
        for (let m = 0; m < H; m++) {
          add("reserved", m, n * HOURS * price);
          const use = Math.min(demand[m], n * HOURS * eff);
          served += use; accelHours += use / eff;
          const over = demand[m] - use;
          if (over > 1e-9) { if (o.on_demand) rent("on_demand", m, over); else unserved += over; }
        }
      } else if (o.billing === "spot") {
        const avail = o.spot.availability ?? 1;
        for (let m = 0; m < H; m++) {
          rent("spot", m, demand[m] * avail);
          if (avail < 1 && o.on_demand) rent("on_demand", m, demand[m] * (1 - avail));
        }
      } else for (let m = 0; m < H; m++) rent(o.billing, m, demand[m]);
    } else if (o.kind === "mix") {
      const low = s.demand.low_priority_share ?? 0;
      const base = o.reserved?.accelerators ?? (o.owned ? o.owned.servers * o.owned.accelerators_per_server : 0);
      for (let m = 0; m < H; m++) {
        let rest = demand[m];
        if (o.spot && low > 0) { rent("spot", m, rest * low); rest *= 1 - low; }
        if (o.reserved) {
          add("reserved", m, base * HOURS * poolPrice(s, o.reserved).price);
          const use = Math.min(rest, base * HOURS * eff);
          served += use; accelHours += use / eff; rest -= use;
        }
        if (rest > 1e-9) { if (o.on_demand) rent("on_demand", m, rest); else if (o.spot) rent("spot", m, rest); else unserved += rest; }
      }
    }
    const monthly = new Array(H).fill(0);
    const breakdown: Record<string, number> = {};
    for (const [k, arr] of Object.entries(cats)) {
      const total = arr.reduce((a, b) => a + b, 0);
      if (Math.abs(total) < 1e-9) continue;
      breakdown[k] = round2(total);
      arr.forEach((v, m) => (monthly[m] += v));
    }
    const nominal = monthly.reduce((a, b) => a + b, 0);
    const npv = monthly.reduce((a, v, m) => a + v / Math.pow(1 + rate, m / 12), 0);
    const compute = Object.entries(breakdown).filter(([k]) => !["storage", "edge_bandwidth", "edge_sites"].includes(k)).reduce((a, [, v]) => a + v, 0);
    const deadline = s.demand.kind === "job" ? s.demand.deadline_months : undefined;
    const doneMonth = s.demand.kind === "job" ? demand.findLastIndex((x) => x > 0) + 1 + (o.owned?.lead_time_months ?? 0) : null;
    return {
      id: o.id, label: o.label ?? o.id, kind: o.kind, currency: s.currency,
      total_nominal: round2(nominal), total_npv: round2(npv),
      effective_price_per_ref_gpu_hour: served > 0 ? Math.round((compute / served) * 1e4) / 1e4 : null,
      breakdown, monthly: monthly.map(round2), ref_gpu_hours_served: served, ref_gpu_hours_unserved: unserved,
      accelerator_hours: accelHours, owned_utilisation: ownedCap > 0 ? ownedUsed / ownedCap : null,
      time_to_complete_months: doneMonth, completes_within_horizon: doneMonth === null ? null : doneMonth <= H,
      meets_deadline: doneMonth === null || deadline === undefined ? null : doneMonth <= deadline,
      break_even: null, latency_ms: null,
      notes: unserved > 0 ? [`${Math.round(unserved).toLocaleString("en")} reference-GPU-hours unserved`] : [],
    };
  });
  const cheapest = (k: "total_nominal" | "total_npv") => options.length ? options.reduce((a, b) => (b[k] < a[k] ? b : a)).id : null;
  for (const o of options) {
    const rivals = options.filter((x) => x !== o);
    if (!rivals.length) continue;
    const rival = rivals.reduce((a, b) => (b.total_nominal < a.total_nominal ? b : a));
    const ca = cumulative(o.monthly), cb = cumulative(rival.monthly);
    let month: number | null = null;
    for (let m = H - 1; m >= 0 && ca[m] <= cb[m]; m--) month = m;
    o.break_even = { against: rival.id, month };
  }
  return {
    evaluation: {
      scenario: s.name, currency: s.currency, horizon_months: H, demand_ref_gpu_hours: demand.reduce((a, b) => a + b, 0),
      cheapest_nominal: cheapest("total_nominal"), cheapest_npv: cheapest("total_npv"), options,
    },
    sources, notes,
  };
}

export function cumulative(xs: number[]): number[] {
  let acc = 0;
  return xs.map((x) => (acc += x));
}
const round2 = (x: number) => Math.round(x * 100) / 100;
