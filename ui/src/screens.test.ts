// Component tests of the smaller screens against the mock backend.
import { afterEach, describe, expect, it } from "vitest";
import type { VueWrapper } from "@vue/test-utils";
import TomlTab from "./scenario/TomlTab.vue";
import MyPrices from "./catalogue/MyPrices.vue";
import AcceleratorsTable from "./catalogue/AcceleratorsTable.vue";
import SettingsView from "./settings/SettingsView.vue";
import ExportDialog from "./scenario/ExportDialog.vue";
import { setup, until } from "./test/helpers";

let w: VueWrapper | null = null;
afterEach(() => { w?.unmount(); w = null; document.body.innerHTML = ""; });
const q = (sel: string) => document.querySelector(sel) as HTMLElement | null;
const typeInto = (input: HTMLInputElement | HTMLTextAreaElement, text: string) => {
  input.value = text;
  input.dispatchEvent(new Event("input"));
};

describe("screens", () => {
  it("TOML tab shows the scenario, applies edits and reports parse errors with line and column", async () => {
    const s = setup();
    await s.editor.init();
    w = s.mount(TomlTab);
    const area = () => q('textarea[data-testid="toml-text"]') as HTMLTextAreaElement;
    await until(() => !!area() && area().value.includes("horizon_months = 36"));
    typeInto(area(), area().value.replace("horizon_months = 36", "horizon_months = 18"));
    q('[data-testid="toml-apply"]')!.click();
    await until(() => s.editor.scenario.value?.horizon_months === 18);
    typeInto(area(), "name = \n");
    q('[data-testid="toml-apply"]')!.click();
    await until(() => !!q('[data-testid="toml-error"]'));
    expect(q('[data-testid="toml-error"]')!.textContent).toMatch(/line 1, column \d+/);
    expect(s.editor.scenario.value?.horizon_months).toBe(18);
  });

  it("domestic-only switch filters the accelerator table", async () => {
    const s = setup();
    await s.state.loadCatalogue();
    w = s.mount(AcceleratorsTable);
    const ids = () => [...document.querySelectorAll('[data-testid="accel-row"]')].map((e) => (e as HTMLElement).dataset.id);
    await until(() => ids().length === 7);
    q('[data-testid="domestic-only"]')!.click();
    await until(() => ids().length === 3);
    expect(ids()).toEqual(["huawei-ascend-910b", "cambricon-mlu370-x8", "hygon-dcu-k100"]);
  });

  it("my prices: client checks, then backend field errors at the field, then saved", async () => {
    const s = setup();
    await s.state.loadCatalogue();
    w = s.mount(MyPrices);
    await until(() => !!q('[data-testid="add-my-offer"]'));
    q('[data-testid="add-my-offer"]')!.click();
    await until(() => !!q('[data-testid="my-offer-save"]'));
    q('[data-testid="my-offer-save"]')!.click();
    const errors = () => [...document.querySelectorAll(".el-form-item__error")].map((e) => e.textContent);
    await until(() => errors().includes("Must be greater than 0"));
    expect(s.backend.calls).not.toContain("pricebookPutOffer");
    // fill the form; the id is one the catalogue already has, so the backend refuses it at the field
    typeInto(q('input[data-testid="my-offer-id"]') as HTMLInputElement, "autodl-a100-on-demand");
    const price = q('[data-testid="my-offer-price"] input') as HTMLInputElement;
    typeInto(price, "6.5");
    price.dispatchEvent(new Event("blur"));
    price.dispatchEvent(new Event("change"));
    const autodl = [...document.querySelectorAll(".el-select-dropdown__item")].find((e) => e.textContent === "AutoDL") as HTMLElement;
    autodl.click();
    q('[data-testid="my-offer-save"]')!.click();
    await until(() => errors().includes("a catalogue offer has this id"));
    expect(s.backend.calls).toContain("pricebookPutOffer");
    typeInto(q('input[data-testid="my-offer-id"]') as HTMLInputElement, "my-autodl-a100");
    q('[data-testid="my-offer-save"]')!.click();
    await until(() => s.backend.book.offers.length === 1);
    expect(s.backend.book.offers[0]).toMatchObject({ id: "my-autodl-a100", provider_id: "autodl", price: 6.5 });
    await until(() => !!q('[data-testid="my-offers"]'));
  });

  it("settings: update from URL shows progress and the summary", async () => {
    const s = setup();
    await s.state.loadSettings();
    await s.state.loadInfo();
    w = s.mount(SettingsView);
    await until(() => !!q('input[data-testid="catalog-url"]'));
    typeInto(q('input[data-testid="catalog-url"]') as HTMLInputElement, "https://example.invalid/catalogue.pack");
    await until(() => !(q('[data-testid="catalog-url-go"]') as HTMLButtonElement).disabled);
    q('[data-testid="catalog-url-go"]')!.click();
    await until(() => !!q('[data-testid="catalog-updated"]'));
    expect(q('[data-testid="catalog-progress"]')!.textContent).toContain("100%");
    expect(s.state.info.value?.catalog_version).toBe(2);
  });

  it("export: path prefilled from defaultExportPath, then 'Saved to …'", async () => {
    const s = setup();
    await s.editor.init();
    w = s.mount(ExportDialog, { kind: "pdf" });
    const path = () => q('input[data-testid="export-path"]') as HTMLInputElement;
    await until(() => !!path() && path().value.endsWith(".pdf"));
    q('[data-testid="export-go"]')!.click();
    await until(() => !!q('[data-testid="export-done"]'));
    expect(q('[data-testid="export-done"]')!.textContent).toContain(path().value);
    typeInto(path(), "/tmp/x.txt");
    q('[data-testid="export-go"]')!.click();
    await until(() => !!q('[data-testid="export-error"]') || document.querySelectorAll(".el-form-item__error").length > 0);
  });
});
