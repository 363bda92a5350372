// Shared set-up of component tests: the app state on a mock backend, i18n,
// Element Plus, and charts stubbed (happy-dom has no layout).
import { mount, flushPromises } from "@vue/test-utils";
import ElementPlus from "element-plus";
import type { Component } from "vue";
import { MockBackend, type MockOptions } from "../backend/mock";
import { APP, createAppState } from "../app";
import { makeI18n } from "../i18n";
import type { Lang } from "../backend/types";

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `cond` holds, flushing promises in between. */
export async function until(cond: () => boolean, ms = 10000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await flushPromises();
    await sleep(5);
  }
}

export function setup(opts: MockOptions & { lang?: Lang } = {}) {
  const backend = new MockBackend(opts);
  backend.settings.lang = opts.lang ?? "en";
  const state = createAppState(backend, { evaluateDelayMs: 5, autosaveDelayMs: 20 });
  const i18n = makeI18n(opts.lang ?? "en");
  const mountIt = (c: Component, props: Record<string, unknown> = {}) => mount(c, {
    props,
    attachTo: document.body,
    global: {
      plugins: [ElementPlus, i18n],
      provide: { [APP as symbol]: state },
      stubs: { echarts: { template: "<div class=\"chart-stub\" />" } },
    },
  });
  return { backend, state, editor: state.editor, i18n, mount: mountIt };
}
