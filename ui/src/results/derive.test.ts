import { describe, expect, it } from "vitest";
import { notesFor } from "./derive";
import { recordedAnswer } from "../backend/replay";

describe("notesFor", () => {
  const notes = [
    "options[0] (a): no sourced efficiency ratio for x in llm_pretraining; 1.0 assumed",
    "options[1] (abc): expanded into offers matching its filter",
    "options[2] (b): no sourced efficiency ratio for y in llm_pretraining; 1.0 assumed",
  ];
  it("matches the option a note names by its whole id", () => {
    expect(notesFor(notes, "a")).toEqual([notes[0]]);
    expect(notesFor(notes, "b")).toEqual([notes[2]]);
    expect(notesFor(notes, "ab")).toEqual([]);
    expect(notesFor(notes, "1.0")).toEqual([]);
  });
  it("gives an option expanded from an offer filter the notes of its filter", () => {
    expect(notesFor(notes, "abc/aws-p5-48xlarge-us-east-1-on-demand")).toEqual([notes[1]]);
    expect(notesFor(notes, "a/x")).toEqual([notes[0]]);
  });
  it("matches what the backend writes", () => {
    const { evaluation, notes: recorded } = recordedAnswer("evaluate", "evaluate catalog-offers.toml");
    expect(recorded.length).toBeGreaterThan(0);
    const expanded = evaluation.options.filter((o) => o.id.includes("/"));
    expect(expanded.length).toBeGreaterThan(0);
    for (const o of expanded) expect(notesFor(recorded, o.id)).toHaveLength(1);
    for (const o of evaluation.options.filter((x) => !x.id.includes("/"))) expect(notesFor(recorded, o.id)).toEqual([]);
  });
});
