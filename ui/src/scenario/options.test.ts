import { describe, expect, it } from "vitest";
import { customOption, optionFromOffer, uniqueId, withBilling, withKind } from "./options";
import { getPath } from "./paths";
import { recordedAnswer } from "../backend/replay";

describe("options", () => {
  it("makes unique ids", () => {
    expect(uniqueId(["rent"], "rent")).toBe("rent-2");
    expect(uniqueId(["rent", "rent-2"], "Rent")).toBe("rent-3");
    expect(uniqueId([], "AWS p4de/on demand")).toBe("aws-p4de-on-demand");
  });
  it("custom options follow the format", () => {
    expect(getPath(customOption([], "buy", "B"), "owned.servers")).toBe(1);
    expect(customOption([], "rent", "R")).toMatchObject({ billing: "on_demand", on_demand: { price_per_accel_hour: 8 } });
    expect(getPath(customOption([], "mix", "M"), "reserved.accelerators")).toBe(8);
  });
  it("changing kind and billing keeps the common fields and the price", () => {
    const o = { id: "x", label: "X", kind: "rent", billing: "on_demand", accelerator: "a", on_demand: { price_per_accel_hour: 5, currency: "USD" } };
    const r = withBilling(o, "reserved");
    expect(r).toMatchObject({ billing: "reserved", reserved: { price_per_accel_hour: 5, currency: "USD", term_months: 12 } });
    expect(r.on_demand).toBeUndefined();
    const b = withKind(o, "buy");
    expect(b).toMatchObject({ id: "x", label: "X", accelerator: "a", kind: "buy" });
    expect(b.billing).toBeUndefined();
    expect(b.on_demand).toBeUndefined();
  });
  it("an option from an offer names the offer in its pool", () => {
    const offers = recordedAnswer("listOffersPage", "offers: the catalogue's own").rows;
    const v = offers.find((o) => o.id === "aws-p4de-reserved-3y-gpu-s10")!;
    expect(optionFromOffer([], v, "Reserved 3 y")).toEqual({
      id: "aws-p4de-reserved-3y-gpu-s10", label: `${v.provider_name} ${v.accelerator_name} Reserved 3 y`, kind: "rent", billing: "reserved",
      reserved: { offer: "aws-p4de-reserved-3y-gpu-s10", term_months: 36 }, accelerator: "nvidia-a100-sxm-80gb", provider_country: "US",
    });
    expect(optionFromOffer(["aws-p4de-reserved-3y-gpu-s10"], { ...v, domestic: true }, "Reserved 3 y")).toMatchObject({ id: "aws-p4de-reserved-3y-gpu-s10-2", domestic: true });
  });
});
