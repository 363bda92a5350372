import { describe, expect, it } from "vitest";
import { MockBackend } from "./mock";
import { parseToml, stringifyToml } from "./toml";
import { BackendError } from "./index";

describe("mock backend", () => {
  it("round-trips every example through TOML", async () => {
    const b = new MockBackend();
    for (const ex of await b.examples()) {
      const doc = await b.scenarioFromToml(ex.toml);
      const again = await b.scenarioFromToml(await b.scenarioToToml(doc));
      expect(again).toEqual(doc);
      expect((await b.evaluate(doc)).evaluation.options.length).toBeGreaterThan(0);
    }
  });
  it("reports TOML errors with line and column", async () => {
    const b = new MockBackend();
    const err = await b.scenarioFromToml('name = "x"\nhorizon_months = = 3\n').catch((e) => e);
    expect(err).toBeInstanceOf(BackendError);
    expect(err.code).toBe("parse");
    expect(err.message).toMatch(/line 2, column \d+/);
  });
  it("parses the scenario shapes", () => {
    const d = parseToml(`a = 1_000\n[t]\nx = [1, 2,\n 3]\ny = { z = "q" }\n[[l]]\nid = "a"\n[l.p]\nk = true\n[[l]]\nid = "b"\n"q.r" = 'lit'\ns = """\nmulti \\\n  line"""`);
    expect(d).toEqual({ a: 1000, t: { x: [1, 2, 3], y: { z: "q" } }, l: [{ id: "a", p: { k: true } }, { id: "b", "q.r": "lit", s: "multi line" }] });
    expect(parseToml(stringifyToml(d as Record<string, unknown>))).toEqual(d);
  });
  it("lists domestic accelerators and offers with effective prices", async () => {
    const b = new MockBackend();
    const dom = await b.listAccelerators({ vendor: null, domestic: true, min_memory_gb: null, obtainable_in: null });
    expect(dom.length).toBeGreaterThanOrEqual(3);
    expect(dom.every((a) => a.domestic)).toBe(true);
    const offers = await b.listOffers({
      accelerator: null, vendor: null, domestic: null, billing_mode: "on_demand", provider: null, provider_country: null, region: null,
      obtainable_in: null, min_price: null, max_price: null, bare_metal: null, dedicated_gpu: null, encryption_in_transit: null,
      certification: null, workload_class: "llm_pretraining", currency: "CNY", fx: { USD: 7 }, exclude_pricebook: false, sort: "effective",
    });
    const eff = offers.map((o) => o.effective_price_per_ref_gpu_hour ?? Infinity);
    expect(eff).toEqual([...eff].sort((x, y) => x - y));
    const p4de = offers.find((o) => o.id.startsWith("aws-p4de"))!;
    expect(p4de.comparable_price_per_accel_hour).toBeCloseTo((40.96 / 8) * 7, 3);
  });
  it("price book: validates, applies discounts, marks its rows", async () => {
    const b = new MockBackend();
    const bad = await b.pricebookPutOffer({ ...offer(), price: 0 }).catch((e) => e);
    expect(bad.fields.map((f: { path: string }) => f.path)).toContain("price");
    await b.pricebookPutOffer(offer());
    await b.pricebookPutDiscount({ id: "d1", offer_id: "mine-1", provider_id: null, discount_share: 0.25, note: null, as_of: null });
    const rows = await b.listOffers({ ...filter(), sort: "id" });
    const mine = rows.find((r) => r.id === "mine-1")!;
    expect(mine.origin).toBe("pricebook");
    expect(mine.price_per_accel_hour).toBeCloseTo(4.5, 4);
    expect((await b.pricebookRemove("mine-1")).offers).toEqual([]);
  });
});

const offer = () => ({
  id: "mine-1", provider_id: "autodl", accelerator_id: "nvidia-a100-sxm-80gb", instance: null, region: null, billing_mode: "on_demand",
  accelerators_per_instance: 1, price: 6, price_unit: "accelerator_hour" as const, currency: "CNY", upfront: null, interconnect: null,
  as_of: "2026-11-30", source: "user", confidence: "B", notes: null,
});
const filter = () => ({
  accelerator: null, vendor: null, domestic: null, billing_mode: null, provider: null, provider_country: null, region: null,
  obtainable_in: null, min_price: null, max_price: null, bare_metal: null, dedicated_gpu: null, encryption_in_transit: null,
  certification: null, workload_class: null, currency: null, fx: {}, exclude_pricebook: false,
});
