// Figures derived from an evaluation for display.
import type { EvaluationJson, OptionJson, SourceLine } from "../backend/types";

/** Running totals of monthly cash flows (a month the backend could not figure, null, breaks the line). */
export function cumulativeSeries(monthly: (number | null)[]): number[] {
  let acc = 0;
  return monthly.map((x) => Math.round((acc += x ?? NaN) * 100) / 100);
}

export function optionById(ev: EvaluationJson, id: string | null): OptionJson | undefined {
  return id === null ? undefined : ev.options.find((o) => o.id === id);
}

/** Source lines of one option, grouped for the hover. */
export function sourcesFor(sources: SourceLine[], optionId: string): SourceLine[] {
  return sources.filter((s) => s.option_id === optionId);
}
