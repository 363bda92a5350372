import { afterEach, describe, expect, it } from "vitest";
import type { VueWrapper } from "@vue/test-utils";
import App from "./App.vue";
import { recordedAnswer, recordedError } from "./backend/replay";
import { setup, until } from "./test/helpers";

let w: VueWrapper | null = null;
afterEach(() => { w?.unmount(); w = null; document.body.innerHTML = ""; });

const q = (id: string) => document.querySelector(`[data-testid="${id}"]`) as HTMLElement | null;
const gen = () => Number(q("results-ready")?.getAttribute("data-generation") ?? 0);
const recordedTotal = (name: string, option: string) =>
  recordedAnswer("evaluate", name).evaluation.options.find((o) => o.id === option)?.total_nominal;

describe("App on recorded answers", () => {
  it("first start shows the example's results; editing an input shows the new ones", async () => {
    const s = setup();
    w = s.mount(App);
    await until(() => gen() > 0 && !!q("total-rent-8xa100-on-demand"));
    const total = () => Number(q("total-rent-8xa100-on-demand")!.getAttribute("data-value"));
    // The article's seed case: renting costs 1,799,654.40 CNY over three years (the engine's golden figure).
    expect(total()).toBe(1_799_654.4);
    expect(total()).toBe(recordedTotal("evaluate a100-8x-buy-vs-rent.toml", "rent-8xa100-on-demand"));
    expect(q("total-rent-8xa100-on-demand")!.textContent).toBe("CNY 1,799,654");
    const g = gen();
    await until(() => !!q("field-horizon_months")); // the form's sections fill in one per frame
    const input = q("field-horizon_months")!.querySelector("input")!;
    input.value = "12";
    input.dispatchEvent(new Event("input"));
    await until(() => gen() > g);
    expect(total()).toBe(recordedTotal("evaluate seed, 12 months", "rent-8xa100-on-demand"));
    expect(total()).toBeLessThan(1_799_654.4);
    expect(q("results-ready")!.getAttribute("data-state")).toBe("ok");
    expect(q("save-state")!.textContent).toContain("Draft");
  });

  it("shows the backend's field error at the field", async () => {
    const s = setup();
    w = s.mount(App);
    await until(() => gen() > 0);
    const g = gen();
    await until(() => !!q("field-horizon_months")); // the form's sections fill in one per frame
    const input = q("field-horizon_months")!.querySelector("input")!;
    input.value = "0";
    input.dispatchEvent(new Event("input"));
    await until(() => gen() > g);
    expect(q("results-ready")!.getAttribute("data-state")).toBe("invalid");
    await until(() => !!document.querySelector(".el-form-item__error"));
    const [field] = recordedError("evaluate", "evaluate seed, 0 months").fields;
    expect(field.path).toBe("horizon_months");
    const shown = q("field-horizon_months")!.closest(".el-form-item")!.querySelector(".el-form-item__error")!;
    expect(shown.textContent).toBe(field.message);
  });

  it("switches language without restart, formats amounts in 万 and asks again in Chinese", async () => {
    const s = setup();
    w = s.mount(App);
    await until(() => gen() > 0);
    expect(q("nav-library")!.textContent).toBe("Library");
    const g = gen();
    q("lang-toggle")!.click();
    await until(() => q("nav-library")!.textContent === "方案库");
    expect(s.backend.settings?.lang).toBe("zh");
    expect(s.backend.lang).toBe("zh");
    await until(() => gen() > g);
    await until(() => /万/.test(q("total-buy-8xa100")!.textContent ?? ""));
    expect(q("total-buy-8xa100")!.textContent).toBe("300.00万元");
  });

  it("shows the recovery screen when the database cannot be opened", async () => {
    const s = setup({ database: "unreadable" });
    w = s.mount(App);
    await until(() => !!q("recovery"));
    const info = recordedAnswer("appInfo", "app info", { database: "unreadable" });
    expect(info.db_error).not.toBeNull();
    expect(q("recovery-message")!.textContent).toContain(info.db_error!.message);
    expect(q("recovery-path")!.textContent).toBe("$DATA/suanli.sqlite");
    expect(q("nav-scenario")).toBeNull();
    expect(document.body.textContent).not.toMatch(/overwrite (the|this) database/i);
  });

  it("saves from the editor and lists the scenario in the library", async () => {
    const s = setup();
    w = s.mount(App);
    await until(() => gen() > 0);
    q("save-scenario")!.click();
    await until(() => s.backend.library.size === 1);
    q("nav-library")!.click();
    await until(() => !!q("library-row"));
    expect(q("library-row")!.textContent).toBe(recordedAnswer("librarySave", "save seed").name);
    expect(q("save-state")!.textContent).toBe("Saved");
  });
});
