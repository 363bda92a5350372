// Rendering only what changed. A new evaluation comes as a whole new JSON
// tree; `keepUnchanged` gives back the previous tree's objects wherever their
// content is the same, so components whose props did not change are not
// rendered again and charts whose inputs did not change are not redrawn.
import { computed, shallowRef, watch, type Ref } from "vue";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** `next`, sharing every part that equals the same part of `prev` (`prev` itself when all do). */
export function keepUnchanged<T>(prev: T | null | undefined, next: T): T {
  return share(prev as Json | undefined, next as Json) as T;
}

function share(prev: Json | undefined, next: Json): Json {
  if (prev === next || prev === undefined || prev === null || next === null || typeof next !== "object" || typeof prev !== "object") {
    return Object.is(prev, next) ? (prev as Json) : next;
  }
  if (Array.isArray(next)) {
    if (!Array.isArray(prev)) return next;
    const out = next.map((x, i) => share(prev[i], x));
    return out.length === prev.length && out.every((x, i) => x === prev[i]) ? prev : out;
  }
  if (Array.isArray(prev)) return next;
  const keys = Object.keys(next);
  const out: { [k: string]: Json } = {};
  let same = keys.length === Object.keys(prev).length;
  for (const k of keys) {
    out[k] = share(prev[k], next[k]);
    same &&= k in prev && out[k] === prev[k];
  }
  return same ? prev : out;
}

/** A computed value built again only when one of its inputs (compared by identity) changed. */
export function memoBy<K extends readonly unknown[], V>(inputs: () => K, build: (k: K) => V): Readonly<Ref<V>> {
  let last: K | null = null;
  let value!: V;
  return computed(() => {
    const k = inputs();
    if (last === null || k.length !== last.length || k.some((x, i) => x !== last![i])) {
      last = k;
      value = build(k);
    }
    return value;
  });
}

/**
 * `source`, updated only after the browser has painted the frame in which it
 * changed. A chart takes 10–30 ms to redraw (docs/performance.md, "The
 * window"): the new figures reach the screen first, the charts a frame later,
 * and while the user types faster than that, only the latest value is drawn.
 */
export function afterPaint<V>(source: Readonly<Ref<V>>): Readonly<Ref<V>> {
  const shown = shallowRef(source.value);
  let pending = false;
  watch(source, () => {
    if (pending) return;
    pending = true;
    // rAF runs just before the paint; a task queued from it runs after.
    requestAnimationFrame(() => setTimeout(() => { pending = false; shown.value = source.value; }));
  });
  return shown;
}
