import { describe, expect, it } from "vitest";
import en from "./en";
import zh from "./zh-CN";
import { BILLING_MODES, CATEGORIES, MATURITIES, OPTION_KINDS, RENT_BILLINGS, SECURITY_NEEDS } from "../backend/types";

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

describe("the backend's choices", () => {
  const e = leaves(en);
  it("every choice the backend offers has a name (and so one in Chinese too)", () => {
    const keys = [
      ...SECURITY_NEEDS.map((k) => `plan.security.${k}`),
      ...BILLING_MODES.map((k) => `billing.${k}`),
      ...RENT_BILLINGS.map((k) => `billing.${k}`),
      ...OPTION_KINDS.map((k) => `editor.${k}`),
      ...CATEGORIES.map((k) => `category.${k}`),
      ...MATURITIES.map((k) => `results.maturityName.${k}`),
    ];
    expect(keys.filter((k) => !(k in e))).toEqual([]);
  });
});
