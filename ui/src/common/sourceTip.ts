// One tooltip for every source hint on screen. A hint (SourceTip.vue) is a
// plain span that points the shared tooltip (SourceTipHost.vue, mounted once
// in App.vue) at itself on hover: an Element Plus tooltip per cell cost a
// table of a hundred rows tens of MB (docs/performance.md, "The window").
import { reactive } from "vue";

/** What a hint says: its sources, as-of date, confidence and a line of its own. */
export interface TipContent {
  source: string | null | undefined;
  asOf?: string | null;
  confidence?: string | null;
  extra?: string;
}

/** The shared tooltip: where it points and what it shows. */
export const tip = reactive({ el: null as HTMLElement | null, content: null as TipContent | null, visible: false });

const SHOW_AFTER_MS = 200;
let pending: ReturnType<typeof setTimeout> | undefined;

/** Shows `content` at `el` once the pointer has rested on it. */
export function showTip(el: HTMLElement, content: TipContent) {
  clearTimeout(pending);
  pending = setTimeout(() => {
    tip.el = el;
    tip.content = content;
    tip.visible = true;
  }, SHOW_AFTER_MS);
}

export function hideTip() {
  clearTimeout(pending);
  tip.visible = false;
}
