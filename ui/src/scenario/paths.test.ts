import { describe, expect, it } from "vitest";
import { fieldTestId, getPath, mapFieldErrors, normalisePath, setPath } from "./paths";
import type { ScenarioDoc } from "../backend/types";

const err = (path: string, message = `bad ${path}`) => ({ path, value: "", message });

describe("paths", () => {
  it("reads and writes nested paths", () => {
    const d: ScenarioDoc = { options: [{ id: "a" }] };
    setPath(d, "options[0].owned.servers", 2);
    expect(getPath(d, "options[0].owned.servers")).toBe(2);
    setPath(d, "horizon_months", 36);
    expect(d.horizon_months).toBe(36);
    setPath(d, "options[0].owned.servers", undefined);
    expect(getPath(d, "options[0].owned")).toBeUndefined();
    expect(getPath(d, "options[0].id")).toBe("a");
    setPath(d, "demand.deadline_months", undefined);
    expect(d.demand).toBeUndefined();
  });
  it("makes test ids", () => {
    expect(fieldTestId("horizon_months")).toBe("field-horizon_months");
    expect(fieldTestId("options[0].owned.servers")).toBe("field-options-0-owned-servers");
    expect(fieldTestId("demand.ref_gpu_hours")).toBe("field-demand-ref_gpu_hours");
  });
  it("normalises option ids", () => {
    expect(normalisePath("options.rent-a100.on_demand.price_per_accel_hour", ["buy", "rent-a100"])).toBe("options[1].on_demand.price_per_accel_hour");
    expect(normalisePath("options.nope.x", ["a"])).toBe("options.nope.x");
  });
});

describe("mapFieldErrors", () => {
  const known = ["horizon_months", "demand.monthly_ref_gpus", "options[0].owned.servers", "options[0]", "options[1].on_demand.price_per_accel_hour"];
  it("maps exact paths", () => {
    const m = mapFieldErrors([err("horizon_months")], known);
    expect(m.byPath).toEqual({ horizon_months: ["bad horizon_months"] });
    expect(m.unmatched).toEqual([]);
  });
  it("maps element paths to the list field", () => {
    const m = mapFieldErrors([err("demand.monthly_ref_gpus[3]")], known);
    expect(m.byPath["demand.monthly_ref_gpus"]).toEqual(["bad demand.monthly_ref_gpus[3]"]);
  });
  it("prefers the most specific field", () => {
    const m = mapFieldErrors([err("options[0].owned.servers"), err("options[0].owned.pue")], known);
    expect(m.byPath["options[0].owned.servers"]).toHaveLength(1);
    expect(m.byPath["options[0]"]).toEqual(["bad options[0].owned.pue"]);
  });
  it("maps id-style option paths", () => {
    const m = mapFieldErrors([err("options.rent.on_demand.price_per_accel_hour")], known, ["buy", "rent"]);
    expect(m.byPath["options[1].on_demand.price_per_accel_hour"]).toHaveLength(1);
  });
  it("returns unmatched errors", () => {
    const m = mapFieldErrors([err("fx.USD"), err("horizon_monthsX")], known);
    expect(m.unmatched.map((e) => e.path)).toEqual(["fx.USD", "horizon_monthsX"]);
  });
  it("several errors on one field", () => {
    const m = mapFieldErrors([err("horizon_months", "a"), err("horizon_months", "b")], known);
    expect(m.byPath.horizon_months).toEqual(["a", "b"]);
  });
});
