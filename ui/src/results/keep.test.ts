import { describe, expect, it } from "vitest";
import { nextTick, ref } from "vue";
import { afterPaint, keepUnchanged, memoBy } from "./keep";

describe("keepUnchanged", () => {
  it("gives back the previous tree when nothing changed", () => {
    const prev = { a: [1, 2, { b: "x" }], c: null };
    expect(keepUnchanged(prev, JSON.parse(JSON.stringify(prev)))).toBe(prev);
  });
  it("shares the unchanged parts and takes the changed ones", () => {
    const prev = { options: [{ id: "a", total: 1 }, { id: "b", total: 2 }], currency: "CNY" };
    const next = { options: [{ id: "a", total: 1 }, { id: "b", total: 3 }], currency: "CNY" };
    const out = keepUnchanged(prev, next);
    expect(out).not.toBe(prev);
    expect(out).toEqual(next);
    expect(out.options[0]).toBe(prev.options[0]);
    expect(out.options[1]).not.toBe(prev.options[1]);
    expect(out.options[1].total).toBe(3);
  });
  it("sees added, removed and retyped keys and elements", () => {
    expect(keepUnchanged({ a: 1 } as object, { a: 1, b: 2 })).toEqual({ a: 1, b: 2 });
    expect(keepUnchanged({ a: 1, b: 2 } as object, { a: 1 })).toEqual({ a: 1 });
    expect(keepUnchanged([1, 2], [1, 2, 3])).toEqual([1, 2, 3]);
    expect(keepUnchanged([1, 2, 3], [1, 2])).toEqual([1, 2]);
    expect(keepUnchanged({ a: [1] } as object, { a: { 0: 1 } })).toEqual({ a: { 0: 1 } });
    expect(keepUnchanged({ a: null } as object, { a: 0 })).toEqual({ a: 0 });
    expect(keepUnchanged(null, { a: 1 })).toEqual({ a: 1 });
  });
});

describe("memoBy", () => {
  it("builds again only when an input changes identity", () => {
    const a = ref<number[]>([1]);
    const lang = ref("en");
    let builds = 0;
    const m = memoBy(() => [a.value, lang.value] as const, ([xs, l]) => { builds++; return `${l}:${xs.join()}`; });
    expect(m.value).toBe("en:1");
    const first = a.value;
    a.value = first; // same array
    expect(m.value).toBe("en:1");
    expect(builds).toBe(1);
    lang.value = "zh";
    expect(m.value).toBe("zh:1");
    a.value = [1, 2];
    expect(m.value).toBe("zh:1,2");
    expect(builds).toBe(3);
  });
});

describe("afterPaint", () => {
  it("follows its source after a frame, with only the latest of fast changes", async () => {
    const source = ref(1);
    const shown = afterPaint(source);
    source.value = 2;
    await nextTick();
    source.value = 3;
    await nextTick();
    expect(shown.value).toBe(1);
    await new Promise((r) => setTimeout(r, 60));
    expect(shown.value).toBe(3);
  });
});
