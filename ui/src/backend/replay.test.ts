import { describe, expect, it } from "vitest";
import { BackendError } from "./index";
import { RECORDINGS, ReplayBackend, canonical, recordedAnswer } from "./replay";

const seed = async (b: ReplayBackend) => b.scenarioFromToml((await b.examples())[0].toml);
const caught = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e);

describe("replay backend", () => {
  it("compares arguments as JSON: key order and null fields do not matter", () => {
    expect(canonical({ b: 1, a: { d: null, c: [2, null] } })).toBe(canonical({ a: { c: [2, null] }, b: 1 }));
    expect(canonical({ a: 1 })).not.toBe(canonical({ a: 2 }));
  });

  it("answers a recorded call with what the real backend answered", async () => {
    const b = new ReplayBackend();
    const doc = await seed(b);
    expect(await b.evaluate(doc)).toEqual(recordedAnswer("evaluate", "evaluate a100-8x-buy-vs-rent.toml"));
    // the same document with its keys in another order
    const shuffled = Object.fromEntries(Object.entries(doc).reverse());
    expect(await b.evaluate(shuffled)).toEqual(recordedAnswer("evaluate", "evaluate a100-8x-buy-vs-rent.toml"));
  });

  it("refuses an unrecorded call loudly, naming the command and where the nearest recording differs", async () => {
    const b = new ReplayBackend();
    const doc = { ...(await seed(b)), horizon_months: 13 };
    const e = await caught(b.evaluate(doc));
    expect(e).toBeInstanceOf(BackendError);
    const err = e as BackendError;
    expect(err.code).toBe("internal");
    expect(err.message).toMatch(/^evaluate is not recorded/);
    expect(err.message).toMatch(/horizon_months: 13, recorded (12|36)/);
    expect(err.message).toContain("SUANLI_UPDATE_RECORDINGS=1");
    expect(b.unrecorded).toEqual([err.message]);
  });

  it("answers in the language the settings say", async () => {
    const b = new ReplayBackend({ lang: "en" });
    const doc = { ...(await seed(b)), horizon_months: 0 };
    const en = (await caught(b.evaluate(doc))) as BackendError;
    await b.putSettings({ ...(await b.getSettings()), lang: "zh" });
    const zh = (await caught(b.evaluate(doc))) as BackendError;
    expect(en.code).toBe("invalid");
    expect(zh.code).toBe("invalid");
    expect(en.message).toMatch(/problem/);
    expect(zh.message).toMatch(/场景有/);
    expect(zh.fields[0].path).toBe(en.fields[0].path);
  });

  it("keeps the library in memory, with what a save may do decided by the recordings", async () => {
    const b = new ReplayBackend();
    const doc = await seed(b);
    const meta = await b.librarySave(null, doc);
    expect(meta.name).toBe(recordedAnswer("librarySave", "save seed").name);
    expect((await b.libraryOpen(meta.id)).scenario).toEqual(doc);
    const refused = await caught(b.librarySave(meta.id, { ...doc, horizon_months: 0 }));
    expect((refused as BackendError).code).toBe("invalid");
    expect(await b.libraryList()).toEqual([meta]);
    await b.libraryDelete(meta.id);
    expect(await b.libraryList()).toEqual([]);
    expect(((await caught(b.libraryOpen(meta.id))) as BackendError).code).toBe("not_found");
  });

  it("an unreadable database answers as recorded, also for what a working one stores", async () => {
    const b = new ReplayBackend({ database: "unreadable" });
    expect((await b.appInfo()).db_error).not.toBeNull();
    expect(((await caught(b.libraryList())) as BackendError).code).toBe("db_unavailable");
  });

  it("has a recording of every example, parsed and evaluated", async () => {
    const b = new ReplayBackend();
    const examples = await b.examples();
    expect(examples.length).toBeGreaterThanOrEqual(10);
    for (const ex of examples) {
      const doc = await b.scenarioFromToml(ex.toml);
      expect((await b.evaluate(doc)).evaluation.options.length).toBeGreaterThan(0);
    }
    expect(b.unrecorded).toEqual([]);
    expect(new Set(RECORDINGS.map((r) => r.command))).toContain("simulate");
  });
});
