// The installed package's window (see scripts/test-package): the app that apt put in
// /usr/bin runs inside a clean Debian 12 root, started by WebKitWebDriver in that root
// as an ordinary user with a fresh home, on its default database. Run by
// scripts/test-package only (not a *.test.mjs: scripts/e2e leaves it alone).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { remote } from "webdriverio";

import { shot, waitResults, total } from "./app.mjs";

const root = process.env.SUANLI_INSTALL_ROOT; // the Debian root, seen from here
const home = process.env.SUANLI_INSTALL_HOME; // the user's home, seen from inside the root
const outside = (path) => join(root, path);

test("the installed app opens the example with results, keeps its database in the user's data directory and writes a proposal", async () => {
  const db = `${home}/.local/share/suanli/suanli.sqlite`;
  assert.ok(!existsSync(outside(db)), `${db} exists before the first start`);
  const app = await remote({
    hostname: "127.0.0.1",
    port: Number(process.env.SUANLI_DRIVER_PORT),
    logLevel: "error",
    connectionRetryCount: 0,
    waitforTimeout: 15000,
    capabilities: {
      "wdio:enforceWebDriverClassic": true,
      // No --db: where the installed app puts its database by itself is what is tested.
      "tauri:options": { application: "/usr/bin/suanli-app", args: [] },
    },
  });
  try {
    await app.setWindowSize(1440, 900).catch(() => {});
    await waitResults(app);
    // The article's seed case from the example compiled into the app, priced from the
    // bundled catalogue; shot() also fails when any text is not in the bundled face.
    assert.equal(await total(app, "rent-8xa100-on-demand"), 1799654.4);
    assert.equal(await total(app, "buy-8xa100"), 3000000);
    await shot(app, "installed-01-scenario-results-en");
    assert.ok(statSync(outside(db)).size > 0, `no database at ${db}`);

    const out = `${home}/proposal.pdf`;
    await app.$('[data-testid="export-proposal"]').click();
    const path = await app.$('input[data-testid="export-path"]');
    await path.waitForDisplayed();
    await path.click();
    await app.keys(["Control", "a"]);
    await path.addValue(out);
    await app.$('input[data-testid="export-client"]').setValue("ACME 集团");
    await app.$('[data-testid="export-go"]').click();
    const outcome = await app.$('[data-testid="export-done"], [data-testid="export-error"]');
    await outcome.waitForDisplayed({ timeout: 60000, timeoutMsg: "export neither confirmed nor refused" });
    await shot(app, "installed-02-export-done-en");
    assert.equal(await outcome.getAttribute("data-testid"), "export-done", await outcome.getText());
    assert.equal(readFileSync(outside(out)).subarray(0, 5).toString(), "%PDF-");
  } finally {
    await app.deleteSession();
  }
});
