// Suanli against an empty Tauri window of the same tauri version and drawing
// settings (tests/empty-window), side by side on one display: memory at idle
// and start-up (scripts/bench-window). Figures only: nothing passes or fails.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { remote } from "webdriverio";

import { work } from "./app.mjs";

const RUNS = Number(process.env.SUANLI_MEASURE_RUNS ?? 3);
const IDLE_MS = Number(process.env.SUANLI_IDLE_MS ?? 15000);
// Suanli's screens, each visited once in this order after the idle figure
// (the window opens on the scenario); PSS read SCREEN_MS after each click.
const SCREENS = ["plan", "catalogue", "library", "settings", "scenario"];
const SCREEN_MS = Number(process.env.SUANLI_SCREEN_MS ?? 5000);
const apps = [
  { name: "empty Tauri window", binary: process.env.SUANLI_EMPTY_APP, results: false },
  { name: "Suanli", binary: process.env.SUANLI_APP, results: true },
];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const ticks = Number(execFileSync("getconf", ["CLK_TCK"]).toString()); // /proc's clock ticks per second
const boot = Number(/^btime (\d+)/m.exec(readFileSync("/proc/stat", "utf8"))[1]) * 1000;

/** The processes under `root` (itself included). */
function tree(root) {
  const children = new Map();
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const ppid = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1];
      children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    } catch {}
  }
  const out = [];
  const visit = (pid) => { out.push(pid); for (const c of children.get(pid) ?? []) visit(c); };
  visit(String(root));
  return out;
}

/** PSS (MB) of each process under `root`, by name. */
function pss(root) {
  const each = {};
  for (const pid of tree(root)) {
    try {
      const kb = Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))[1]);
      const name = readFileSync(`/proc/${pid}/comm`, "utf8").trim();
      each[name] = (each[name] ?? 0) + kb / 1024;
    } catch {}
  }
  return each;
}

/** When the process started, in ms since the epoch (to a clock tick). */
function startedAt(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return boot + (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]) * 1000) / ticks;
}

function pidOf(binary, marker) {
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (cmd[0] === binary && cmd.includes(marker)) return pid;
    } catch {}
  }
  return null;
}

const figures = [];
for (const a of apps) {
  const starts = [], results = [], memory = [], screens = [];
  for (let run = 0; run < RUNS; run++) {
    const db = join(mkdtempSync(join(work, "w-")), "suanli.sqlite"); // a first start, every run
    const app = await remote({
      hostname: "127.0.0.1", port: Number(process.env.SUANLI_DRIVER_PORT), logLevel: "error", connectionRetryCount: 0,
      capabilities: { "wdio:enforceWebDriverClassic": true, "tauri:options": { application: a.binary, args: ["--db", db] } },
    });
    const pid = pidOf(a.binary, db);
    const mark = (name) => app.execute((n) => { const e = performance.getEntriesByName(n)[0]; return e ? performance.timeOrigin + e.startTime : null; }, name);
    await app.waitUntil(async () => (await mark("suanli:first-frame")) !== null, { timeout: 30000 });
    starts.push((await mark("suanli:first-frame")) - startedAt(pid));
    if (a.results) {
      await app.waitUntil(async () => (await mark("suanli:evaluated")) !== null, { timeout: 30000 });
      results.push((await mark("suanli:evaluated")) - startedAt(pid));
    }
    await new Promise((r) => setTimeout(r, IDLE_MS));
    memory.push(pss(pid));
    if (a.results) {
      const after = {};
      for (const screen of SCREENS) {
        await app.$(`[data-testid="nav-${screen}"]`).click();
        await new Promise((r) => setTimeout(r, SCREEN_MS));
        after[screen] = pss(pid);
      }
      screens.push(after);
    }
    await app.deleteSession();
  }
  const total = memory.map((m) => Object.values(m).reduce((x, y) => x + y, 0));
  const sum = (m) => Object.values(m).reduce((x, y) => x + y, 0);
  // Each screen's median run, whole and by process.
  const byScreen = Object.fromEntries(SCREENS.map((n) => {
    if (!screens.length) return [n, null];
    const totals = screens.map((x) => sum(x[n]));
    return [n, { pss: median(totals), parts: screens[totals.indexOf(median(totals))][n] }];
  }));
  figures.push({ name: a.name, start: median(starts), results: results.length ? median(results) : null, pss: median(total), parts: memory[total.indexOf(median(total))], byScreen });
}

const [empty, suanli] = figures;
const mb = (x) => `${x.toFixed(0)} MB`;
for (const f of figures) {
  const parts = Object.entries(f.parts).map(([k, v]) => `${k} ${mb(v)}`).join(", ");
  console.log(`${f.name}: idle PSS ${mb(f.pss)} [${parts}]; process start → first frame ${f.start.toFixed(0)} ms${f.results === null ? "" : `; → first results ${f.results.toFixed(0)} ms`} (medians of ${RUNS}, idle ${IDLE_MS / 1000} s)`);
}
console.log(`Suanli after each screen was visited once (in this order, ${SCREEN_MS / 1000} s after its click; medians of ${RUNS}):`);
for (const n of SCREENS) {
  const { pss: total, parts } = suanli.byScreen[n];
  console.log(`  ${n}: ${mb(total)} (${(total / empty.pss).toFixed(2)}× the empty window) [${Object.entries(parts).map(([k, v]) => `${k} ${mb(v)}`).join(", ")}]`);
}
console.log(`ratio: idle PSS ${(suanli.pss / empty.pss).toFixed(2)}× the empty window (target ≤ 1.3×); first results ${(suanli.results / empty.start).toFixed(2)}× its first frame (target ≤ 1.5×); first frame ${(suanli.start / empty.start).toFixed(2)}×`);
