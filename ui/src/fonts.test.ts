// The app draws every element in the bundled face (data/fonts, the same cut
// the PDF embeds): no system font is named first anywhere, so a machine with
// no CJK font of its own shows no boxes.
import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync, statSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { FONT } from "./charts/setup";

const src = resolve(__dirname);
const GENERIC = new Set(["sans-serif", "serif", "monospace", "inherit", "var(--el-font-family)"]);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.(vue|ts|css)$/.test(name) && !name.endsWith(".test.ts") ? [path] : [];
  });
}

function families(list: string): string[] {
  return list.split(",").map((f) => f.trim().replace(/^['"]|['"]$/g, "")).filter((f) => f.length > 0);
}

describe("the bundled face", () => {
  it("is the charts' first and only named font", () => {
    const named = families(FONT).filter((f) => !GENERIC.has(f));
    expect(named).toEqual(["Suanli Sans"]);
  });

  it("is the only named font in the styles and the components", () => {
    const css = readFileSync(join(src, "styles.css"), "utf8");
    expect(css).toMatch(/--el-font-family:\s*"Suanli Sans", sans-serif;/);
    // Form controls and teleported popups take it too.
    expect(css).toMatch(/button, input, textarea, select/);
    expect(css).toMatch(/::placeholder/);
    for (const file of files(src)) {
      const text = readFileSync(file, "utf8").replace(/&quot;/g, "\"");
      for (const m of text.matchAll(/font-family:\s*([^;}]+)/g)) {
        const list = families(m[1].replace(/&quot;/g, '"'));
        const named = list.filter((f) => !GENERIC.has(f));
        // Only the bundled face is named; a generic family (monospace for the TOML text) may come first,
        // and the bundled face then draws what it lacks (Chinese).
        expect(named.every((f) => f === "Suanli Sans"), `${file}: ${m[0]}`).toBe(true);
        expect(list.includes("Suanli Sans") || list.includes("var(--el-font-family)") || list[0] === "inherit", `${file}: ${m[0]}`).toBe(true);
      }
      for (const m of text.matchAll(/fontFamily:\s*"([^"]+)"/g)) {
        expect(families(m[1])[0], `${file}: ${m[0]}`).toBe("Suanli Sans");
      }
    }
  });

  it("is files the repository holds, in both weights, each part with the characters it alone holds", () => {
    const css = readFileSync(join(src, "fonts.css"), "utf8");
    const faces = [...css.matchAll(/url\("@data\/([^"]+)"\)[^}]*font-weight: ([^;]+);[^}]*unicode-range: ([^;]+);/g)];
    expect(faces.map((f) => f[1].replace(/.*\//, ""))).toEqual([
      "NotoSansSC-Regular-core.otf", "NotoSansSC-Regular-rest.otf", "NotoSansSC-Bold-core.otf", "NotoSansSC-Bold-rest.otf",
    ]);
    for (const f of faces) expect(existsSync(resolve(src, "../../data", f[1])), f[1]).toBe(true);
    const points = (ranges: string) => ranges.split(",").flatMap((r) => {
      const [a, b] = r.trim().slice(2).split("-").map((x) => parseInt(x, 16));
      return Array.from({ length: (b ?? a) - a + 1 }, (_, i) => a + i);
    });
    for (const weight of ["400", "600 700"]) {
      const [core, rest] = faces.filter((f) => f[2] === weight).map((f) => new Set(points(f[3])));
      // The two parts never overlap: which one draws a character does not depend on the order faces are tried.
      expect([...rest].filter((p) => core.has(p))).toEqual([]);
      // Every character of the app's own text is in the core part: the rarer hanzi load only for user text.
      for (const file of files(src).filter((f) => /i18n\/.*\.ts$/.test(f))) {
        const missing = [...readFileSync(file, "utf8")].filter((ch) => ch.codePointAt(0)! > 0x2e7f && !core.has(ch.codePointAt(0)!));
        expect(missing, file).toEqual([]);
      }
    }
  });
});
