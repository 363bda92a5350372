import { describe, expect, it } from "vitest";
import { recordedAnswer } from "../backend/replay";

describe("resolution notes", () => {
  it("name the options they are about: each option expanded from an offer filter, no other", () => {
    const { evaluation, notes } = recordedAnswer("evaluate", "evaluate catalog-offers.toml");
    expect(notes.length).toBeGreaterThan(0);
    const about = (id: string) => notes.filter((n) => n.option_ids.includes(id));
    const expanded = evaluation.options.filter((o) => o.id.includes("/"));
    expect(expanded.length).toBeGreaterThan(0);
    for (const o of expanded) expect(about(o.id)).toHaveLength(1);
    for (const o of evaluation.options.filter((x) => !x.id.includes("/"))) expect(about(o.id)).toEqual([]);
    // every id a note names is an option of the evaluation
    const ids = new Set(evaluation.options.map((o) => o.id));
    for (const n of notes) for (const id of n.option_ids) expect(ids.has(id)).toBe(true);
  });
});
