import { afterEach, describe, expect, it } from "vitest";
import type { ReplayBackend } from "../backend/replay";
import { recordedAnswer, recordedError } from "../backend/replay";
import { createEditor, type Editor } from "./editor";
import { replay, sleep, until } from "../test/helpers";

let editors: Editor[] = [];
const make = (b: ReplayBackend) => {
  const e = createEditor(b, { evaluateDelayMs: 5, autosaveDelayMs: 20 });
  editors.push(e);
  return e;
};
afterEach(() => { editors.forEach((e) => e.dispose()); editors = []; });

const rent = (e: Editor) => e.result.value!.evaluation.options.find((o) => o.id === "rent-8xa100-on-demand")!;

describe("editor state", () => {
  it("opens the first example on a first start and evaluates it", async () => {
    const b = replay();
    const e = make(b);
    await e.init();
    expect(e.notice.value?.key).toBe("editor.exampleOpened");
    expect(e.scenario.value?.horizon_months).toBe(36);
    expect(e.result.value).toEqual(recordedAnswer("evaluate", "evaluate a100-8x-buy-vs-rent.toml"));
    expect(e.result.value?.evaluation.options.map((o) => o.id)).toEqual(["buy-8xa100", "rent-8xa100-on-demand"]);
    expect(e.dirty.value).toBe(false);
    expect(b.calls).not.toContain("autosavePut");
  });

  it("re-evaluates after a change and shows the backend's new figures", async () => {
    const b = replay();
    const e = make(b);
    await e.init();
    const gen = e.generation.value;
    e.set("horizon_months", 12);
    await until(() => e.generation.value > gen);
    expect(e.result.value).toEqual(recordedAnswer("evaluate", "evaluate seed, 12 months"));
    expect(e.result.value!.evaluation.horizon_months).toBe(12);
    expect(rent(e).total_nominal).toBeLessThan(1_799_654.4);
    expect(e.dirty.value).toBe(true);
  });

  it("debounces: several quick changes make one evaluation", async () => {
    const b = replay();
    const e = make(b);
    await e.init();
    const n = b.calls.filter((c) => c === "evaluate").length;
    e.set("horizon_months", 10);
    e.set("horizon_months", 11);
    e.set("horizon_months", 12);
    await sleep(40);
    expect(b.calls.filter((c) => c === "evaluate").length).toBe(n + 1);
    expect(e.result.value!.evaluation.horizon_months).toBe(12);
  });

  it("keeps the last results and maps the backend's errors to fields when invalid", async () => {
    const b = replay();
    const e = make(b);
    await e.init();
    e.registerPath("horizon_months");
    e.registerPath("options[0].owned.servers");
    const gen = e.generation.value;
    e.set("horizon_months", 0);
    e.set("options[0].owned.servers", 0);
    e.set("options[1].on_demand.currency", "GBP");
    await until(() => e.generation.value > gen);
    const refused = recordedError("evaluate", "evaluate seed, 0 months, no servers, priced in GBP");
    expect(e.evalError.value).toEqual(refused);
    expect(e.errorsAt("horizon_months")).toEqual(refused.fields.filter((f) => f.path === "horizon_months").map((f) => f.message));
    expect(e.errorsAt("options[0].owned.servers")).toHaveLength(1);
    // no form item shows the pool's currency here: its error is listed apart
    expect(e.mapped.value.unmatched.map((f) => f.path)).toEqual(["options[1].on_demand.currency"]);
    expect(e.result.value).not.toBeNull();
    e.set("horizon_months", 24);
    e.set("options[0].owned.servers", 1);
    e.set("options[1].on_demand.currency", undefined);
    const g2 = e.generation.value;
    await until(() => e.generation.value > g2);
    expect(e.evalError.value).toBeNull();
    expect(e.result.value).toEqual(recordedAnswer("evaluate", "evaluate seed, 24 months"));
  });

  it("autosaves about a second after a change and restores the draft on start", async () => {
    const b = replay();
    const e = make(b);
    await e.init();
    e.set("name", "Draft test");
    await until(() => b.calls.includes("autosavePut"));
    expect(b.draft?.scenario.name).toBe("Draft test");

    const e2 = make(b);
    await e2.init();
    expect(e2.scenario.value?.name).toBe("Draft test");
    expect(e2.notice.value?.key).toBe("editor.restored");
    expect(e2.result.value).toEqual(recordedAnswer("evaluate", "evaluate seed, renamed"));
    expect(e2.dirty.value).toBe(true);
  });

  it("restores a draft of a saved scenario with its library id", async () => {
    const b = replay();
    const e = make(b);
    await e.init();
    expect(await e.save()).toBe(true);
    e.set("horizon_months", 48);
    await until(() => b.draft?.scenario.horizon_months === 48);
    const e2 = make(b);
    await e2.init();
    expect(e2.libraryId.value).toBe(e.libraryId.value);
    expect(e2.scenario.value?.horizon_months).toBe(48);
    expect(e2.dirty.value).toBe(true);
  });

  it("saves only what the backend accepts and clears the draft on save", async () => {
    const b = replay();
    const e = make(b);
    await e.init();
    e.set("horizon_months", 0);
    expect(await e.save()).toBe(false);
    expect(e.saveError.value).toEqual(recordedError("librarySave", "save seed, 0 months"));
    expect(b.library.size).toBe(0);
    e.set("horizon_months", 36);
    await sleep(1);
    expect(await e.save()).toBe(true);
    expect(b.library.size).toBe(1);
    expect(e.dirty.value).toBe(false);
    expect(b.draft).toBeNull();
    expect(await e.save(true)).toBe(true);
    expect(b.library.size).toBe(2);
  });
});
