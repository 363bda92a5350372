// Field paths of the scenario document ("options[0].owned.servers"): reading,
// writing, test ids, and matching backend errors (FieldError.path) to the
// form items that show them.
import type { FieldError, JsonValue, ScenarioDoc } from "../backend/types";

type Container = ScenarioDoc | JsonValue[];

/** A JSON object (a table of the scenario file), not a list or a plain value. */
export function isTable(v: JsonValue | undefined): v is ScenarioDoc {
  return v !== null && v !== undefined && typeof v === "object" && !Array.isArray(v);
}

export function splitPath(path: string): (string | number)[] {
  return path.replace(/\[(\d+)\]/g, ".$1").split(".").filter(Boolean).map((k) => (/^\d+$/.test(k) ? Number(k) : k));
}

const read = (o: Container, k: string | number): JsonValue | undefined => (Array.isArray(o) ? o[Number(k)] : o[String(k)]);
function write(o: Container, k: string | number, v: JsonValue) {
  if (Array.isArray(o)) o[Number(k)] = v;
  else o[String(k)] = v;
}
function remove(o: Container, k: string | number) {
  if (Array.isArray(o)) delete o[Number(k)];
  else delete o[String(k)];
}

export function getPath(doc: ScenarioDoc | null | undefined, path: string): JsonValue | undefined {
  let o: JsonValue | undefined = doc ?? undefined;
  for (const k of splitPath(path)) {
    if (o === null || o === undefined || typeof o !== "object") return undefined;
    o = read(o, k);
  }
  return o;
}

/** The text at `path`, when there is text there. */
export function getText(doc: ScenarioDoc | null | undefined, path: string): string | undefined {
  const v = getPath(doc, path);
  return typeof v === "string" ? v : undefined;
}

/** The number at `path`, when there is a number there. */
export function getNumber(doc: ScenarioDoc | null | undefined, path: string): number | undefined {
  const v = getPath(doc, path);
  return typeof v === "number" ? v : undefined;
}

/** Sets a value; `undefined` removes the key (an optional field left empty), and
 * tables emptied that way are removed too. */
export function setPath(doc: ScenarioDoc, path: string, value: JsonValue | undefined): void {
  const keys = splitPath(path);
  const chain: Container[] = [];
  let o: Container = doc;
  for (const [i, k] of keys.slice(0, -1).entries()) {
    let next = read(o, k);
    if (next === undefined || next === null || typeof next !== "object") {
      if (value === undefined) return;
      next = typeof keys[i + 1] === "number" ? [] : {};
      write(o, k, next);
    }
    chain.push(o);
    o = next;
  }
  const last = keys[keys.length - 1];
  if (value === undefined) {
    remove(o, last);
    // drop tables left empty (not arrays, not the document itself)
    for (let i = chain.length - 1; i >= 0; i--) {
      const child = read(chain[i], keys[i]);
      if (isTable(child) && Object.keys(child).length === 0 && typeof keys[i] === "string" && i > 0) {
        remove(chain[i], keys[i]);
      } else break;
    }
  } else write(o, last, value);
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
