// The UI's formatter against the shared table of cases (data/format-cases.json),
// which the Rust formatter is tested against too.
import { describe, expect, it } from "vitest";
import cases from "@data/format-cases.json";
import { formatAxis, formatMoney, formatNumber, formatPercent, formatPrice, formatTimestamp } from "./format";

describe("the shared table of cases", () => {
  it("money", () => {
    for (const c of cases.money) {
      expect(formatMoney(c.value, c.currency, "en"), `${c.value} en`).toBe(c.en);
      expect(formatMoney(c.value, c.currency, "zh"), `${c.value} zh`).toBe(c.zh);
    }
  });
  it("unit prices", () => {
    for (const c of cases.unit_price) {
      expect(formatPrice(c.value, c.currency, "en"), `${c.value} en`).toBe(c.en);
      expect(formatPrice(c.value, c.currency, "zh"), `${c.value} zh`).toBe(c.zh);
    }
  });
  it("percentages", () => {
    for (const c of cases.percent) expect(formatPercent(c.value, c.decimals), `${c.value}`).toBe(c.text);
  });
  it("figures", () => {
    for (const c of cases.number) expect(formatNumber(c.value, c.max_decimals), `${c.value}`).toBe(c.text);
  });
  it("chart axes", () => {
    for (const c of cases.axis) {
      expect(formatAxis(c.value, "en"), `${c.value} en`).toBe(c.en);
      expect(formatAxis(c.value, "zh"), `${c.value} zh`).toBe(c.zh);
    }
  });
});

describe("what has no value", () => {
  it("is a dash, never NaN", () => {
    for (const x of [null, undefined, NaN, Infinity, -Infinity]) {
      expect(formatMoney(x, "CNY", "zh")).toBe("—");
      expect(formatPrice(x, "USD", "en")).toBe("—");
      expect(formatPercent(x)).toBe("—");
      expect(formatNumber(x)).toBe("—");
    }
  });
});

describe("timestamps", () => {
  it("a stored UTC time shows as local date and minute", () => {
    const iso = "2026-12-03T14:12:47Z";
    const d = new Date(iso);
    const text = formatTimestamp(iso);
    expect(text).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(text).toBe(`${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")} ${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`);
    expect(text).not.toContain("T");
  });
  it("anything else stays as it is", () => {
    for (const s of ["", "2026", "2026-12-03", "soon"]) expect(formatTimestamp(s)).toBe(s);
  });
});
