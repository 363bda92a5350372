import { describe, expect, it } from "vitest";
import { formatAxis, formatMoney, formatNumber, formatPercent, formatPrice } from "./format";

describe("formatMoney zh", () => {
  const z = (x: number, c = "CNY") => formatMoney(x, c, "zh");
  it("below 1万 is plain", () => {
    expect(z(8000)).toBe("¥8,000");
    expect(z(9999)).toBe("¥9,999");
    expect(z(8.56)).toBe("¥8.56");
    expect(z(120)).toBe("¥120");
  });
  it("zero", () => {
    expect(z(0)).toBe("¥0");
    expect(z(-0)).toBe("¥0");
    expect(z(-0.001)).toBe("¥0");
  });
  it("万", () => {
    expect(z(10000)).toBe("¥1.00万");
    expect(z(12_345_600)).toBe("¥1,234.56万");
    expect(z(1_500_000)).toBe("¥150.00万");
    expect(z(99_999_999)).toBe("¥1.00亿");
  });
  it("亿", () => {
    expect(z(123_000_000)).toBe("¥1.23亿");
    expect(z(1e8)).toBe("¥1.00亿");
    expect(z(12_345_000_000)).toBe("¥123.45亿");
  });
  it("negative amounts", () => {
    expect(z(-12_345_600)).toBe("-¥1,234.56万");
    expect(z(-123_000_000)).toBe("-¥1.23亿");
    expect(z(-8000)).toBe("-¥8,000");
  });
  it("USD in zh", () => {
    expect(z(12345, "USD")).toBe("US$1.23万");
    expect(z(500, "USD")).toBe("US$500");
  });
  it("missing values", () => {
    expect(formatMoney(null, "CNY", "zh")).toBe("—");
    expect(formatMoney(NaN, "CNY", "zh")).toBe("—");
    expect(formatMoney(Infinity, "CNY", "en")).toBe("—");
  });
});

describe("formatMoney en", () => {
  const e = (x: number, c = "CNY") => formatMoney(x, c, "en");
  it("CNY", () => {
    expect(e(1_234_567)).toBe("CN¥1,234,567");
    expect(e(1_234_567.49)).toBe("CN¥1,234,567");
    expect(e(0)).toBe("CN¥0");
    expect(e(-5000)).toBe("-CN¥5,000");
    expect(e(8.5)).toBe("CN¥8.50");
  });
  it("USD", () => {
    expect(e(12_345, "USD")).toBe("US$12,345");
    expect(e(-12_345, "USD")).toBe("-US$12,345");
    expect(e(123_000_000, "USD")).toBe("US$123,000,000");
  });
  it("other currencies", () => {
    expect(e(100, "EUR")).toBe("€100");
    expect(e(100, "XYZ")).toBe("XYZ 100");
  });
});

describe("formatPrice", () => {
  it("two to four decimals", () => {
    expect(formatPrice(8.56, "CNY", "zh")).toBe("¥8.56");
    expect(formatPrice(0.8, "CNY", "zh")).toBe("¥0.80");
    expect(formatPrice(2.04756, "USD", "en")).toBe("US$2.0476");
    expect(formatPrice(5.12, "USD", "zh")).toBe("US$5.12");
    expect(formatPrice(1234.5, "CNY", "en")).toBe("CN¥1,234.50");
    expect(formatPrice(null, "CNY", "en")).toBe("—");
  });
});

describe("formatAxis", () => {
  it("zh uses 万 and 亿", () => {
    expect(formatAxis(0, "zh")).toBe("0");
    expect(formatAxis(8000, "zh")).toBe("8,000");
    expect(formatAxis(3_500_000, "zh")).toBe("350万");
    expect(formatAxis(50_000, "zh")).toBe("5万");
    expect(formatAxis(120_000_000, "zh")).toBe("1.2亿");
    expect(formatAxis(-3_500_000, "zh")).toBe("-350万");
  });
  it("en uses k, M, B", () => {
    expect(formatAxis(12_000, "en")).toBe("12k");
    expect(formatAxis(350_000_000, "en")).toBe("350M");
    expect(formatAxis(1_200_000_000, "en")).toBe("1.2B");
    expect(formatAxis(-2_500_000, "en")).toBe("-2.5M");
    expect(formatAxis(500, "en")).toBe("500");
  });
});

describe("formatPercent and formatNumber", () => {
  it("percent", () => {
    expect(formatPercent(0.6)).toBe("60%");
    expect(formatPercent(0.0825, 1)).toBe("8.3%");
    expect(formatPercent(null)).toBe("—");
  });
  it("number", () => {
    expect(formatNumber(1234567.891)).toBe("1,234,567.89");
    expect(formatNumber(undefined)).toBe("—");
  });
});

import { pickLang } from "./format";
describe("pickLang", () => {
  it("picks the part for the language", () => {
    expect(pickLang("Rent A100 / 租用 A100", "zh")).toBe("租用 A100");
    expect(pickLang("Rent A100 / 租用 A100", "en")).toBe("Rent A100");
    expect(pickLang("租用 A100 / Rent A100", "en")).toBe("Rent A100");
    expect(pickLang("AWS p4de / on demand / x", "en")).toBe("AWS p4de / on demand / x");
    expect(pickLang("Plain", "zh")).toBe("Plain");
  });
});
