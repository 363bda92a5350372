// Every <el-…> tag in the screens is a registered component: a missing one would
// render as an unknown element, silently.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createApp } from "vue";
import { elements } from "./elements";

function vueFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? vueFiles(join(dir, e.name)) : e.name.endsWith(".vue") ? [join(dir, e.name)] : []);
}

describe("Element Plus", () => {
  it("every component tag the screens use is registered", () => {
    const tags = new Set(vueFiles(join(__dirname)).flatMap((f) => [...readFileSync(f, "utf8").matchAll(/<(el-[a-z-]+)/g)].map((m) => m[1])));
    expect(tags.size).toBeGreaterThan(20);
    const app = createApp({});
    app.use(elements);
    const pascal = (tag: string) => tag.replace(/(^|-)([a-z])/g, (_, _d, c: string) => c.toUpperCase());
    const missing = [...tags].filter((t) => !app.component(pascal(t)));
    expect(missing).toEqual([]);
  });
});
