// End-to-end tests of the real Suanli window (see scripts/e2e): each test
// starts the app on its own temporary database, works it as a user would,
// and saves a screenshot of each step.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { launch, shot, waitResults, total, setField, clickNav, work } from "./app.mjs";

const SEED_RENT = "rent-8xa100-on-demand";

test("first start opens the seed scenario with results", async () => {
  const db = join(mkdtempSync(join(work, "db-")), "suanli.sqlite");
  const app = await launch(db);
  try {
    await waitResults(app);
    // The article's seed case, straight from the bundled example.
    assert.equal(await total(app, SEED_RENT), 1799654.4);
    assert.equal(await total(app, "buy-8xa100"), 3000000);
    await shot(app, "01-scenario-results-en");
  } finally {
    await app.deleteSession();
  }
});

test("catalogue: filter to domestic accelerators", async () => {
  const db = join(mkdtempSync(join(work, "db-")), "suanli.sqlite");
  const app = await launch(db);
  try {
    await waitResults(app);
    await clickNav(app, "catalogue");
    const rows = () => app.$$('[data-testid="accel-row"]');
    await app.waitUntil(async () => (await rows()).length > 20, { timeoutMsg: "accelerator table did not fill" });
    const all = (await rows()).length;
    await shot(app, "02-catalogue-all-en");
    await app.$('[data-testid="domestic-only"]').click();
    await app.waitUntil(async () => (await rows()).length < all, { timeoutMsg: "domestic filter did not narrow" });
    // One script call, not one request per row: WebKitWebDriver does not take parallel requests well.
    const ids = await app.execute(() =>
      [...document.querySelectorAll('[data-testid="accel-row"]')].map((r) => r.getAttribute("data-id")),
    );
    assert.ok(ids.length >= 9, `domestic rows: ${ids}`);
    assert.ok(ids.some((id) => id.startsWith("huawei-ascend")), `no Ascend in ${ids}`);
    assert.ok(!ids.some((id) => id.startsWith("nvidia-")), `NVIDIA among domestic: ${ids}`);
    await shot(app, "03-catalogue-domestic-en");
  } finally {
    await app.deleteSession();
  }
});

test("scenario: an input change redraws the results", async () => {
  const db = join(mkdtempSync(join(work, "db-")), "suanli.sqlite");
  const app = await launch(db);
  try {
    const first = await waitResults(app);
    const before = await total(app, SEED_RENT);
    await setField(app, "field-horizon_months", "48");
    await waitResults(app, first);
    const after = await total(app, SEED_RENT);
    assert.ok(after > before, `renting for 48 months (${after}) should cost more than 36 (${before})`);
    await shot(app, "04-scenario-48-months-en");
    // A value the engine refuses is named at its field, and the last results stay.
    await setField(app, "field-horizon_months", "0");
    const error = await app.$('[data-testid="field-horizon_months"] .field-error, [data-testid="eval-errors"]');
    await error.waitForDisplayed({ timeoutMsg: "no message for horizon_months = 0" });
    await shot(app, "05-scenario-invalid-en");
  } finally {
    await app.deleteSession();
  }
});

test("save, restart, and find the scenario unchanged", async () => {
  const db = join(mkdtempSync(join(work, "db-")), "suanli.sqlite");
  let app = await launch(db);
  try {
    const first = await waitResults(app);
    await setField(app, "field-horizon_months", "60");
    await waitResults(app, first);
    const saved = await total(app, SEED_RENT);
    await app.$('[data-testid="save-scenario"]').click();
    await clickNav(app, "library");
    await app.$('[data-testid="library-row"]').waitForExist({ timeoutMsg: "saved scenario not in the library" });
    await shot(app, "06-library-en");
  } finally {
    await app.deleteSession();
  }
  app = await launch(db);
  try {
    await waitResults(app);
    await clickNav(app, "library");
    const row = await app.$('[data-testid="library-row"]');
    await row.waitForExist({ timeoutMsg: "library empty after restart" });
    assert.match(await row.getText(), /8×A100/);
    await app.$('[data-testid="library-open"]').click();
    await clickNav(app, "scenario");
    await app.waitUntil(async () => (await fieldValue(app, "field-horizon_months")) === "60", {
      timeoutMsg: "horizon is not 60 after reopening",
    });
    await waitResults(app);
    assert.equal(await total(app, SEED_RENT) > 0, true);
    await shot(app, "07-reopened-after-restart-en");
  } finally {
    await app.deleteSession();
  }
});

test("language: Chinese labels and amounts in 万", async () => {
  const db = join(mkdtempSync(join(work, "db-")), "suanli.sqlite");
  const app = await launch(db);
  try {
    await waitResults(app);
    await app.$('[data-testid="lang-toggle"]').click();
    await app.waitUntil(async () => (await app.$('[data-testid="nav-catalogue"]').getText()).includes("目录"), {
      timeoutMsg: "navigation is not in Chinese",
    });
    const text = await app.$(`[data-testid="total-${SEED_RENT}"]`).getText();
    assert.match(text, /万/, `total reads ${text}`);
    await shot(app, "08-scenario-results-zh");
    await clickNav(app, "catalogue");
    await app.$('[data-testid="accel-row"]').waitForExist();
    await shot(app, "09-catalogue-zh");
    await clickNav(app, "settings");
    await shot(app, "10-settings-zh");
  } finally {
    await app.deleteSession();
  }
});

test("export: the proposal PDF is written where the user says", async () => {
  const db = join(mkdtempSync(join(work, "db-")), "suanli.sqlite");
  const out = join(mkdtempSync(join(work, "out-")), "proposal.pdf");
  const app = await launch(db);
  try {
    await waitResults(app);
    await app.$('[data-testid="export-proposal"]').click();
    const path = await app.$('input[data-testid="export-path"]');
    await path.waitForDisplayed();
    // Select all and type over it, as a user would (clearValue bypasses Vue's input events).
    await path.click();
    await app.keys(["Control", "a"]);
    await path.addValue(out);
    await app.$('input[data-testid="export-client"]').setValue("ACME 集团");
    await shot(app, "11-export-dialog-en");
    await app.$('[data-testid="export-go"]').click();
    const outcome = await app.$('[data-testid="export-done"], [data-testid="export-error"]');
    await outcome.waitForDisplayed({ timeout: 30000, timeoutMsg: "export neither confirmed nor refused" });
    await shot(app, "12-export-done-en");
    assert.equal(await outcome.getAttribute("data-testid"), "export-done", await outcome.getText());
    assert.equal(await outcome.getAttribute("data-path"), out);
    assert.ok(existsSync(out), `${out} not written`);
    assert.equal(readFileSync(out).subarray(0, 5).toString(), "%PDF-");
  } finally {
    await app.deleteSession();
  }
});

async function fieldValue(app, testid) {
  return app.$(`[data-testid="${testid}"] input`).getValue();
}

test("hostile text in a scenario is shown as text, never run", async () => {
  const db = join(mkdtempSync(join(work, "db-")), "suanli.sqlite");
  const app = await launch(db);
  try {
    const first = await waitResults(app);
    const hostile = `<img src=x onerror="window.__pwned=1"><b id="hostile">bold</b>'; DROP TABLE library;--`;
    await setField(app, "field-name", hostile);
    await setField(app, "field-options-0-label", hostile);
    await waitResults(app, first);
    await app.pause(500);
    const seen = await app.execute(() => ({
      name: document.querySelector('[data-testid="open-name"]')?.textContent ?? "",
      injected: document.getElementById("hostile") !== null || document.querySelector('img[src="x"]') !== null,
      pwned: window.__pwned === 1,
    }));
    assert.equal(seen.name.trim(), hostile);
    assert.equal(seen.injected, false, "markup from the scenario became elements");
    assert.equal(seen.pwned, false, "script from the scenario ran");
    // It saves and reopens as the same text (parameterised SQL: the library is still there).
    await app.$('[data-testid="save-scenario"]').click();
    await clickNav(app, "library");
    const row = await app.$('[data-testid="library-row"]');
    await row.waitForExist({ timeoutMsg: "hostile scenario not saved" });
    assert.equal((await row.getText()).trim(), hostile);
    await shot(app, "13-hostile-text-en");
  } finally {
    await app.deleteSession();
  }
});

test("a database that is not one gets the recovery screen and is left as it was", async () => {
  const db = join(mkdtempSync(join(work, "db-")), "suanli.sqlite");
  const bytes = Buffer.from("somebody's spreadsheet, not a Suanli database\n".repeat(100));
  writeFileSync(db, bytes);
  const app = await launch(db);
  try {
    const screen = await app.$('[data-testid="recovery"]');
    await screen.waitForDisplayed({ timeoutMsg: "no recovery screen" });
    assert.equal(await app.$('[data-testid="recovery-path"]').getText(), db);
    assert.ok((await app.$('[data-testid="recovery-message"]').getText()).length > 10);
    // No settings can be read: the screen follows the system's language (English here).
    assert.match(await screen.getText(), /Suanli cannot open its database/);
    await shot(app, "14-recovery-en");
  } finally {
    await app.deleteSession();
  }
  assert.ok(readFileSync(db).equals(bytes), "the file was changed");
});
