// Component tests of the smaller screens on recorded answers.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { VueWrapper } from "@vue/test-utils";
import { defineComponent, h, nextTick, ref } from "vue";
import TomlTab from "./scenario/TomlTab.vue";
import MyPrices from "./catalogue/MyPrices.vue";
import AcceleratorsTable from "./catalogue/AcceleratorsTable.vue";
import OffersTable from "./catalogue/OffersTable.vue";
import WorkloadRanking from "./catalogue/WorkloadRanking.vue";
import PlanView from "./plan/PlanView.vue";
import BasisTag from "./common/BasisTag.vue";
import SettingsView from "./settings/SettingsView.vue";
import ExportDialog from "./scenario/ExportDialog.vue";
import UncertaintyPanel from "./results/UncertaintyPanel.vue";
import SensitivityPanel from "./results/SensitivityPanel.vue";
import SummaryCards from "./results/SummaryCards.vue";
import ResultCard from "./results/ResultCard.vue";
import { keepUnchanged } from "./results/keep";
import ResultsPanel from "./results/ResultsPanel.vue";
import OfferHistory from "./catalogue/OfferHistory.vue";
import AddOfferDialog from "./scenario/AddOfferDialog.vue";
import RefreshPanel from "./settings/RefreshPanel.vue";
import { recordedAnswer, recordedError } from "./backend/replay";
import { setup, until } from "./test/helpers";

let wrappers: VueWrapper[] = [];
afterEach(() => { wrappers.forEach((w) => w.unmount()); wrappers = []; document.body.innerHTML = ""; vi.useRealTimers(); });
const p6 = (stale: { freshness: { stale_after_months: number } }[]) => stale[0].freshness.stale_after_months;
const q = (sel: string) => document.querySelector(sel) as HTMLElement | null;
const typeInto = (input: HTMLInputElement | HTMLTextAreaElement, text: string) => {
  input.value = text;
  input.dispatchEvent(new Event("input"));
};
const errors = () => [...document.querySelectorAll(".el-form-item__error")].map((e) => e.textContent);
const pick = (text: string) => {
  const item = [...document.querySelectorAll(".el-select-dropdown__item")].find((e) => e.textContent === text) as HTMLElement;
  item.click();
};

describe("screens", () => {
  it("TOML tab shows the backend's text, applies edits and reports parse errors", async () => {
    const s = setup();
    await s.editor.init();
    wrappers.push(s.mount(TomlTab));
    const area = () => q('textarea[data-testid="toml-text"]') as HTMLTextAreaElement;
    await until(() => !!area() && area().value === recordedAnswer("scenarioToToml", "seed as TOML"));
    expect(area().value).toContain("horizon_months = 36");
    typeInto(area(), area().value.replace("horizon_months = 36", "horizon_months = 18"));
    q('[data-testid="toml-apply"]')!.click();
    await until(() => s.editor.scenario.value?.horizon_months === 18);
    await until(() => s.editor.result.value?.evaluation.horizon_months === 18);
    typeInto(area(), "name = \n");
    q('[data-testid="toml-apply"]')!.click();
    await until(() => !!q('[data-testid="toml-error"]'));
    const refused = recordedError("scenarioFromToml", "TOML with a syntax error");
    expect(refused.message).toMatch(/line 1, column \d+/);
    expect(q('[data-testid="toml-error"]')!.textContent).toContain(refused.message);
    expect(s.editor.scenario.value?.horizon_months).toBe(18);
  });

  it("each offer's ratio says where it comes from: measured and estimated never look alike", async () => {
    const s = setup();
    const offers = recordedAnswer("listOffersPage", "offers: llm_pretraining in CNY by price").rows;
    const byBasis = new Map(offers.filter((o) => o.efficiency).map((o) => [o.efficiency!.basis, o.efficiency!]));
    expect(byBasis.has("estimated")).toBe(true);
    const shown = (basis: string) => {
      const w = s.mount(BasisTag, { ratio: byBasis.get(basis as never)! });
      wrappers.push(w);
      const tag = w.find('[data-testid="ratio-basis"]');
      return { text: tag.text(), type: tag.classes().find((c) => c.startsWith("el-tag--") && c !== "el-tag--small" && c !== "el-tag--plain") };
    };
    const estimated = shown("estimated");
    expect(estimated.text).toBe("Estimated");
    for (const basis of [...byBasis.keys()].filter((b) => b === "measured" || b === "derived" || b === "reference")) {
      expect(shown(basis).type).not.toBe(estimated.type);
    }
    s.i18n.global.locale.value = "zh-CN";
    expect(shown("estimated").text).toBe("估算");
  });

  it("domestic-only switch filters the accelerator table as the backend does", async () => {
    const s = setup();
    await s.state.loadCatalogue();
    wrappers.push(s.mount(AcceleratorsTable));
    const ids = () => [...document.querySelectorAll('[data-testid="accel-row"]')].map((e) => (e as HTMLElement).dataset.id);
    const all = recordedAnswer("listAccelerators", "accelerators");
    await until(() => ids().length === all.length);
    expect(all).toHaveLength(90);
    q('[data-testid="domestic-only"]')!.click();
    const domestic = recordedAnswer("listAccelerators", "accelerators: domestic");
    await until(() => ids().length === domestic.length);
    expect(ids()).toEqual(domestic.map((a) => a.id));
    expect(domestic.every((a) => a.domestic)).toBe(true);
    expect(domestic.some((a) => a.vendor.includes("Huawei"))).toBe(true);
  });

  it("offers table: the scenario's workload class, compared in CNY, as the backend prices them", async () => {
    const s = setup();
    await s.state.loadSettings();
    await s.state.loadCatalogue();
    await s.editor.init();
    wrappers.push(s.mount(OffersTable, {}, { ElTable: true }));
    const page = recordedAnswer("listOffersPage", "offers: llm_pretraining in CNY by price");
    const offers = page.rows;
    await until(() => document.body.textContent!.includes(`${page.total} offers`));
    expect(s.backend.calls).toContain("listOffersPage");
    // The bundled catalogue's offers fit on one page: no pager.
    expect(offers).toHaveLength(page.total);
    expect(q('[data-testid="offer-pager"]')).toBeNull();
    expect(offers.some((o) => o.price_per_ref_gpu_hour !== null && o.efficiency?.workload_class === "llm_pretraining")).toBe(true);
  });

  it("offers table: more offers than a page are asked for and drawn a page at a time", async () => {
    const s = setup();
    await s.state.loadSettings();
    await s.state.loadCatalogue();
    await s.editor.init();
    // As after a large import: 1,200 offers (the recorded ones, under ids of their own).
    const recorded = recordedAnswer("listOffersPage", "offers: llm_pretraining in CNY by price").rows;
    const all = Array.from({ length: 1200 }, (_, i) => ({ ...recorded[i % recorded.length], id: `imported-${i}` }));
    const asked: [number, number][] = [];
    s.backend.listOffersPage = async (_filter, offset, limit) => {
      asked.push([offset, limit]);
      return { total: all.length, offset, rows: all.slice(offset, offset + limit) };
    };
    wrappers.push(s.mount(OffersTable, {}, { ElTable: true }));
    const pageText = () => q('[data-testid="offer-page"]')?.textContent ?? "";
    await until(() => pageText() === "Offers 1–500 of 1,200");
    expect(q('[data-testid="offer-count"]')!.textContent).toBe("1,200 offers");
    expect((q('[data-testid="offer-previous"]') as HTMLButtonElement).disabled).toBe(true);
    q('[data-testid="offer-next"]')!.click();
    await until(() => pageText() === "Offers 501–1,000 of 1,200");
    q('[data-testid="offer-next"]')!.click();
    await until(() => pageText() === "Offers 1,001–1,200 of 1,200");
    expect((q('[data-testid="offer-next"]') as HTMLButtonElement).disabled).toBe(true);
    expect(asked).toEqual([[0, 500], [500, 500], [1000, 500]]);
    s.i18n.global.locale.value = "zh-CN";
    await until(() => pageText() === "第 1,001–1,200 条，共 1,200 条");
  });

  it("offer pickers: the first 500 offers, and words saying so when an import brought more", async () => {
    const s = setup();
    await s.state.loadSettings();
    await s.state.loadInfo();
    await s.state.loadCatalogue();
    await s.editor.init();
    // The bundled catalogue: every offer listed, nothing said.
    wrappers.push(s.mount(AddOfferDialog));
    const recorded = recordedAnswer("listOffersPage", "offers: to add to a scenario in CNY");
    expect(recorded.rows).toHaveLength(recorded.total);
    await until(() => s.backend.calls.includes("listOffersPage"));
    await nextTick();
    expect(q('[data-testid="offer-picker-first"]')).toBeNull();
    wrappers.pop()!.unmount();
    // After a large import: 1,200 offers, the first 500 asked for, and said.
    const all = Array.from({ length: 1200 }, (_, i) => ({ ...recorded.rows[i % recorded.rows.length], id: `imported-${i}` }));
    const asked: [number, number][] = [];
    s.backend.listOffersPage = async (_filter, offset, limit) => {
      asked.push([offset, limit]);
      return { total: all.length, offset, rows: all.slice(offset, offset + limit) };
    };
    wrappers.push(s.mount(AddOfferDialog));
    await until(() => (q('[data-testid="offer-picker-first"]')?.textContent ?? "").includes("The 500 cheapest of 1,200 offers"));
    wrappers.push(s.mount(MyPrices));
    await until(() => !!q('[data-testid="add-my-discount"]'));
    q('[data-testid="add-my-discount"]')!.click();
    await until(() => (q('[data-testid="my-discount-offer-first"]')?.textContent ?? "").includes("The first 500 of 1,200 offers by id"));
    expect(asked).toEqual([[0, 500], [0, 500]]);
  });

  it("for my workload: accelerators ranked as the backend ranks them, domestic ones and a served model too", async () => {
    const s = setup();
    await s.state.loadSettings();
    await s.state.loadCatalogue();
    await s.editor.init();
    wrappers.push(s.mount(WorkloadRanking));
    const rows = () => [...document.querySelectorAll('[data-testid="workload-row"]')] as HTMLElement[];
    const ids = () => rows().map((e) => e.dataset.id);
    const training = recordedAnswer("acceleratorsForWorkload", "for my workload: llm_pretraining");
    await until(() => ids().length === training.length);
    expect(ids()).toEqual(training.map((a) => a.accelerator_id));
    const priced = training.filter((a) => a.price_per_ref_gpu_hour !== null);
    expect(priced.length).toBeGreaterThan(20);
    expect(training.slice(0, priced.length)).toEqual(priced);
    const bases = [...document.querySelectorAll('[data-testid="ratio-basis"]')].map((e) => (e as HTMLElement).dataset.basis);
    expect(bases).toContain("estimated");
    expect(bases.some((b) => b === "measured" || b === "derived" || b === "spec_equivalent")).toBe(true);
    // A domestic part the catalogue prices nowhere says so in its row: no price is made up.
    q('[data-testid="workload-domestic"]')!.click();
    const domestic = recordedAnswer("acceleratorsForWorkload", "for my workload: llm_pretraining, domestic");
    await until(() => ids().length === domestic.length && ids()[0] === domestic[0].accelerator_id);
    expect(domestic.every((a) => a.domestic)).toBe(true);
    expect(document.querySelectorAll('[data-testid="no-offer"]').length).toBe(domestic.filter((a) => !a.best_offer).length);
    // A market quote never looks like an official list price: its own words, a dashed tag.
    const kinds = () => [...document.querySelectorAll('[data-testid="quote-kind"]')] as HTMLElement[];
    expect(kinds().map((e) => e.dataset.kind)).toEqual(domestic.filter((a) => a.best_offer).map((a) => a.best_offer!.quote));
    const quoted = kinds().filter((e) => e.dataset.kind === "market_quote");
    expect(quoted.length).toBeGreaterThan(3);
    expect(quoted.every((e) => e.classList.contains("hearsay") && e.textContent === "Market quote")).toBe(true);
    // a quoted range stays a range on screen
    const ranged = domestic.filter((a) => a.effective_price_range_per_ref_gpu_hour && a.effective_price_range_per_ref_gpu_hour[0] !== a.effective_price_range_per_ref_gpu_hour[1]);
    expect(ranged.length).toBeGreaterThan(0);
    expect(document.querySelectorAll('[data-testid="workload-range"]').length).toBe(ranged.length);
    q('[data-testid="workload-domestic"]')!.click();
    await until(() => ids().length === training.length);
    const listed = kinds().filter((e) => e.dataset.kind === "list_price");
    expect(listed.length).toBeGreaterThan(10);
    expect(listed.some((e) => e.classList.contains("hearsay"))).toBe(false);
    pick("LLM inference");
    const served = recordedAnswer("acceleratorsForWorkload", "for my workload: llm_inference of 70B in BF16");
    // The same first part and count can rank first for both classes: wait for the served model's figures.
    await until(() => ids()[0] === served[0].accelerator_id && ids().length === served.length && rows()[0].dataset.perMillion !== "");
    const first = rows()[0];
    expect(Number(first.dataset.perMillion)).toBe(served[0].cost_per_million_tokens);
    const a100 = served.findIndex((a) => a.accelerator_id === "nvidia-a100-sxm-80gb");
    expect(served[a100].min_accelerators_for_model).toBe(2);
    expect(document.querySelectorAll('[data-testid="workload-fit"]')[a100].textContent).toBe("2 cards");
  });

  it("result cards say whether the model fits each option's cards and what a million tokens cost", async () => {
    const s = setup();
    const ev = recordedAnswer("evaluate", "evaluate llm-inference-70b.toml").evaluation;
    wrappers.push(s.mount(SummaryCards, { ev }));
    for (const o of ev.options) {
      const fit = q(`[data-testid="fit-${o.id}"]`)!;
      expect(fit.dataset.fits).toBe(String(o.memory_fit!.fits));
      expect(fit.textContent).toContain(`${o.memory_fit!.min_accelerators} of its ${o.memory_fit!.available}`);
      expect(q(`[data-testid="per-million-${o.id}"]`)!.textContent).toMatch(/^Per million tokens: USD \d+\.\d{2}/);
    }
  });

  it("a bilingual label shows the side the backend gives for the UI's language", async () => {
    const s = setup();
    const ev = recordedAnswer("evaluate", "evaluate a100-8x-buy-vs-rent.toml").evaluation;
    const buy = ev.options[0];
    expect(buy.label).toBe("Buy one 8×A100 server / 自购 8卡A100 服务器");
    wrappers.push(s.mount(SummaryCards, { ev }));
    const heading = () => q(`[data-testid="label-${buy.id}"]`)?.textContent?.trim();
    expect(heading()).toBe("Buy one 8×A100 server");
    s.i18n.global.locale.value = "zh-CN";
    await until(() => heading() === "自购 8卡A100 服务器");
  });

  it("a result card whose option did not change is not rendered again; the changed one is", async () => {
    const s = setup();
    const first = recordedAnswer("evaluate", "evaluate a100-8x-buy-vs-rent.toml").evaluation;
    const ev = ref(first);
    wrappers.push(s.mount(defineComponent({ setup: () => () => h(SummaryCards, { ev: ev.value }) })));
    const cards = () => wrappers[0].findAllComponents(ResultCard);
    const trees = () => cards().map((c) => c.vm.$.subTree);
    const before = trees();
    const changed = structuredClone(first);
    changed.options[1].total_nominal = (changed.options[1].total_nominal ?? 0) + 1000;
    ev.value = keepUnchanged(first, changed);
    await nextTick();
    const after = trees();
    expect(after[0]).toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    expect(q(`[data-testid="total-${first.options[1].id}"]`)!.dataset.value).toBe(String(changed.options[1].total_nominal));
  });

  it("the break-even month on a result card is the one the engine (and the proposal) gives", async () => {
    const s = setup();
    const ev = recordedAnswer("evaluate", "evaluate a100-8x-buy-vs-rent.toml").evaluation;
    wrappers.push(s.mount(SummaryCards, { ev }));
    const owned = ev.options.find((o) => o.break_even && o.break_even.against !== o.id && o.break_even.month !== null)!;
    expect(q(`[data-testid="break-even-${owned.id}"]`)!.textContent).toMatch(new RegExp(`from month ${owned.break_even!.month}$`));
  });

  it("plan: the search's ranked candidates and constraints, then two picked become the scenario's options", async () => {
    const s = setup();
    await s.state.loadSettings();
    await s.state.loadCatalogue();
    await s.editor.init();
    wrappers.push(s.mount(PlanView));
    const found = recordedAnswer("recommend", "plan: seed");
    const ids = () => [...document.querySelectorAll('[data-testid="plan-row"]')].map((e) => (e as HTMLElement).dataset.id);
    // The first 20 rows are drawn; the rest when asked.
    const first = (r: typeof found) => r.ranked.slice(0, 20).map((c) => c.id);
    await until(() => ids().length === first(found).length);
    expect(ids()).toEqual(first(found));
    expect(found.ranked.length).toBeGreaterThan(20);
    q('[data-testid="plan-all-rows"]')!.click();
    await until(() => ids().length === found.ranked.length);
    expect(ids()).toEqual(found.ranked.map((c) => c.id));
    expect(found.ranked.some((c) => c.on_frontier)).toBe(true);
    // Domestic only: the backend's answer, whatever it is, replaces the list (its first rows).
    q('[data-testid="plan-domestic"]')!.click();
    const domestic = recordedAnswer("recommend", "plan: seed, domestic only");
    await until(() => ids().length === first(domestic).length && (domestic.infeasible.length === 0 || !!q('[data-testid="plan-infeasible"]')));
    expect(ids()).toEqual(first(domestic));
    q('[data-testid="plan-domestic"]')!.click();
    await until(() => ids().length === first(found).length && ids()[0] === found.ranked[0].id);
    const boxes = [...document.querySelectorAll('[data-testid="plan-pick"]')] as HTMLElement[];
    boxes[1].querySelector("input")!.click();
    boxes[0].querySelector("input")!.click();
    const use = q('[data-testid="plan-use"]') as HTMLButtonElement;
    await until(() => !use.disabled);
    use.click();
    const picked = found.ranked.slice(0, 2).map((c) => c.id);
    await until(() => s.editor.options.value.length === 2 && s.editor.result.value !== null && s.editor.result.value.evaluation.options.length === 2);
    expect(s.editor.options.value.map((o) => o.id)).toEqual(picked);
    expect(s.editor.dirty.value).toBe(true);
  });

  it("my prices: the backend's refusals shown at their fields, then saved", async () => {
    const s = setup();
    // The forms date an entry with the backend's today.
    await s.state.loadInfo();
    await s.state.loadCatalogue();
    wrappers.push(s.mount(MyPrices));
    await until(() => !!q('[data-testid="add-my-offer"]'));
    q('[data-testid="add-my-offer"]')!.click();
    await until(() => !!q('[data-testid="my-offer-save"]'));
    // A blank form goes to the backend, whose rules are the only ones: each refusal at its field.
    q('[data-testid="my-offer-save"]')!.click();
    const blank = recordedError("pricebookPutOffer", "my offer left blank").fields;
    expect(blank.map((f) => f.path)).toEqual(expect.arrayContaining(["id", "provider_id", "price"]));
    await until(() => blank.every((f) => errors().includes(f.message)));
    expect(s.backend.book.offers).toEqual([]);
    typeInto(q('input[data-testid="my-offer-id"]') as HTMLInputElement, "my-autodl-a100");
    const price = q('[data-testid="my-offer-price"] input') as HTMLInputElement;
    typeInto(price, "6.5");
    price.dispatchEvent(new Event("blur"));
    price.dispatchEvent(new Event("change"));
    pick("AutoDL");
    q('[data-testid="my-offer-save"]')!.click();
    await until(() => s.backend.book.offers.length === 1);
    expect(s.backend.calls).toContain("pricebookPutOffer");
    expect(s.backend.book.offers[0]).toEqual(recordedAnswer("pricebookPutOffer", "my offer").offers[0]);
    await until(() => !!q('[data-testid="my-offers"]'));

    // A discount on an offer and on its provider at once: the form lets it through, the backend does not.
    q('[data-testid="add-my-discount"]')!.click();
    await until(() => !!q('[data-testid="my-discount-save"]'));
    typeInto(q('input[data-testid="my-discount-id"]') as HTMLInputElement, "my-discount");
    const first = recordedAnswer("listOffersPage", "offers: the catalogue's own").rows[0].id;
    pick(first);
    pick("AutoDL");
    q('[data-testid="my-discount-save"]')!.click();
    const [refused] = recordedError("pricebookPutDiscount", "my discount on an offer and a provider").fields;
    expect(refused.path).toBe("offer_id");
    await until(() => errors().includes(refused.message));
    const offerItem = q('[data-testid="my-discount-offer-item"]')!;
    expect(offerItem.querySelector(".el-form-item__error")!.textContent).toBe(refused.message);
    expect(s.backend.book.discounts).toEqual([]);
  });

  it("settings: a refused catalogue update shows the backend's message", async () => {
    const s = setup();
    await s.state.loadSettings();
    await s.state.loadInfo();
    wrappers.push(s.mount(SettingsView));
    await until(() => !!q('input[data-testid="catalog-url"]'));
    expect((q('input[data-testid="db-path"]') as HTMLInputElement).value).toBe("$DATA/suanli.sqlite");
    const counts = s.state.info.value!.counts!;
    await until(() => !!q('[data-testid="catalogue-counts"]'));
    expect(q('[data-testid="catalogue-counts"]')!.textContent).toContain(`${counts.offers} catalogue offers · ${counts.imported_offers} imported offers`);
    typeInto(q('input[data-testid="catalog-url"]') as HTMLInputElement, "ftp://example.invalid/catalogue.pack");
    await until(() => !(q('[data-testid="catalog-url-go"]') as HTMLButtonElement).disabled);
    q('[data-testid="catalog-url-go"]')!.click();
    await until(() => !!q('[data-testid="catalog-update-error"]'));
    expect(q('[data-testid="catalog-update-error"]')!.textContent).toContain(recordedError("catalogUpdateUrl", "update from an ftp URL").message);
    typeInto(q('input[data-testid="catalog-file"]') as HTMLInputElement, "$DOCUMENTS/no-such.pack");
    await until(() => !(q('[data-testid="catalog-file-go"]') as HTMLButtonElement).disabled);
    q('[data-testid="catalog-file-go"]')!.click();
    const missing = recordedError("catalogUpdateFile", "update from a file that does not exist").message;
    await until(() => q('[data-testid="catalog-update-error"]')?.textContent?.includes(missing) ?? false);
  });

  it("export: path prefilled from defaultExportPath, then 'Saved to …', and a place that cannot be written", async () => {
    const s = setup();
    await s.editor.init();
    wrappers.push(s.mount(ExportDialog, { kind: "pdf" }));
    const path = () => q('input[data-testid="export-path"]') as HTMLInputElement;
    const prefilled = recordedAnswer("defaultExportPath", "default proposal path");
    await until(() => !!path() && path().value === prefilled);
    q('[data-testid="export-go"]')!.click();
    await until(() => !!q('[data-testid="export-done"]'));
    expect(q('[data-testid="export-done"]')!.dataset.path).toBe(prefilled);
    expect(q('[data-testid="export-done"]')!.textContent).toContain(prefilled);
    typeInto(path(), "/nonexistent-dir/proposal.pdf");
    q('[data-testid="export-go"]')!.click();
    await until(() => !!q('[data-testid="export-error"]'));
    expect(q('[data-testid="export-error"]')!.textContent).toContain(recordedError("exportProposal", "proposal where it cannot be written").message);
  });

  it("a price past the stale threshold is named in the results, with its date and age", async () => {
    const s = setup();
    await s.editor.init();
    const ex = (await s.backend.examples()).find((e) => e.file === "catalog-offers.toml")!;
    await s.editor.openExample(ex.toml, ex.display);
    wrappers.push(s.mount(ResultsPanel));
    const stale = recordedAnswer("evaluate", "evaluate catalog-offers.toml").prices.filter((p) => p.freshness.stale);
    expect(stale.length).toBeGreaterThan(0);
    await until(() => document.querySelectorAll('[data-testid="stale-price"]').length === stale.length);
    const lines = [...document.querySelectorAll('[data-testid="stale-price"]')].map((e) => e.textContent!);
    stale.forEach((p, i) => expect(lines[i]).toContain(`${p.as_of} (${p.freshness.age_months} months old)`));
    expect(q('[data-testid="stale-prices"]')!.textContent).toContain(`${p6(stale)} months old or older`);
    // every price the scenario took from an offer is aged; none silently left out
    expect(recordedAnswer("evaluate", "evaluate catalog-offers.toml").prices.every((p) => p.freshness.age_months !== null)).toBe(true);
  });

  it("a stated price far from the catalogue's is flagged on its option's card, with the fleet the engine costs", async () => {
    const s = setup();
    await s.editor.init();
    const ex = (await s.backend.examples()).find((e) => e.file === "gpt3-175b-training.toml")!;
    await s.editor.openExample(ex.toml, ex.display);
    wrappers.push(s.mount(ResultsPanel));
    const answer = recordedAnswer("evaluate", "evaluate gpt3-175b-training.toml");
    expect(answer.far_prices.map((f) => f.option_id)).toEqual(["rent-256"]);
    await until(() => !!q('[data-testid="far-price-rent-256"]'));
    expect(q('[data-testid="far-price-rent-256"]')!.textContent).toContain(answer.far_prices[0].text);
    // only the flagged option's card carries a flag
    expect(document.querySelectorAll('[data-testid^="far-price-"]')).toHaveLength(1);
    for (const o of answer.evaluation.options) {
      expect(q(`[data-testid="fleet-${o.id}"]`)!.textContent).toContain(String(o.fleet.peak_count));
    }
  });

  it("an opened offer shows its date, age and price history as the backend records it", async () => {
    const s = setup();
    const offer = recordedAnswer("listOffersPage", "offers: llm_pretraining in CNY by price").rows[0];
    wrappers.push(s.mount(OfferHistory, { offer }));
    const history = recordedAnswer("offerHistory", `history of ${offer.id}`);
    expect(history.length).toBeGreaterThan(0);
    await until(() => document.querySelectorAll('[data-testid="history-what"]').length === history.length);
    expect([...document.querySelectorAll('[data-testid="history-what"]')].map((e) => e.textContent)).toEqual(history.map((h) => h.what));
    expect(q('[data-testid="offer-history"]')!.textContent).toContain(offer.as_of ?? "undated");
    if (history.some((h) => h.new_price !== null)) expect(q('[data-testid="offer-history-chart"]')).not.toBeNull();
    const changes = () => [...document.querySelectorAll('[data-testid="history-change"]')].map((e) => e.textContent);
    expect(changes()).toEqual(history.map((h) => h.label));
    // In Chinese, each change is named in Chinese, as the backend words it.
    s.i18n.global.locale.value = "zh-CN";
    await until(() => changes()[0] === history[0].label_zh);
    expect(history.every((h) => h.label_zh !== "" && h.label_zh !== h.label)).toBe(true);
    expect(changes()).toEqual(history.map((h) => h.label_zh));
  });

  it("the refresh panel offers the backend's feeds at their public addresses, and refreshes nothing until asked", async () => {
    const s = setup();
    wrappers.push(s.mount(RefreshPanel));
    const choice = recordedAnswer("feedChoice", "feeds to refresh");
    await until(() => document.querySelectorAll('[data-testid="refresh-feeds"] [data-feed]').length === choice.feeds.length);
    const url = q('[data-testid="refresh-skypilot-url"] input') as HTMLInputElement;
    expect(url.value).toBe(choice.skypilot_url);
    expect((q('[data-testid="refresh-azure-url"] input') as HTMLInputElement).value).toBe(choice.azure_url);
    expect(q('[data-testid="refresh-panel"]')!.textContent).toContain("{cloud} is the cloud's name");
    expect((q('[data-testid="refresh-go"]') as HTMLButtonElement).disabled).toBe(true);
    expect(s.backend.calls).not.toContain("catalogRefresh");
  });

  it("uncertainty, porting, supply risk and tornado of an example with ranges", async () => {
    const s = setup();
    await s.editor.init();
    const ex = (await s.backend.examples()).find((e) => e.file === "domestic-card-full.toml")!;
    await s.editor.openExample(ex.toml, ex.display);
    wrappers.push(s.mount(UncertaintyPanel), s.mount(SensitivityPanel));
    q('[data-testid="run-trials"]')!.click();
    const sim = recordedAnswer("simulate", "simulate domestic-card-full.toml");
    await until(() => !!q('[data-testid="sim-table"]') && !!q(`[data-testid="sim-p50-${sim.options[0].id}"]`));
    for (const o of sim.options) {
      expect(Number(q(`[data-testid="sim-p50-${o.id}"]`)!.dataset.value)).toBe(o.npv.p50);
      if (o.supply_risk) expect(Number(q(`[data-testid="supply-score-${o.id}"]`)!.dataset.value)).toBe(o.supply_risk.score);
    }
    expect(sim.options.some((o) => o.porting)).toBe(true);
    expect(q('[data-testid="porting"] .el-table')).not.toBeNull();

    q('[data-testid="run-sensitivity"]')!.click();
    const sens = recordedAnswer("sensitivity", "sensitivity domestic-card-full.toml");
    await until(() => document.querySelectorAll('[data-testid="tornado-row"]').length > 0);
    const first = sens.base_npv[0][0];
    const moving = sens.tornado.filter((b) => b.totals.some(([id, lo, hi]) => id === first && (lo !== sens.base_npv[0][1] || hi !== sens.base_npv[0][1])));
    expect(document.querySelectorAll('[data-testid="tornado-row"]')).toHaveLength(moving.length);
    // in the backend's order for the option (the proposal's chart draws the same)
    const order = sens.by_option.find((o) => o.option_id === first)!.bars.map((b) => b.path);
    expect([...document.querySelectorAll<HTMLElement>('[data-testid="tornado-row"]')].map((r) => r.dataset.path)).toEqual(order);
    // each input by its name in the form, never its path in the file
    for (const row of document.querySelectorAll<HTMLElement>('[data-testid="tornado-row"]')) {
      const name = row.querySelector(".tornado-label")!.textContent!;
      expect(name).not.toBe(row.dataset.path!.split(".").at(-1));
      expect(name).not.toMatch(/[a-z]_[a-z]|\.[a-z]/);
    }
  });
});
