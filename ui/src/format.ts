// Number and money formatting, in one place.
//
// Rules (zh):
//   |x| ≥ 1亿 (1e8)  → "¥1.23亿"       two decimals of 亿
//   |x| ≥ 1万 (1e4)  → "¥1,234.56万"   two decimals of 万 (so a 万 amount shows to the yuan's hundred)
//   below 1万        → "¥8,000"; amounts under 1,000 that are not whole show two decimals ("¥8.56")
// Rules (en): full digits with thousands separators, "CN¥1,234,567", "US$12,345";
//   amounts of 1,000 and more are rounded to the unit, smaller non-whole ones show two decimals.
// Negative amounts put the sign before the symbol: "-¥1.23亿", "-CN¥5,000".
// Prices per GPU-hour show 2–4 decimals ("¥8.56", "¥0.8000" → "¥0.80", "US$2.0475").
import type { Lang } from "./backend/types";

const SYMBOL_ZH: Record<string, string> = { CNY: "¥", USD: "US$", EUR: "€", GBP: "£", JPY: "JP¥", HKD: "HK$", SGD: "S$" };
const SYMBOL_EN: Record<string, string> = { CNY: "CN¥", USD: "US$", EUR: "€", GBP: "£", JPY: "JP¥", HKD: "HK$", SGD: "S$" };

export function currencySymbol(currency: string, lang: Lang): string {
  return (lang === "zh" ? SYMBOL_ZH : SYMBOL_EN)[currency] ?? `${currency} `;
}

const grouped = (x: number, min: number, max: number) =>
  x.toLocaleString("en-US", { minimumFractionDigits: min, maximumFractionDigits: max });

/** Plain digits with the "whole above 1,000, else up to two decimals" rule. */
function plain(abs: number): string {
  if (abs >= 1000 || Number.isInteger(Math.round(abs * 100) / 100)) return grouped(Math.round(abs), 0, 0);
  return grouped(abs, 2, 2);
}

/** Chinese 万/亿 digits without symbol: 12345678 → "1,234.57万". */
function zhUnits(abs: number): string {
  if (abs >= 1e8) return `${grouped(abs / 1e8, 2, 2)}亿`;
  if (abs >= 1e4) {
    const wan = Math.round(abs / 100) / 100;
    // 99,999,999 rounds to 10,000.00万: say 1.00亿 instead.
    if (wan >= 1e4) return `${grouped(abs / 1e8, 2, 2)}亿`;
    return `${grouped(wan, 2, 2)}万`;
  }
  return plain(abs);
}

export function formatMoney(x: number | null | undefined, currency: string, lang: Lang): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return "—";
  const sign = x < 0 && Math.abs(x) >= 0.005 ? "-" : "";
  const abs = Math.abs(x);
  const digits = lang === "zh" ? zhUnits(abs) : plain(abs);
  return `${sign}${currencySymbol(currency, lang)}${digits}`;
}

/** Price per accelerator- or GPU-hour: 2–4 decimals. */
export function formatPrice(x: number | null | undefined, currency: string, lang: Lang): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return "—";
  const sign = x < 0 ? "-" : "";
  return `${sign}${currencySymbol(currency, lang)}${grouped(Math.abs(x), 2, 4)}`;
}

/** Short axis labels: zh 1.2亿 / 350万 / 8,000; en 1.2B / 350M / 12k. */
export function formatAxis(x: number, lang: Lang): string {
  const sign = x < 0 ? "-" : "";
  const a = Math.abs(x);
  const short = (v: number) => grouped(v, 0, v < 10 ? 1 : 0);
  if (lang === "zh") {
    if (a >= 1e8) return `${sign}${short(a / 1e8)}亿`;
    if (a >= 1e4) return `${sign}${short(a / 1e4)}万`;
    return `${sign}${grouped(a, 0, a < 10 ? 2 : 0)}`;
  }
  if (a >= 1e9) return `${sign}${short(a / 1e9)}B`;
  if (a >= 1e6) return `${sign}${short(a / 1e6)}M`;
  if (a >= 1e3) return `${sign}${short(a / 1e3)}k`;
  return `${sign}${grouped(a, 0, a < 10 ? 2 : 0)}`;
}

/** Share as a percentage: 0.6 → "60%", with `decimals` after the point. */
export function formatPercent(x: number | null | undefined, decimals = 0): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return "—";
  return `${(x * 100).toFixed(decimals)}%`;
}

/** Plain number with separators and at most `max` decimals. */
export function formatNumber(x: number | null | undefined, max = 2): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return "—";
  return grouped(x, 0, max);
}

/** Bilingual names in the examples are written "English / 中文": show the
 * part for the UI language (text without the separator is shown as is). */
export function pickLang(text: string, lang: Lang): string {
  const parts = text.split(" / ");
  if (parts.length !== 2) return text;
  const zhFirst = /[\u4e00-\u9fff]/.test(parts[0]) && !/[\u4e00-\u9fff]/.test(parts[1]);
  const [en, zh] = zhFirst ? [parts[1], parts[0]] : parts;
  return lang === "zh" ? zh : en;
}
