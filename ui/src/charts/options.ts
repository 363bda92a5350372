// ECharts option builders, pure functions of the evaluation (the PDF can reuse
// them with the same palette). Amount axes use the 万/亿 formatter in zh.
import type { Category, EvaluationJson } from "../backend/types";
import { formatAxis, formatMoney, formatPrice } from "../format";
import type { Lang } from "../backend/types";
import { cumulativeSeries } from "../results/derive";
import { COLORS, FONT } from "./setup";

const grid = { left: 64, right: 150, top: 20, bottom: 40 };

export function cumulativeOption(ev: EvaluationJson, lang: Lang, monthLabel: string) {
  const months = Array.from({ length: ev.horizon_months }, (_, i) => i + 1);
  return {
    textStyle: { fontFamily: FONT },
    // a legend, not labels at the line ends: lines that end close together made those overlap
    grid: { ...grid, right: 20, top: 50 },
    legend: { top: 0, type: "scroll", formatter: (name: string) => truncate(name, 28) },
    tooltip: { trigger: "axis", valueFormatter: (v: number) => formatMoney(v, ev.currency, lang) },
    xAxis: { type: "category", data: months, name: monthLabel, nameLocation: "middle", nameGap: 26 },
    yAxis: { type: "value", axisLabel: { formatter: (v: number) => formatAxis(v, lang) } },
    series: ev.options.map((o, i) => ({
      name: o.display[lang], type: "line", showSymbol: false, data: cumulativeSeries(o.monthly),
      lineStyle: { width: 2, color: COLORS[i % COLORS.length] }, itemStyle: { color: COLORS[i % COLORS.length] },
    })),
  };
}

export function breakdownOption(ev: EvaluationJson, lang: Lang, categoryName: (k: Category) => string) {
  const cats = [...new Set(ev.options.flatMap((o) => Object.keys(o.breakdown) as Category[]))];
  return {
    textStyle: { fontFamily: FONT },
    grid: { ...grid, right: 20, top: 50, bottom: ev.options.length > 4 ? 70 : 40 },
    legend: { top: 0, type: "scroll" },
    tooltip: { trigger: "axis", axisPointer: { type: "shadow" }, valueFormatter: (v: number) => formatMoney(v, ev.currency, lang) },
    xAxis: optionAxis(ev, lang),
    yAxis: { type: "value", axisLabel: { formatter: (v: number) => formatAxis(v, lang) } },
    series: cats.map((c, i) => ({
      name: categoryName(c), type: "bar", stack: "total", data: ev.options.map((o) => o.breakdown[c] ?? 0),
      itemStyle: { color: COLORS[i % COLORS.length] },
    })),
  };
}

export function effectiveOption(ev: EvaluationJson, lang: Lang) {
  return {
    textStyle: { fontFamily: FONT },
    grid: { ...grid, right: 20, top: 30, bottom: ev.options.length > 4 ? 70 : 40 },
    tooltip: { trigger: "axis", axisPointer: { type: "shadow" }, valueFormatter: (v: number) => formatPrice(v, ev.currency, lang) },
    xAxis: optionAxis(ev, lang),
    yAxis: { type: "value", axisLabel: { formatter: (v: number) => formatPrice(v, ev.currency, lang) } },
    series: [{
      type: "bar", data: ev.options.map((o, i) => ({ value: o.effective_price_per_ref_gpu_hour ?? 0, itemStyle: { color: COLORS[i % COLORS.length] } })),
      label: { show: true, position: "top", formatter: (p: { value: number }) => formatPrice(p.value, ev.currency, lang) },
    }],
  };
}

/** Category axis of the options: every label shown, tilted when there are many. */
function optionAxis(ev: EvaluationJson, lang: Lang) {
  const many = ev.options.length > 4;
  return {
    type: "category", data: ev.options.map((o) => truncate(o.display[lang], many ? 22 : 16)),
    axisLabel: { interval: 0, rotate: many ? 20 : 0, hideOverlap: false },
  };
}

const truncate = (s: string, n: number) => {
  const first = s.split(" / ")[0];
  return first.length > n ? `${first.slice(0, n - 1)}…` : first;
};

/** A candidate of a recommendation as the frontier chart draws it. */
export type FrontierPoint = { id: string; label: string; npv: number; months: number; risk: number; onFrontier: boolean };

/** Cost against time to result, supply risk as colour; the frontier's points drawn larger and ringed. */
/** Cost against time to result, or against supply risk when every candidate serves at once (steady demand). */
export function frontierOption(points: FrontierPoint[], currency: string, lang: Lang, names: { months: string; npv: string; risk: string }) {
  const byRisk = new Set(points.map((p) => p.months)).size <= 1;
  const x = (p: FrontierPoint) => (byRisk ? p.risk : p.months);
  const data = (frontier: boolean) => points.filter((p) => p.onFrontier === frontier).map((p) => ({ value: [x(p), p.npv, p.risk, p.months], name: p.label }));
  return {
    textStyle: { fontFamily: FONT },
    grid: { left: 72, right: 90, top: 20, bottom: 44 },
    tooltip: {
      trigger: "item",
      formatter: (p: { name: string; value: number[] }) =>
        `${p.name}<br/>${names.npv}: ${formatMoney(p.value[1], currency, lang)}<br/>${names.months}: ${p.value[3].toFixed(1)}<br/>${names.risk}: ${p.value[2].toFixed(0)}`,
    },
    visualMap: { dimension: 2, min: 0, max: 100, right: 0, top: 20, itemHeight: 120, text: [names.risk, ""], calculable: false, inRange: { color: [COLORS[2] ?? "#3a3", "#e6a23c", "#d54"] } },
    xAxis: { type: "value", name: byRisk ? names.risk : names.months, nameLocation: "middle", nameGap: 28, scale: true },
    yAxis: { type: "value", name: names.npv, scale: true, axisLabel: { formatter: (v: number) => formatAxis(v, lang) } },
    series: [
      { type: "scatter", name: "others", symbolSize: 7, data: data(false) },
      { type: "scatter", name: "frontier", symbolSize: 14, itemStyle: { borderColor: "#222", borderWidth: 1.5 }, data: data(true) },
    ],
  };
}

/** An offer's price after each change that priced it, oldest first (a removal has none). */
export function historyOption(steps: { applied_at: string; new_price: number | null; new_currency: string | null }[], lang: Lang) {
  const priced = steps.filter((s) => s.new_price !== null);
  const currency = priced[priced.length - 1]?.new_currency ?? "";
  return {
    textStyle: { fontFamily: FONT },
    grid: { left: 72, right: 20, top: 16, bottom: 28 },
    tooltip: { trigger: "axis", valueFormatter: (v: number) => formatPrice(v, currency, lang) },
    xAxis: { type: "category", data: priced.map((s) => s.applied_at.slice(0, 10)) },
    yAxis: { type: "value", scale: true, axisLabel: { formatter: (v: number) => formatPrice(v, currency, lang) } },
    series: [{ type: "line", step: "end", data: priced.map((s) => s.new_price), lineStyle: { color: COLORS[0] }, itemStyle: { color: COLORS[0] } }],
  };
}
