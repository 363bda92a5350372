// End-to-end tests of the other screens (see app.test.mjs for the first ones):
// catalogue offers and the user's own prices, the library's comparison, the
// uncertainty simulation and the settings. Each test starts the app on its own
// temporary database; screenshots continue the numbering of app.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { launch, shot, waitResults, waitSaved, setField, clickNav, work } from "./app.mjs";

const freshDb = () => join(mkdtempSync(join(work, "db-")), "suanli.sqlite");

/** Opens the select with test id `testid` and clicks its visible option whose text includes `text` (the first when null). */
async function pick(app, testid, text) {
  await app.$(`[data-testid="${testid}"]`).click();
  await app.pause(400);
  const ok = await app.execute((wanted) => {
    const items = [...document.querySelectorAll(".el-select-dropdown__item")].filter((i) => i.offsetParent !== null);
    const item = wanted === null ? items[0] : items.find((i) => i.textContent.includes(wanted));
    if (!item) return false;
    item.click();
    return true;
  }, text);
  assert.ok(ok, `no option "${text}" in ${testid}`);
  await app.pause(300);
}

/** Types over the input inside `selector`, as a user would. */
async function typeInto(app, selector, value) {
  const input = await app.$(`${selector} input`);
  await input.waitForDisplayed();
  await input.click();
  await app.keys(["Control", "a"]);
  await app.keys(value.split(""));
  await app.keys(["Tab"]);
}

async function openExample(app, file) {
  await app.$('[data-testid="open-example"]').click();
  const item = await app.$(`.el-dropdown-menu__item[data-file="${file}"]`);
  await item.waitForDisplayed({ timeoutMsg: `example ${file} not in the menu` });
  // The menu fades in and places itself: click once it has stopped moving, and see it close.
  await item.waitForStable({ timeoutMsg: `example ${file}: the menu kept moving` });
  await item.click();
  await item.waitForDisplayed({ reverse: true, timeoutMsg: `example ${file}: the menu stayed open after the click` });
}

async function tab(app, name) {
  await app.$(`#tab-${name}`).click();
}

test("offers: sorted by effective price per reference-GPU-hour for a workload class", async () => {
  const app = await launch(freshDb());
  try {
    await waitResults(app);
    await clickNav(app, "catalogue");
    await tab(app, "offers");
    await app.$('[data-testid="offer-row"]').waitForExist({ timeoutMsg: "offer table did not fill" });
    await pick(app, "offer-class", "LLM pre-training");
    await pick(app, "offer-sort", "Effective price");
    const effective = () => app.execute(() =>
      [...document.querySelectorAll('[data-testid="offer-row"]')].map((r) => r.getAttribute("data-effective")));
    await app.waitUntil(async () => (await effective())[0] !== "", { timeoutMsg: "first offer has no effective price" });
    // Every offer says when its price is from, or that the date is unknown: never a blank.
    const dates = await app.execute(() => [...document.querySelectorAll('[data-testid="offer-as-of"]')].map((e) => e.textContent.trim()));
    assert.ok(dates.length > 0 && dates.every((d) => d === "undated" || /^\d{4}(-\d{2}(-\d{2})?)?$/.test(d)), `as-of cells: ${dates.slice(0, 8)}`);
    // A price from 2024 or before is past any six-month threshold on any day from 2025-07 on: each carries the stale mark.
    const marks = await app.execute(() => [...document.querySelectorAll('[data-testid="offer-as-of"]')].map((e) => ({
      date: e.textContent.trim(), stale: !!e.parentElement.querySelector('[data-testid="offer-stale"]'),
    })));
    const old = marks.filter((m) => /^20(1\d|2[0-4])/.test(m.date));
    assert.ok(old.length > 0 && old.every((m) => m.stale), `old prices without a stale mark: ${old.filter((m) => !m.stale).map((m) => m.date)}`);
    assert.ok(marks.some((m) => !m.stale), "every price marked stale");
    // Opening a row shows its price history, as the catalogue recorded it.
    await app.$('[data-testid="offer-table"] .el-table__expand-icon').click();
    const history = await app.$('[data-testid="offer-history-table"]');
    await history.waitForDisplayed({ timeoutMsg: "an opened offer shows no price history" });
    const steps = await app.execute(() => [...document.querySelectorAll('[data-testid="history-what"]')].map((e) => e.textContent.trim()));
    assert.ok(steps.length >= 1 && steps[0] === "added", `history steps: ${steps}`);
    assert.ok(await app.$('[data-testid="offer-history-chart"]').isDisplayed(), "no history chart");
    await shot(app, "15b-offer-history-en");
    await app.$('[data-testid="offer-table"] .el-table__expand-icon').click();
    const values = await effective();
    const filled = values.filter((v) => v !== "").map(Number);
    assert.ok(filled.length >= 5, `offers with an effective price: ${filled.length}`);
    // offers with a ratio for the class come first, cheapest first
    assert.ok(values.slice(0, filled.length).every((v) => v !== ""), "an offer without a ratio sorted among those with one");
    for (let i = 1; i < filled.length; i++) assert.ok(filled[i] >= filled[i - 1], `not ascending at ${i}: ${filled[i - 1]} > ${filled[i]}`);
    await shot(app, "15-offers-effective-en");
    // At 1440 px every column fits beside the fixed one: none hides under it (As of and Confidence did).
    const overflow = await app.execute(() => {
      const wrap = document.querySelector('[data-testid="offer-table"] .el-table__body-wrapper .el-scrollbar__wrap');
      return wrap ? wrap.scrollWidth - wrap.clientWidth : null;
    });
    assert.ok(overflow !== null && overflow <= 1, `the offer table is ${overflow} px wider than its place: columns hide under the fixed one`);
    // the same comparison in US dollars: lower figures, same order
    await app.$('[data-testid="offer-currency"] label:nth-child(2)').click();
    await app.waitUntil(async () => Number((await effective())[0]) < filled[0], { timeoutMsg: "USD figures did not replace CNY" });
    await app.$('[data-testid="lang-toggle"]').click();
    await app.waitUntil(async () => (await app.$("#tab-offers").getText()).includes("报价"), { timeoutMsg: "not in Chinese" });
    await shot(app, "16-offers-effective-zh");
  } finally {
    await app.deleteSession();
  }
});

test("for my workload: accelerators ranked by effective price, domestic ones and a served model's cost per million tokens", async () => {
  const app = await launch(freshDb());
  try {
    await waitResults(app);
    await clickNav(app, "catalogue");
    await tab(app, "workload");
    const rows = () => app.execute(() => [...document.querySelectorAll('[data-testid="workload-row"]')]
      .map((r) => ({ id: r.getAttribute("data-id"), effective: r.getAttribute("data-effective"), perMillion: r.getAttribute("data-per-million") })));
    await app.waitUntil(async () => (await rows()).length > 20, { timeoutMsg: "the ranking did not fill" });
    const training = await rows();
    const priced = training.filter((r) => r.effective !== "").map((r) => Number(r.effective));
    assert.ok(priced.length >= 20, `accelerators with a price: ${priced.length}`);
    for (let i = 1; i < priced.length; i++) assert.ok(priced[i] >= priced[i - 1], `not ascending at ${i}`);
    const bases = await app.execute(() => [...document.querySelectorAll('[data-testid="ratio-basis"]')].map((e) => e.getAttribute("data-basis")));
    assert.ok(bases.includes("estimated") && bases.some((b) => b === "measured" || b === "derived" || b === "spec_equivalent"), `bases: ${[...new Set(bases)]}`);
    await shot(app, "27-workload-training-en");
    await app.$('[data-testid="workload-domestic"]').click();
    await app.waitUntil(async () => (await rows()).length < training.length, { timeoutMsg: "domestic filter did not apply" });
    await shot(app, "28-workload-domestic-en");
    await app.$('[data-testid="workload-domestic"]').click();
    await pick(app, "workload-class", "LLM inference");
    await app.$('[data-testid="workload-model"]').waitForDisplayed({ timeoutMsg: "no served-model inputs for inference" });
    await app.waitUntil(async () => (await rows())[0]?.perMillion !== "", { timeoutMsg: "no cost per million tokens" });
    const fits = await app.execute(() => [...document.querySelectorAll('[data-testid="workload-fit"]')].map((e) => e.textContent));
    assert.ok(fits.some((f) => f === "2 cards"), `cards to hold 70 B: ${fits.slice(0, 5)}`);
    await app.$('[data-testid="lang-toggle"]').click();
    await app.waitUntil(async () => (await app.$("#tab-workload").getText()).includes("按工作负载"), { timeoutMsg: "not in Chinese" });
    await shot(app, "29-workload-inference-zh");
  } finally {
    await app.deleteSession();
  }
});

test("serving example: each result card says whether the model fits and what a million tokens cost; a catalogue example names its stale prices", async () => {
  const app = await launch(freshDb());
  try {
    const first = await waitResults(app);
    await openExample(app, "llm-inference-70b.toml");
    await waitResults(app, first);
    const fit = await app.$('[data-testid="fit-h100"]');
    await fit.waitForDisplayed({ timeoutMsg: "no memory-fit tag on the H100 card" });
    assert.equal(await fit.getAttribute("data-fits"), "true");
    assert.match(await fit.getText(), /Model fits: 2 of its 8/);
    assert.match(await app.$('[data-testid="per-million-h100"]').getText(), /^Per million tokens: USD \d/);
    await shot(app, "30-serving-results-en");
    // A scenario priced from catalogue offers names each stale price in its results, with date and age.
    const serving = Number(await app.$('[data-testid="results-ready"]').getAttribute("data-generation"));
    await openExample(app, "catalog-offers.toml");
    await waitResults(app, serving);
    const alert = await app.$('[data-testid="stale-prices"]');
    await alert.waitForDisplayed({ timeoutMsg: "no stale-price warning for catalog-offers" });
    const lines = await app.execute(() => [...document.querySelectorAll('[data-testid="stale-price"]')].map((e) => e.textContent.trim()));
    assert.ok(lines.some((l) => /2023-06-17 \(\d+ months old\)/.test(l)), `stale lines: ${lines}`);
    await shot(app, "30b-stale-prices-en");
  } finally {
    await app.deleteSession();
  }
});

test("plan: a constraint, the frontier, two candidates picked, the editor with live results", async () => {
  const app = await launch(freshDb());
  try {
    const first = await waitResults(app);
    await clickNav(app, "plan");
    const rows = () => app.execute(() => [...document.querySelectorAll('[data-testid="plan-row"]')].map((r) => r.getAttribute("data-id")));
    await app.waitUntil(async () => (await rows()).length >= 2, { timeout: 30000, timeoutMsg: "the plan ranked no candidates" });
    const before = await rows();
    await typeInto(app, '[data-testid="plan-max-risk"]', "40");
    await app.waitUntil(async () => (await app.$$('[data-testid="plan-constraint"]')).length > 0, { timeoutMsg: "the constraint is not reported" });
    await app.$('[data-testid="plan-chart"] canvas').waitForExist({ timeoutMsg: "no frontier chart" });
    const after = await rows();
    assert.ok(after.length >= 2 && after.length <= before.length, `a tighter constraint: ${before.length} → ${after.length}`);
    await shot(app, "31-plan-en");
    const picks = await app.$$('[data-testid="plan-pick"]');
    await picks[0].click();
    await picks[1].click();
    await app.$('[data-testid="plan-use"]').click();
    await waitResults(app, first);
    await app.waitUntil(async () => (await app.$$('[data-testid^="total-"]')).length === 2, { timeoutMsg: "the editor does not show two options' results" });
    const ids = await app.execute(() => [...document.querySelectorAll('[data-testid^="total-"]')].map((e) => e.getAttribute("data-testid").slice(6)));
    assert.deepEqual(ids, after.slice(0, 2));
    await shot(app, "32-plan-picked-results-en");
    // The scenario now names catalogue offers: planning it again still works.
    await clickNav(app, "plan");
    await app.waitUntil(async () => (await rows()).length >= 2, { timeout: 30000, timeoutMsg: "the plan of the picked scenario ranked nothing" });
    assert.equal(await app.$('[data-testid="plan-error"]').isExisting(), false, "an error planning the picked scenario");
    await app.$('[data-testid="lang-toggle"]').click();
    await app.waitUntil(async () => (await app.$('[data-testid="plan"] h2').getText()).includes("规划"), { timeoutMsg: "not in Chinese" });
    await app.waitUntil(async () => /[净现值]/.test(await app.$('[data-testid="plan-table"] .muted').getText()), { timeoutMsg: "the why lines are not in Chinese" });
    await shot(app, "33-plan-zh");
  } finally {
    await app.deleteSession();
  }
});

test("my prices: a bad price is refused at its field; the saved offer is tagged in Offers", async () => {
  const app = await launch(freshDb());
  const id = "e2e-my-a100";
  try {
    await waitResults(app);
    await clickNav(app, "catalogue");
    await tab(app, "mine");
    await app.$('[data-testid="add-my-offer"]').click();
    const idInput = await app.$('input[data-testid="my-offer-id"]');
    await idInput.waitForDisplayed();
    await idInput.setValue(id);
    await pick(app, "my-offer-provider", null);
    await pick(app, "my-offer-accelerator", "A100 SXM4 80GB");
    await typeInto(app, '[data-testid="my-offer-price"]', "-5");
    await app.$('[data-testid="my-offer-save"]').click();
    const error = await app.$('[data-testid="my-offer-price-item"] .el-form-item__error');
    await error.waitForDisplayed({ timeoutMsg: "no message at the price field for -5" });
    assert.ok((await error.getText()).length > 0);
    await shot(app, "17-my-prices-bad-price-en");
    await typeInto(app, '[data-testid="my-offer-price"]', "6.5");
    await app.$('[data-testid="my-offer-save"]').click();
    await app.$(`[data-testid="my-offer-row"][data-id="${id}"]`).waitForExist({ timeoutMsg: "own offer not listed" });
    // a discount naming both an offer and a provider: the backend refuses it, at the offer field.
    // The offer's dialog fades out first: a click while its overlay is still there is lost.
    await idInput.waitForDisplayed({ reverse: true, timeoutMsg: "the offer dialog stayed open after saving" });
    const dId = await app.$('input[data-testid="my-discount-id"]');
    const addDiscount = await app.$('[data-testid="add-my-discount"]');
    // A click the fading overlay still takes ("element click intercepted") is tried again.
    await app.waitUntil(async () => {
      await addDiscount.click().catch(() => undefined);
      return dId.isDisplayed();
    }, { timeout: 15000, interval: 500, timeoutMsg: "the discount dialog did not open" });
    await dId.setValue("e2e-both");
    await pick(app, "my-discount-offer", null);
    await pick(app, "my-discount-provider", null);
    await app.$('[data-testid="my-discount-save"]').click();
    const dError = await app.$('[data-testid="my-discount-offer-item"] .el-form-item__error');
    await dError.waitForDisplayed({ timeoutMsg: "backend error not shown at the offer field" });
    await shot(app, "18-my-prices-discount-error-en");
    await app.keys(["Escape"]);
    await shot(app, "19-my-prices-en");
    await tab(app, "offers");
    const row = await app.$(`[data-testid="offer-row"][data-id="${id}"]`);
    await row.waitForExist({ timeoutMsg: "own offer not among the offers" });
    assert.equal(await row.getAttribute("data-origin"), "pricebook");
    const tagged = await app.execute((id) => {
      const cell = document.querySelector(`[data-testid="offer-row"][data-id="${id}"]`).closest("td");
      return cell.querySelector('[data-testid="offer-mine"]')?.textContent ?? "";
    }, id);
    assert.match(tagged, /My price/);
    await app.execute((id) => document.querySelector(`[data-testid="offer-row"][data-id="${id}"]`).scrollIntoView({ block: "center" }), id);
    await shot(app, "20-offers-my-price-en");
  } finally {
    await app.deleteSession();
  }
});

test("library: compare two saved scenarios and see the changed field", async () => {
  const app = await launch(freshDb());
  try {
    const first = await waitResults(app);
    await app.$('[data-testid="save-scenario"]').click();
    await waitSaved(app, "first save");
    await setField(app, "field-horizon_months", "48");
    await waitResults(app, first);
    await app.$('[data-testid="save-scenario-as"]').click();
    await waitSaved(app, "second save");
    await clickNav(app, "library");
    await app.waitUntil(async () => (await app.$$('[data-testid="library-row"]')).length === 2, { timeoutMsg: "two scenarios not listed" });
    await app.execute(() => [...document.querySelectorAll('[data-testid="library-table"] .el-table__body .el-checkbox')].forEach((c) => c.click()));
    await app.$('[data-testid="library-compare"]').click();
    await app.$('[data-testid="library-comparison"]').waitForDisplayed({ timeoutMsg: "no comparison" });
    const changes = await app.execute(() =>
      [...document.querySelectorAll('[data-testid="change-path"]')].map((c) => c.closest("tr").innerText.replace(/\s+/g, " ").trim()));
    const horizon = changes.find((c) => c.startsWith("Horizon (months)"));
    assert.ok(horizon, `changes: ${changes}`);
    assert.match(horizon, /36.*48/);
    await shot(app, "21-library-compare-en");
  } finally {
    await app.deleteSession();
  }
});

test("uncertainty: 10,000 trials on domestic-card-full give P10 ≤ P50 ≤ P90, with porting and supply risk", async () => {
  const app = await launch(freshDb());
  try {
    const first = await waitResults(app);
    await openExample(app, "domestic-card-full.toml");
    await waitResults(app, first);
    await app.$('[data-testid="run-trials"]').click();
    await app.$('[data-testid="sim-table"]').waitForDisplayed({ timeout: 60000, timeoutMsg: "no simulation results" });
    const read = () => app.execute(() => {
      const v = (id) => Number(document.querySelector(`[data-testid="${id}"]`)?.getAttribute("data-value"));
      return ["rent-a100", "rent-domestic"].map((o) => ({
        o, p10: v(`sim-p10-${o}`), p50: v(`sim-p50-${o}`), p90: v(`sim-p90-${o}`), supply: v(`supply-score-${o}`),
      }));
    });
    for (const r of await read()) {
      assert.ok(r.p10 > 0 && r.p10 <= r.p50 && r.p50 <= r.p90, JSON.stringify(r));
      assert.ok(r.p10 < r.p90, `no spread for ${r.o}: ranges not applied`);
      // the score is in points out of 100
      assert.ok(r.supply > 0 && r.supply <= 100, JSON.stringify(r));
    }
    const supplyText = await app.$('[data-testid="supply"]').getText();
    assert.match(supplyText, /\/ 100/);
    assert.doesNotMatch(supplyText, /\d{3,}%/);
    const porting = await app.execute(() => document.querySelector('[data-testid="porting"]').textContent);
    assert.match(porting, /Beta/);
    await app.$('[data-testid="uncertainty"]').scrollIntoView();
    await shot(app, "22-uncertainty-en");
    await app.$('[data-testid="run-sensitivity"]').click();
    await app.$('[data-testid="tornado-row"]').waitForDisplayed({ timeout: 30000, timeoutMsg: "no tornado" });
    await app.$('[data-testid="sensitivity"]').scrollIntoView();
    await shot(app, "23-sensitivity-en");
    await app.$('[data-testid="lang-toggle"]').click();
    await app.$('[data-testid="run-trials"]').click();
    await app.$('[data-testid="sim-table"]').waitForDisplayed({ timeout: 60000 });
    await app.waitUntil(async () => (await app.$('[data-testid="supply"]').getText()).includes("出口管制"), { timeoutMsg: "drivers not in Chinese" });
    await app.$('[data-testid="uncertainty"]').scrollIntoView();
    await shot(app, "24-uncertainty-zh");
  } finally {
    await app.deleteSession();
  }
});

test("settings: a bad USD→CNY rate is refused at its field; a good one is saved", async () => {
  const db = freshDb();
  let app = await launch(db);
  try {
    await waitResults(app);
    await clickNav(app, "settings");
    await typeInto(app, '[data-testid="settings-usd-cny"]', "0");
    await app.$('[data-testid="settings-save"]').click();
    const error = await app.$('[data-testid="settings-usd-cny-item"] .el-form-item__error');
    await error.waitForDisplayed({ timeoutMsg: "no message at the rate field" });
    assert.match(await error.getText(), /0\.001/);
    await shot(app, "25-settings-fx-error-en");
    await app.$('[data-testid="settings-currency"] label:nth-child(2)').click();
    await typeInto(app, '[data-testid="settings-usd-cny"]', "7.2");
    await app.$('[data-testid="settings-save"]').click();
    await app.waitUntil(async () => !(await error.isDisplayed().catch(() => false)), { timeoutMsg: "error stays after a good rate" });
    // a pack file that is not there: a clear message, the catalogue unchanged
    await app.$('input[data-testid="catalog-file"]').setValue(join(work, "no-such.pack"));
    await app.$('[data-testid="catalog-file-go"]').click();
    const updateError = await app.$('[data-testid="catalog-update-error"]');
    await updateError.waitForDisplayed({ timeoutMsg: "no message for a missing pack file" });
    await shot(app, "26-settings-en");
  } finally {
    await app.deleteSession();
  }
  app = await launch(db);
  try {
    await waitResults(app);
    await clickNav(app, "settings");
    const rate = await app.$('[data-testid="settings-usd-cny"] input');
    await app.waitUntil(async () => Number(await rate.getValue()) === 7.2, { timeoutMsg: "rate not kept after restart" });
    assert.equal(await app.execute(() => document.querySelector('[data-testid="settings-currency"] .is-active')?.textContent.trim()), "USD");
  } finally {
    await app.deleteSession();
  }
});

test("refresh: while a slow price refresh downloads, the editor answers; cancelled, nothing changes; then a real feed lands every row or reports it", async () => {
  // A loopback SkyPilot mirror serving an excerpt of the real AWS file. While `slow`, each answer sends
  // 100 bytes and holds the rest until told.
  const here = dirname(fileURLToPath(import.meta.url));
  const feed = readFileSync(join(here, "../../crates/catalog/tests/fixtures/skypilot/v9/aws/vms.csv"));
  const rows = feed.toString("utf8").trim().split("\n").length - 1;
  let slow = true;
  const held = [];
  const server = createServer((req, res) => {
    res.on("error", () => {}); // the app hangs up on a cancelled download
    res.writeHead(200, { "Content-Length": feed.length, "Content-Type": "text/csv" });
    if (slow) { res.write(feed.subarray(0, 100)); held.push(res); } else res.end(feed);
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const mirror = `http://127.0.0.1:${server.address().port}/{cloud}/vms.csv`;
  const app = await launch(freshDb());
  try {
    let generation = await waitResults(app);
    // How many offers the Offers tab lists (the catalogue's, imported ones and the user's).
    const offers = async () => {
      await clickNav(app, "catalogue");
      await app.$("#tab-offers").click();
      const count = await app.$('[data-testid="offer-count"]');
      await count.waitForDisplayed();
      await app.pause(500);
      const n = Number(await count.getAttribute("data-n"));
      await clickNav(app, "settings");
      return n;
    };
    const before = await offers();
    await app.$('[data-testid="refresh-feeds"] [data-feed="skypilot:aws"]').click();
    await typeIntoText(app, '[data-testid="refresh-skypilot-url"]', mirror);
    await app.$('[data-testid="refresh-go"]').click();
    const progress = await app.$('[data-testid="refresh-progress"]');
    await progress.waitForDisplayed({ timeoutMsg: "no refresh progress" });
    await app.waitUntil(async () => (await progress.getText()).includes("KB received"), { timeoutMsg: "no bytes received" });
    await shot(app, "34-refresh-under-way-en");
    // The refresh is under way: typing in the scenario still gives new results.
    await clickNav(app, "scenario");
    for (const months of ["30", "42"]) {
      await setField(app, "field-horizon_months", months);
      generation = await waitResults(app, generation);
    }
    assert.equal(held.length, 1, "the refresh should still be held at the server");
    await clickNav(app, "settings");
    await app.$('[data-testid="refresh-cancel"]').click();
    held[0].write(feed.subarray(100, 200)); // the next bytes arrive: the download sees the cancel
    const error = await app.$('[data-testid="refresh-error"]');
    await error.waitForDisplayed({ timeoutMsg: "a cancelled refresh said nothing" });
    assert.match(await error.getText(), /cancelled; nothing was changed/);
    assert.equal(await offers(), before, "a cancelled refresh changed the offers");
    held[0].end(feed.subarray(200));
    // Again, at full speed: every row of the file is counted, landed or reported.
    slow = false;
    await app.$('[data-testid="refresh-go"]').click();
    const table = await app.$('[data-testid="refresh-reports"]');
    await table.waitForDisplayed({ timeout: 30000, timeoutMsg: "no refresh report" });
    const [read, landed, reported] = await app.execute(() =>
      ["refresh-rows", "refresh-landed", "refresh-reported"].map((id) => Number(document.querySelector(`[data-testid="${id}"]`).textContent)));
    assert.equal(read, rows);
    assert.equal(landed + reported, rows);
    assert.ok(landed > 0, "no row landed");
    await table.scrollIntoView();
    await shot(app, "35-refresh-done-en");
    assert.ok((await offers()) > before, "the refreshed feed's offers are not listed");
  } finally {
    await app.deleteSession();
    server.close();
  }
});

test("a large refresh: the offers tab draws one page of 500 and pages through the rest", async () => {
  // 10,000 rows in the real AWS format (three real instance types over made-up zones): 16,667 offers.
  const here = dirname(fileURLToPath(import.meta.url));
  const [header, ...body] = readFileSync(join(here, "../../crates/catalog/tests/fixtures/skypilot/v9/aws/vms.csv"), "utf8").trim().split("\n");
  const keep = body.filter((r) => /^(p5\.48xlarge|p4d\.24xlarge|g6e\.xlarge),/.test(r));
  const lines = Array.from({ length: 10000 }, (_, i) => {
    const cells = keep[i % keep.length].split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/);
    cells[8] = `e2e-region-${Math.floor(i / 100)}`;
    cells[9] = `ez${i % 100}-${Math.floor(i / keep.length)}`;
    return cells.join(",");
  });
  const feed = Buffer.from([header, ...lines].join("\n") + "\n");
  const server = createServer((req, res) => res.end(feed));
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const app = await launch(freshDb());
  try {
    await waitResults(app);
    await clickNav(app, "settings");
    await app.$('[data-testid="refresh-feeds"] [data-feed="skypilot:aws"]').click();
    await typeIntoText(app, '[data-testid="refresh-skypilot-url"]', `http://127.0.0.1:${server.address().port}/{cloud}/vms.csv`);
    await app.$('[data-testid="refresh-go"]').click();
    await app.$('[data-testid="refresh-reports"]').waitForDisplayed({ timeout: 60000, timeoutMsg: "no refresh report" });
    await clickNav(app, "catalogue");
    await tab(app, "offers");
    const page = await app.$('[data-testid="offer-page"]');
    await page.waitForDisplayed({ timeout: 30000, timeoutMsg: "no pager for the imported offers" });
    const total = Number(await app.$('[data-testid="offer-count"]').getAttribute("data-n"));
    assert.ok(total > 16000, `offers listed: ${total}`);
    const drawn = () => app.execute(() => document.querySelectorAll('[data-testid="offer-row"]').length);
    assert.equal(await drawn(), 500);
    assert.equal(await page.getText(), `Offers 1–500 of ${total.toLocaleString("en")}`);
    await shot(app, "36-offers-paged-en");
    await app.$('[data-testid="offer-next"]').click();
    await app.waitUntil(async () => (await page.getText()).startsWith("Offers 501–1,000 of"), { timeoutMsg: "the next page did not come" });
    assert.equal(await drawn(), 500);
    // A discount's offer picker lists the first 500 and says so.
    await tab(app, "mine");
    await app.$('[data-testid="add-my-discount"]').click();
    const first = await app.$('[data-testid="my-discount-offer-first"]');
    await first.waitForDisplayed({ timeoutMsg: "the discount's offer picker does not say it lists the first 500" });
    assert.match(await first.getText(), /^The first 500 of [\d,]+ offers by id/);
    await shot(app, "37-discount-offer-first-en");
  } finally {
    await app.deleteSession();
    server.close();
  }
});

/** Replaces the text of the text input inside `selector`. */
async function typeIntoText(app, selector, value) {
  const input = await app.$(`${selector} input`);
  await input.waitForDisplayed();
  await input.click();
  await app.keys(["Control", "a"]);
  await input.addValue(value);
}
