// Start-up, redraw and memory figures of the real app (scripts/e2e --measure).
// Figures only: nothing here passes or fails on time.
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

import { launch, waitResults, work } from "./app.mjs";

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
  const visit = (pid) => {
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
      total += Number(/^Pss:\s+(\d+)/m.exec(rollup)[1]);
      names.push(readFileSync(`/proc/${pid}/comm`, "utf8").trim());
    } catch {}
    for (const c of children.get(pid) ?? []) visit(c);
  };
  visit(String(root));
  return { kb: total, names };
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
  // One input change to redrawn results, timed inside the page: type a new horizon,
  // then wait for the next results generation and the frame that paints it.
  for (const months of [48, 60, 24, 36, 30]) {
    const ms = await app.executeAsync((months, done) => {
      const marker = document.querySelector('[data-testid="results-ready"]');
      const input = document.querySelector('[data-testid="field-horizon_months"] input');
      const before = marker.getAttribute("data-generation");
      const t = performance.now();
      input.value = String(months);
      input.dispatchEvent(new Event("input", { bubbles: true }));
      input.dispatchEvent(new Event("change", { bubbles: true }));
      const poll = () => {
        if (marker.getAttribute("data-generation") !== before && marker.getAttribute("data-state") === "ready") {
          requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - t)));
        } else {
          requestAnimationFrame(poll);
        }
      };
      poll();
    }, months);
    redraws.push(ms);
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
if (memory) console.log(`idle memory (PSS, app + WebKit processes ${memory.names.join(", ")}): ${(memory.kb / 1024).toFixed(1)} MB`);
