// Field paths of the scenario document ("options[0].owned.servers"): reading,
// writing, test ids, and matching backend errors (FieldError.path) to the
// form items that show them.
import type { FieldError, ScenarioDoc } from "../backend/types";

export function splitPath(path: string): (string | number)[] {
  return path.replace(/\[(\d+)\]/g, ".$1").split(".").filter(Boolean).map((k) => (/^\d+$/.test(k) ? Number(k) : k));
}

export function getPath(doc: ScenarioDoc | null | undefined, path: string): unknown {
  let o: unknown = doc;
  for (const k of splitPath(path)) {
    if (o === null || typeof o !== "object") return undefined;
    o = (o as Record<string | number, unknown>)[k];
  }
  return o;
}

/** Sets a value; `undefined` removes the key (an optional field left empty), and
 * tables emptied that way are removed too. */
export function setPath(doc: ScenarioDoc, path: string, value: unknown): void {
  const keys = splitPath(path);
  const chain: Record<string | number, unknown>[] = [];
  let o = doc as Record<string | number, unknown>;
  for (const [i, k] of keys.slice(0, -1).entries()) {
    if (o[k] === undefined || o[k] === null || typeof o[k] !== "object") {
      if (value === undefined) return;
      o[k] = typeof keys[i + 1] === "number" ? [] : {};
    }
    chain.push(o);
    o = o[k] as Record<string | number, unknown>;
  }
  const last = keys[keys.length - 1];
  if (value === undefined) {
    delete o[last];
    // drop tables left empty (not arrays, not the document itself)
    for (let i = chain.length - 1; i >= 0; i--) {
      const child = chain[i][keys[i]];
      if (child && typeof child === "object" && !Array.isArray(child) && Object.keys(child).length === 0 && typeof keys[i] === "string" && i > 0) {
        delete chain[i][keys[i]];
      } else break;
    }
  } else o[last] = value;
}

/** "options[0].owned.servers" → "field-options-0-owned-servers". */
export function fieldTestId(path: string): string {
  return `field-${path.replace(/\[(\d+)\]/g, "-$1").replace(/\./g, "-")}`;
}

/** Rewrites "options.<id>.x" (the id form used by uncertainty paths) to "options[i].x". */
export function normalisePath(path: string, optionIds: string[]): string {
  const m = /^options\.([^.[\]]+)(.*)$/.exec(path);
  if (m) {
    const i = optionIds.indexOf(m[1]);
    if (i >= 0) return `options[${i}]${m[2]}`;
  }
  return path;
}

export interface MappedErrors {
  byPath: Record<string, string[]>;
  unmatched: FieldError[];
}

/** Assigns each error to the most specific shown field whose path equals the
 * error's path or is a prefix of it ("demand.monthly_ref_gpus[3]" →
 * "demand.monthly_ref_gpus"). Errors with no such field are returned as unmatched. */
export function mapFieldErrors(errors: FieldError[], known: Iterable<string>, optionIds: string[] = []): MappedErrors {
  const keys = [...new Set(known)].sort((a, b) => b.length - a.length);
  const byPath: Record<string, string[]> = {};
  const unmatched: FieldError[] = [];
  for (const e of errors) {
    const p = normalisePath(e.path, optionIds);
    const k = keys.find((k) => p === k || p.startsWith(`${k}.`) || p.startsWith(`${k}[`));
    if (k === undefined) unmatched.push(e);
    else (byPath[k] ??= []).push(e.message);
  }
  return { byPath, unmatched };
}
