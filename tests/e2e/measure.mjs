// Start-up, redraw and memory figures of the real app (scripts/e2e --measure).
// Figures only: nothing here passes or fails on time.
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

import { launch, setField, waitResults, work } from "./app.mjs";

const RUNS = Number(process.env.SUANLI_MEASURE_RUNS ?? 5);

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Proportional set size (kB) of a process and all its descendants. */
function pssTree(root) {
  const children = new Map();
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const ppid = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1];
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(pid);
    } catch {}
  }
  let total = 0;
  const names = [];
  const each = [];
  const visit = (pid) => {
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
      const kb = Number(/^Pss:\s+(\d+)/m.exec(rollup)[1]);
      total += kb;
      names.push(readFileSync(`/proc/${pid}/comm`, "utf8").trim());
      each.push(`${names.at(-1)} ${(kb / 1024).toFixed(1)} MB`);
    } catch {}
    for (const c of children.get(pid) ?? []) visit(c);
  };
  visit(String(root));
  return { kb: total, names, each };
}

function appPid(db) {
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (cmd[0].endsWith("suanli-app") && cmd.includes(db)) return pid;
    } catch {}
  }
  return null;
}

const starts = [];
const sessions = [];
const redraws = [];
let memory = null;
for (let run = 0; run < RUNS; run++) {
  const db = join(mkdtempSync(join(work, "m-")), "suanli.sqlite");
  // Every run is a first start: a new database made from the bundled catalogue.
  const t0 = performance.now();
  const app = await launch(db);
  const t1 = performance.now();
  await waitResults(app);
  const t2 = performance.now();
  starts.push(t2 - t0);
  sessions.push(t1 - t0);
  // One input change to redrawn results, timed inside the page: from the field's
  // change event (a number field commits when the user leaves it) to the frame
  // after the new results generation is on screen. The typing is WebDriver's.
  await app.execute(() => {
    const marker = document.querySelector('[data-testid="results-ready"]');
    window.__changes = [];
    window.__paints = [];
    document.addEventListener("change", () => window.__changes.push(performance.now()), true);
    new MutationObserver(() => {
      if (marker.getAttribute("data-state") === "ok") {
        requestAnimationFrame(() => requestAnimationFrame(() => window.__paints.push(performance.now())));
      }
    }).observe(marker, { attributes: true, attributeFilter: ["data-generation"] });
  });
  for (const months of ["48", "60", "24", "36", "30"]) {
    await setField(app, "field-horizon_months", months);
    await app.pause(600);
    const ms = await app.execute(() => {
      const t = window.__changes.at(-1);
      const painted = window.__paints.find((p) => p > t);
      return painted === undefined ? null : painted - t;
    });
    if (ms !== null) redraws.push(ms);
  }
  if (run === RUNS - 1) {
    await new Promise((r) => setTimeout(r, 3000)); // idle
    const pid = appPid(db);
    memory = pid ? pssTree(pid) : null;
  }
  await app.deleteSession();
}

const fmt = (x) => `${Math.round(x)} ms`;
console.log(`cold start to interactive results (incl. WebDriver session): median ${fmt(median(starts))} of ${RUNS} [${starts.map(fmt).join(", ")}]`);
console.log(`  of which WebDriver session + window: median ${fmt(median(sessions))}`);
console.log(`input change to redrawn results (in page): median ${fmt(median(redraws))}, max ${fmt(Math.max(...redraws))} over ${redraws.length}`);
if (memory) console.log(`idle memory (PSS of the app and its WebKit processes): ${(memory.kb / 1024).toFixed(1)} MB [${memory.each.join(", ")}]`);

// A warm start: the same database again (the usual case after the first day).
const warm = [];
const db = join(mkdtempSync(join(work, "m-")), "suanli.sqlite");
for (let run = 0; run <= RUNS; run++) {
  const t0 = performance.now();
  const app = await launch(db);
  await waitResults(app);
  if (run > 0) warm.push(performance.now() - t0); // run 0 creates the database
  await app.deleteSession();
}
console.log(`warm start to interactive results (incl. WebDriver session): median ${fmt(median(warm))} of ${RUNS} [${warm.map(fmt).join(", ")}]`);
