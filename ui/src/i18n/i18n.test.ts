import { describe, expect, it } from "vitest";
import en from "./en";
import zh from "./zh-CN";

function leaves(o: unknown, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(o as Record<string, unknown>)) {
    const p = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object") Object.assign(out, leaves(v, p));
    else out[p] = String(v);
  }
  return out;
}

describe("i18n parity", () => {
  const e = leaves(en), z = leaves(zh);
  it("every English key exists in Chinese", () => {
    expect(Object.keys(e).filter((k) => !(k in z))).toEqual([]);
  });
  it("every Chinese key exists in English", () => {
    expect(Object.keys(z).filter((k) => !(k in e))).toEqual([]);
  });
  it("no empty strings", () => {
    expect(Object.entries(e).filter(([, v]) => !v.trim()).map(([k]) => k)).toEqual([]);
    expect(Object.entries(z).filter(([, v]) => !v.trim()).map(([k]) => k)).toEqual([]);
  });
  it("placeholders match", () => {
    const ph = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort().join(",");
    expect(Object.keys(e).filter((k) => k in z && ph(e[k]) !== ph(z[k]))).toEqual([]);
  });
});
