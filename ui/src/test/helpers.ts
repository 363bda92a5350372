// Shared set-up of component tests: the app state on the replay backend
// (answers recorded from the real one), i18n, Element Plus, and charts stubbed
// (happy-dom has no layout). Every test fails when it made a call nobody recorded.
import { afterEach, expect } from "vitest";
import { mount, flushPromises } from "@vue/test-utils";
import { elements } from "../elements";
import type { Component } from "vue";
import { ReplayBackend, type ReplayOptions } from "../backend/replay";
import { APP, createAppState } from "../app";
import { makeI18n } from "../i18n";

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `cond` holds, flushing promises in between. */
export async function until(cond: () => boolean, ms = 10000): Promise<void> {
  // performance.now(): a test may set the date
  const end = performance.now() + ms;
  while (!cond()) {
    if (performance.now() > end) throw new Error("condition not met in time");
    await flushPromises();
    await sleep(5);
  }
}

let backends: ReplayBackend[] = [];

/** A replay backend; after the test, none of its calls may have gone unrecorded. */
export function replay(opts: ReplayOptions = {}): ReplayBackend {
  const b = new ReplayBackend({ lang: "en", ...opts });
  backends.push(b);
  return b;
}

afterEach(() => {
  const missed = backends.flatMap((b) => b.unrecorded);
  backends = [];
  expect(missed, "calls without a recording").toEqual([]);
});

export function setup(opts: ReplayOptions = {}) {
  const backend = replay(opts);
  const state = createAppState(backend, { evaluateDelayMs: 5, autosaveDelayMs: 20 });
  const i18n = makeI18n(opts.lang ?? "en");
  /** `stubs`: components not to render (a table of hundreds of rows is slow in happy-dom). */
  const mountIt = (c: Component, props: Record<string, unknown> = {}, stubs: Record<string, boolean> = {}) => mount(c, {
    props,
    attachTo: document.body,
    global: {
      plugins: [elements, i18n],
      provide: { [APP as symbol]: state },
      stubs: { echarts: { template: "<div class=\"chart-stub\" />" }, ...stubs },
    },
  });
  return { backend, state, editor: state.editor, i18n, mount: mountIt };
}
