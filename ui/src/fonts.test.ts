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

  it("is a file the repository holds, in both weights", () => {
    const css = readFileSync(join(src, "styles.css"), "utf8");
    const urls = [...css.matchAll(/url\("@data\/([^"]+)"\)/g)].map((m) => m[1]);
    expect(urls.length).toBe(2);
    for (const u of urls) expect(existsSync(resolve(src, "../../data", u)), u).toBe(true);
  });
});
