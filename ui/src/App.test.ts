import { afterEach, describe, expect, it } from "vitest";
import type { VueWrapper } from "@vue/test-utils";
import App from "./App.vue";
import { setup, until } from "./test/helpers";

let w: VueWrapper | null = null;
afterEach(() => { w?.unmount(); w = null; document.body.innerHTML = ""; });

const q = (id: string) => document.querySelector(`[data-testid="${id}"]`) as HTMLElement | null;
const gen = () => Number(q("results-ready")?.getAttribute("data-generation") ?? 0);

describe("App with the mock backend", () => {
  it("first start shows the example's results; editing an input updates them", async () => {
    const s = setup();
    w = s.mount(App);
    await until(() => gen() > 0 && !!q("total-rent-8xa100-on-demand"));
    const total = () => Number(q("total-rent-8xa100-on-demand")!.getAttribute("data-value"));
    const before = total();
    expect(q("total-rent-8xa100-on-demand")!.textContent).toMatch(/^CN¥[\d,]+$/);
    const g = gen();
    const input = q("field-horizon_months")!.querySelector("input")!;
    input.value = "12";
    input.dispatchEvent(new Event("input"));
    await until(() => gen() > g);
    expect(total()).toBeCloseTo(before / 3, 0);
    expect(q("results-ready")!.getAttribute("data-state")).toBe("ok");
    expect(q("save-state")!.textContent).toContain("Draft");
  });

  it("shows a field error at the field and an unmatched one above the results", async () => {
    const s = setup();
    w = s.mount(App);
    await until(() => gen() > 0);
    const g = gen();
    const input = q("field-horizon_months")!.querySelector("input")!;
    input.value = "0";
    input.dispatchEvent(new Event("input"));
    await until(() => gen() > g);
    expect(q("results-ready")!.getAttribute("data-state")).toBe("invalid");
    await until(() => !!document.querySelector(".el-form-item__error"));
    expect(document.querySelector(".el-form-item__error")!.textContent).toContain("horizon");
  });

  it("switches language without restart and formats amounts in 万", async () => {
    const s = setup();
    w = s.mount(App);
    await until(() => gen() > 0);
    expect(q("nav-library")!.textContent).toBe("Library");
    q("lang-toggle")!.click();
    await until(() => q("nav-library")!.textContent === "方案库");
    expect(s.backend.settings.lang).toBe("zh");
    await until(() => /万/.test(q("total-buy-8xa100")!.textContent ?? ""));
    expect(q("total-buy-8xa100")!.textContent).toMatch(/^¥[\d,.]+万$/);
  });

  it("shows the recovery screen when the database cannot be opened", async () => {
    const s = setup({ dbError: { code: "db_unavailable", message: "database is locked", fields: [] } });
    w = s.mount(App);
    await until(() => !!q("recovery"));
    expect(q("recovery-message")!.textContent).toContain("database is locked");
    expect(q("recovery-path")!.textContent).toContain("suanli.db");
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
    expect(q("library-row")!.textContent).toContain("8×A100");
    expect(q("save-state")!.textContent).toBe("Saved");
  });
});
