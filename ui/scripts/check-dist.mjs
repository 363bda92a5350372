// After `vite build`: the replay backend (src/backend/replay.ts) and its
// recordings are for tests and the dev server only. Fails when any file in
// dist/ carries a string only they contain.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const dist = process.argv[2] ?? new URL("../dist/", import.meta.url).pathname;
// The first is in replay.ts's messages, the second in recordings.json's header and replay.ts.
const markers = ["is not recorded (", "SUANLI_UPDATE_RECORDINGS"];

const files = (dir) => readdirSync(dir).flatMap((n) => {
  const p = join(dir, n);
  return statSync(p).isDirectory() ? files(p) : [p];
});
const all = files(dist);
if (!all.some((f) => f.endsWith("index.html"))) {
  console.error(`check-dist: no build in ${dist}`);
  process.exit(1);
}
const found = all.flatMap((f) => {
  const text = readFileSync(f, "latin1");
  return markers.filter((m) => text.includes(m)).map((m) => `${f}: ${JSON.stringify(m)}`);
});
if (found.length) {
  console.error(`check-dist: the replay backend is in the build:\n  ${found.join("\n  ")}`);
  process.exit(1);
}
console.log(`check-dist: ${all.length} files, no replay backend`);
