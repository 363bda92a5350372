// Starting the real app through tauri-driver, and the few steps every test uses.
import assert from "node:assert/strict";
import { remote } from "webdriverio";
import { join } from "node:path";

export const work = process.env.SUANLI_E2E_WORK ?? "/tmp";
const application = process.env.SUANLI_APP;
const shots = process.env.SUANLI_SHOTS;

/** Starts the app on the database `db` and waits for its first screen. */
export async function launch(db, args = []) {
  // Once in CI a relaunch found GTK unable to open the (live) display: a new
  // session is tried once more before the test fails.
  const app = await session(db, args).catch((e) => {
    console.warn(`the app did not start (${String(e.message).split("\n")[0]}); starting it again`);
    return session(db, args);
  });
  await app.setWindowSize(1440, 900).catch(() => {});
  return app;
}

function session(db, args) {
  return remote({
    hostname: "127.0.0.1",
    port: Number(process.env.SUANLI_DRIVER_PORT ?? 4444),
    logLevel: "error",
    connectionRetryCount: 0,
    waitforTimeout: 15000,
    capabilities: {
      // Never BiDi: older WebKitWebDriver rejects the session (tauri-apps/tauri#15415).
      "wdio:enforceWebDriverClassic": true,
      "tauri:options": { application, args: ["--db", db, ...args] },
    },
  });
}

/**
 * Takes a screenshot of the screen as it is, after checking that every piece
 * of text on it (labels, buttons, inputs, placeholders, tags, tooltips shown)
 * is drawn in the bundled face: this machine has no system CJK font, so any
 * other face draws Chinese as boxes.
 */
export async function shot(app, name) {
  await app.pause(800); // let chart animations finish
  await screenshot(app, join(shots, `${name}.png`));
  assert.deepEqual(await fontProblems(app), [], `${name}: text not in the bundled face`);
}

/**
 * Saves a screenshot of the window (to `path`, or returns it as base64 without).
 * WebKit answers a screenshot at the page's next paint, and without compositing
 * (how Suanli draws, src-tauri/src/render.rs) a page paints only when something
 * on it changes: a still screen never answered. An empty, invisible pixel is
 * restyled at every frame until the screenshot is taken.
 */
export async function screenshot(app, path) {
  await app.execute(() => {
    const tick = document.createElement("div");
    tick.id = "e2e-paint-tick";
    tick.style.cssText = "position:fixed;left:0;top:0;width:1px;height:1px;pointer-events:none";
    document.body.append(tick);
    let n = 0;
    const step = () => { if (tick.isConnected) { tick.style.opacity = n++ % 2 ? "0.5" : "1"; requestAnimationFrame(step); } };
    requestAnimationFrame(step);
  });
  try {
    return path ? await app.saveScreenshot(path) : await app.takeScreenshot();
  } finally {
    await app.execute(() => document.getElementById("e2e-paint-tick")?.remove());
  }
}

/** Rendered elements with text whose face is not the bundled one (at most 20). */
export async function fontProblems(app) {
  return app.execute(() => {
    const bad = [];
    const first = (family) => family.split(",")[0].trim().replace(/^["']|["']$/g, "");
    for (const el of document.querySelectorAll("body *")) {
      if (el.getClientRects().length === 0) continue;
      const style = getComputedStyle(el);
      if (style.visibility === "hidden") continue;
      const text = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      const field = el.matches("input, textarea, select, button");
      if (!text && !field) continue;
      const family = style.fontFamily;
      const placeholder = field && el.placeholder ? getComputedStyle(el, "::placeholder").fontFamily : "";
      // Code (the TOML editor) is monospace first, the bundled face for what monospace lacks.
      const ok = (f) => first(f) === "Suanli Sans" || (/monospace/.test(f) && f.includes("Suanli Sans"));
      if (ok(family) && (!placeholder || ok(placeholder))) continue;
      const what = (el.textContent || el.placeholder || el.value || "").trim().slice(0, 30);
      bad.push(`${el.tagName.toLowerCase()}.${String(el.className).split(" ")[0]}: ${family} ${placeholder} "${what}"`);
      if (bad.length >= 20) break;
    }
    if (!document.fonts.check('14px "Suanli Sans"', "昇腾算力")) bad.push("the bundled face is not loaded");
    return bad;
  });
}

/** Waits until results newer than `after` (a generation number) are on screen; returns their generation. */
export async function waitResults(app, after = 0) {
  const marker = await app.$('[data-testid="results-ready"]');
  await marker.waitForExist({ timeout: 20000, timeoutMsg: "no results marker" });
  let generation = 0;
  await app.waitUntil(
    async () => {
      generation = Number(await marker.getAttribute("data-generation"));
      return generation > after && (await marker.getAttribute("data-state")) === "ok";
    },
    { timeout: 20000 },
  ).catch(async () => {
    // Say what the screen shows: an invalid state names its field problems.
    const state = await marker.getAttribute("data-state");
    const errors = await app.execute(() =>
      [...document.querySelectorAll(".el-form-item__error, [data-testid='eval-errors']")].map((e) => e.textContent.trim()));
    throw new Error(`results did not update past generation ${after}: at ${generation}, state ${state}, errors ${JSON.stringify(errors)}`);
  });
  return generation;
}

/** Waits until the header says the scenario is saved; when it does not, says what it
 * says instead and what the app reported (a refused save shows a message). */
export async function waitSaved(app, what) {
  const tag = await app.$('[data-testid="save-state"]');
  let text = "";
  await app.waitUntil(async () => (text = await tag.getText()) === "Saved").catch(async () => {
    const messages = await app.execute(() =>
      [...document.querySelectorAll(".el-message, .el-alert")].map((e) => e.textContent.trim()).filter((t) => t));
    throw new Error(`${what}: the header says ${JSON.stringify(text)}, the app shows ${JSON.stringify(messages)}`);
  });
}

/** The nominal total of an option, as the number behind the formatted text. */
export async function total(app, option) {
  const el = await app.$(`[data-testid="total-${option}"]`);
  await el.waitForExist();
  return Number(await el.getAttribute("data-value"));
}

/** Types `value` into the input of the field with test id `testid`, as a user would. */
export async function setField(app, testid, value) {
  const input = await app.$(`[data-testid="${testid}"] input`);
  await input.waitForDisplayed();
  await input.click();
  // Select all and type over it: what a user does, and what fires Vue's input events.
  await app.keys(["Control", "a"]);
  // Element "send keys" types the whole string (per-key actions drop spaces and repeated characters).
  await input.addValue(value);
  // Select-all can miss while the view is still settling: then type over it again.
  if ((await input.getValue()) !== value) {
    await input.clearValue();
    await input.addValue(value);
  }
  assert.equal(await input.getValue(), value, `${testid}: the field does not hold what was typed`);
  await app.keys(["Tab"]);
}

export async function clickNav(app, name) {
  await app.$(`[data-testid="nav-${name}"]`).click();
}
