import { describe, expect, it } from "vitest";
import { selectBackend, withoutNulls } from "./index";

describe("withoutNulls", () => {
  it("drops null fields at every depth and keeps everything else", () => {
    const doc = { name: "x", description: "", fx: {}, edge: null, options: [{ id: "a", on_demand: { offer: null, price_per_accel_hour: 8 }, spot: null }], demand: { monthly_ref_gpus: [8, 0] } };
    expect(withoutNulls(doc)).toEqual({ name: "x", description: "", fx: {}, options: [{ id: "a", on_demand: { price_per_accel_hour: 8 } }], demand: { monthly_ref_gpus: [8, 0] } });
  });
});

describe("selectBackend", () => {
  it("replays recorded answers outside Tauri on the dev server (and in tests)", async () => {
    expect(import.meta.env.DEV).toBe(true);
    const b = await selectBackend();
    expect(b.isTauri).toBe(false);
    expect(b.constructor.name).toBe("ReplayBackend");
  });
});
