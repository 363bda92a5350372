// The one shared source tooltip: a hint shows its sources, date and
// confidence at the hovered figure, and a table's cells hold no tooltip.
import { afterEach, describe, expect, it } from "vitest";
import type { VueWrapper } from "@vue/test-utils";
import { defineComponent, h } from "vue";
import SourceTip from "./SourceTip.vue";
import SourceTipHost from "./SourceTipHost.vue";
import { tip } from "./sourceTip";
import { setup, until } from "../test/helpers";

let wrappers: VueWrapper[] = [];
afterEach(() => { wrappers.forEach((w) => w.unmount()); wrappers = []; document.body.innerHTML = ""; tip.visible = false; });

describe("source tip", () => {
  it("one tooltip shows the hovered figure's source, date and confidence, and hides when the pointer leaves", async () => {
    const s = setup();
    await s.state.loadCatalogue();
    const Page = defineComponent(() => () => h("div", [
      h(SourceTip, { source: "gpu:S10", asOf: "2025-06", confidence: "C" }, () => "80"),
      h(SourceTip, { source: null }, () => "1.5"),
      h(SourceTipHost),
    ]));
    wrappers.push(s.mount(Page));
    const hints = [...document.querySelectorAll(".has-source")] as HTMLElement[];
    expect(hints).toHaveLength(2);
    // No tooltip per hint: the page holds one.
    expect(document.querySelectorAll(".el-tooltip__trigger").length).toBe(0);
    hints[0].dispatchEvent(new MouseEvent("mouseenter"));
    const shown = () => document.querySelector('[data-testid="source-tip"]')?.textContent ?? "";
    await until(() => shown().includes("gpu:S10:") && shown().includes("2025-06"), 2000);
    expect(shown()).toMatch(/Confidence: C — /);
    hints[0].dispatchEvent(new MouseEvent("mouseleave"));
    await until(() => !tip.visible);
    // A figure without a source is the user's assumption.
    hints[1].dispatchEvent(new MouseEvent("mouseenter"));
    await until(() => /assumption/i.test(shown()), 2000);
  });
});
