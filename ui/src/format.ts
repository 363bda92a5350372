// Number and money formatting for the window: the same rules as the Rust
// formatter (crates/model/src/money.rs), both tested against the shared
// table of cases in data/format-cases.json.
//
//   money  en  "CNY 1,234,568" (from 1,000 to the unit; below, to the cent unless whole: "USD 8.56", "USD 120")
//          zh  "123.46万元", "1.50亿元", "12.00万美元" (from 1万, two decimals; 99,999,999 → "1.00亿元"), "8,000元"
//   price  two to four decimals: "CNY 0.80", "USD 2.0475"; zh "0.80元"
//   share  "43%" in both languages
//   axis   zh 万/亿, en k/M/B, at most two decimals: "1.25M", "350万"
import type { Lang } from "./backend/types";

const ZH_UNIT: Record<string, string> = { CNY: "元", USD: "美元", EUR: "欧元", GBP: "英镑", JPY: "日元", HKD: "港元", SGD: "新加坡元" };
const MINOR_DIGITS: Record<string, number> = { JPY: 0 };

/** Half away from zero, never -0 (Rust: round_half_away). */
function roundHalfAway(x: number, digits: number): number {
  const scale = 10 ** digits;
  const r = (Math.sign(x) * Math.round(Math.abs(x) * scale)) / scale;
  return r === 0 ? 0 : r;
}

/** "1,234,567.89" with exactly `digits` decimals (Rust: group_thousands). */
function grouped(abs: number, digits: number): string {
  return abs.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: true });
}

/** Drops trailing zeros after the first `keep` decimals. */
function trimDecimals(text: string, keep: number): string {
  const dot = text.indexOf(".");
  if (dot < 0) return text;
  let end = text.length;
  while (end > dot + 1 + keep && text[end - 1] === "0") end--;
  return end === dot + 1 ? text.slice(0, dot) : text.slice(0, end);
}

function plainDigits(abs: number, currency: string): string {
  const whole = Math.round(abs * 100) % 100 === 0;
  if (abs >= 1000 || whole) return grouped(Math.round(abs), 0);
  return grouped(abs, MINOR_DIGITS[currency] ?? 2);
}

function zhDigits(abs: number, currency: string): string {
  const yi = roundHalfAway(abs / 1e8, 2);
  const wan = roundHalfAway(abs / 1e4, 2);
  if (abs >= 1e8 || wan >= 1e4) return `${grouped(yi, 2)}亿`;
  if (abs >= 1e4) return `${grouped(wan, 2)}万`;
  return plainDigits(abs, currency);
}

const missing = (x: number | null | undefined): x is null | undefined => x === null || x === undefined || !Number.isFinite(x);

/** An amount for a reader (Rust: format_amount). */
export function formatMoney(x: number | null | undefined, currency: string, lang: Lang): string {
  if (missing(x)) return "—";
  const amount = roundHalfAway(x, MINOR_DIGITS[currency] ?? 2);
  const sign = amount < 0 ? "-" : "";
  const abs = Math.abs(amount);
  if (lang === "zh") return `${sign}${zhDigits(abs, currency)}${ZH_UNIT[currency] ?? currency}`;
  return `${currency} ${sign}${plainDigits(abs, currency)}`;
}

/** A price per accelerator- or reference-GPU-hour (Rust: format_unit_price). */
export function formatPrice(x: number | null | undefined, currency: string, lang: Lang): string {
  if (missing(x)) return "—";
  const p = roundHalfAway(x, 4);
  const sign = p < 0 ? "-" : "";
  // Two decimals, up to four below 1 (Rust: unit_price_digits).
  const d = Math.abs(p) >= 1 ? 2 : 4;
  const digits = trimDecimals(grouped(roundHalfAway(Math.abs(p), d), d), 2);
  return lang === "zh" ? `${sign}${digits}${ZH_UNIT[currency] ?? currency}` : `${currency} ${sign}${digits}`;
}

/** A share as a percentage: 0.43 → "43%" (Rust: format_percent). */
export function formatPercent(x: number | null | undefined, decimals = 0): string {
  if (missing(x)) return "—";
  return `${roundHalfAway(x * 100, decimals).toFixed(decimals)}%`;
}

/** A plain figure with separators and at most `max` decimals (Rust: format_number). */
export function formatNumber(x: number | null | undefined, max = 2): string {
  if (missing(x)) return "—";
  const sign = x < 0 && roundHalfAway(x, max) !== 0 ? "-" : "";
  return sign + trimDecimals(grouped(Math.abs(x), max), 0);
}

/** A short chart-axis label (Rust: format_axis). */
export function formatAxis(x: number, lang: Lang): string {
  if (!Number.isFinite(x)) return "—";
  const a = Math.abs(x);
  const [scaled, unit] =
    lang === "zh"
      ? a >= 1e8 ? [x / 1e8, "亿"] : a >= 1e4 ? [x / 1e4, "万"] : [x, ""]
      : a >= 1e9 ? [x / 1e9, "B"] : a >= 1e6 ? [x / 1e6, "M"] : a >= 1e3 ? [x / 1e3, "k"] : [x, ""];
  return `${formatNumber(scaled, 2)}${unit}`;
}

/** A stored UTC timestamp ("2026-12-03T14:12:47Z") as local date and time, "2026-12-03 22:12"; anything else as it is. */
export function formatTimestamp(iso: string): string {
  const d = new Date(iso);
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?Z$/.test(iso) || Number.isNaN(d.getTime())) return iso;
  const two = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}
