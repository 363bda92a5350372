// Start-up, redraw and memory figures of the real app (scripts/e2e --measure).
// Figures only: nothing here passes or fails on time.
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

import { launch, screenshot, waitResults, work } from "./app.mjs";

const RUNS = Number(process.env.SUANLI_MEASURE_RUNS ?? 5);

/** The q-quantile (nearest rank) of xs: 0.5 is the median, 0.95 the p95. */
function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
}
const median = (xs) => quantile(xs, 0.5);

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
      const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(rollup)?.[1] ?? NaN);
      const kb = field("Pss");
      total += kb;
      names.push(readFileSync(`/proc/${pid}/comm`, "utf8").trim());
      // anonymous (heaps, JS), file-backed (libraries, mapped files), shared memory (buffers between the processes)
      const part = (name) => (field(name) / 1024).toFixed(0);
      each.push(`${names.at(-1)} ${(kb / 1024).toFixed(1)} MB (anon ${part("Pss_Anon")}, file ${part("Pss_File")}, shmem ${part("Pss_Shmem")})`);
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
const ipc = [];
const inDom = [];
const chartRedraws = [];
const frameAfters = [];
const startMarks = [];
const phases = [];
const screenshots = [];
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
  // The form's sections fill in after the first results; the input timed below is in one of them.
  await app.waitUntil(() => app.execute(() => performance.getEntriesByName("suanli:form").length > 0), { timeout: 20000 });
  // Inside the page, from its navigation: each step of start-up (the marks named in the print below).
  startMarks.push(await app.execute(() => ["suanli:start", "suanli:font", "suanli:mounted", "suanli:ready", "suanli:shown", "suanli:evaluate", "suanli:form", "suanli:evaluated"].map((n) => performance.getEntriesByName(n)[0]?.startTime ?? NaN)));
  sessions.push(t1 - t0);
  // One input change to redrawn results, timed inside the page: the horizon
  // field gets a new value and its input event (what a keystroke fires), then
  // the clock stops at the frame after the new results are on screen.
  for (const months of [48, 60, 24, 36, 30]) {
    const ms = await app.executeAsync((months, done) => {
      const marker = document.querySelector('[data-testid="results-ready"]');
      const charts = document.querySelector('[data-testid="charts-ready"]');
      const input = document.querySelector('[data-testid="field-horizon_months"] input');
      const before = marker.getAttribute("data-generation");
      const t = performance.now();
      input.value = String(months);
      input.dispatchEvent(new Event("input", { bubbles: true }));
      // The results are in the DOM when the marker changes (same Vue flush), and
      // on screen at the frame after that; the charts follow a few frames later
      // (charts-ready names the evaluation the last chart has drawn).
      const out = [];
      // out[0]: the frame that paints them begins (its animation-frame callback, just
      // before style, layout and paint); out[3]: the frame after it (what this printed
      // until 2026-12-03, which also counts a chart redrawn between the two frames).
      const frameAfter = (i) => requestAnimationFrame(() => {
        out[i] = performance.now() - t;
        requestAnimationFrame(() => {
          if (i === 0) out[3] = performance.now() - t;
          if (out[3] !== undefined && out[2] !== undefined) done(out);
        });
      });
      new MutationObserver((_, observer) => {
        if (marker.getAttribute("data-generation") !== before && marker.getAttribute("data-state") === "ok") {
          observer.disconnect();
          out[1] = performance.now() - t;
          const mark = (name) => (performance.getEntriesByName(name).at(-1)?.startTime ?? NaN) - t;
          window.__phases = [mark("suanli:evaluate"), mark("suanli:evaluated")];
          frameAfter(0);
          const generation = Number(marker.getAttribute("data-generation"));
          const drawn = () => Number(charts.getAttribute("data-generation")) >= generation;
          if (drawn()) frameAfter(2);
          else new MutationObserver((_, o) => { if (drawn()) { o.disconnect(); frameAfter(2); } }).observe(charts, { attributes: true });
        }
      }).observe(marker, { attributes: true });
    }, months);
    redraws.push(ms[0]);
    chartRedraws.push(ms[2]);
    frameAfters.push(ms[3]);
    phases.push(await app.execute(() => window.__phases));
    inDom.push(ms[1]);
    await app.pause(300);
  }
  // What the backend's part of that is: the evaluate command alone, through IPC.
  ipc.push(
    ...(await app.executeAsync(async (done) => {
      const invoke = window.__TAURI_INTERNALS__.invoke;
      const examples = await invoke("examples", {});
      const doc = await invoke("scenario_from_toml", { text: examples[0].toml });
      const out = [];
      for (let i = 0; i < 10; i++) {
        const t = performance.now();
        await invoke("evaluate", { scenario: doc });
        out.push(performance.now() - t);
      }
      done(out);
    })),
  );
  // A screenshot as the e2e tests take it at each step, with a deadline (a still page once never answered).
  const ts = performance.now();
  const taken = await Promise.race([screenshot(app).then(() => true), new Promise((r) => setTimeout(() => r(false), 20000))]);
  screenshots.push(taken ? performance.now() - ts : Infinity);
  if (!taken) { console.log("a screenshot did not come within 20 s"); break; }
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
const startMark = (i) => fmt(median(startMarks.map((m) => m[i])));
console.log(`  in the page from navigation (medians): script ${startMark(0)}, fonts in ${startMark(1)}, mounted ${startMark(2)}, catalogue lists ${startMark(3)}, screen rendered ${startMark(4)}, first evaluation asked ${startMark(5)}, editor form rendered ${startMark(6)}, first answer handled ${startMark(7)}`);
console.log(`input change to the frame that paints the new figures (in page): median ${fmt(median(redraws))}, p95 ${fmt(quantile(redraws, 0.95))}, max ${fmt(Math.max(...redraws))} over ${redraws.length}`);
console.log(`  to the frame after it: median ${fmt(median(frameAfters))}, p95 ${fmt(quantile(frameAfters, 0.95))}`);
console.log(`input change to all three charts redrawn: median ${fmt(median(chartRedraws))}, p95 ${fmt(quantile(chartRedraws, 0.95))}, max ${fmt(Math.max(...chartRedraws))}`);
console.log(`  in the DOM (evaluated and rendered by Vue): median ${fmt(median(inDom))}`);
console.log(`  evaluation asked at ${fmt(median(phases.map((p) => p[0])))}, answered at ${fmt(median(phases.map((p) => p[1])))} (medians, from the input event)`);
console.log(`  of which the evaluate command through IPC: median ${median(ipc).toFixed(1)} ms over ${ipc.length}`);
console.log(`screenshot: median ${fmt(median(screenshots))} over ${screenshots.length}`);
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
