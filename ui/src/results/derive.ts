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

/** The option a note of the evaluation is about: the backend writes them
 * "options[2] (h100): …", naming the option by its id. */
const NOTE_SUBJECT = /^options\[\d+\] \(([^()]*)\): /;

/** Notes about the option: those that name its id, and for an option the
 * backend expanded from an offer filter (id "<filter option>/<offer>") those
 * that name the filter's option. */
export function notesFor(notes: string[], optionId: string): string[] {
  return notes.filter((n) => {
    const subject = NOTE_SUBJECT.exec(n)?.[1];
    return subject !== undefined && (subject === optionId || optionId.startsWith(`${subject}/`));
  });
}
