import { createApp } from "vue";
import { elements } from "./elements";
import "./styles.css";
import "./charts/setup";
import App from "./App.vue";
import { selectBackend } from "./backend";
import { APP, createAppState } from "./app";
import { makeI18n } from "./i18n";

/** A built UI opened outside the app has no backend: say so instead of a blank page. */
function noBackend(e: unknown) {
  const root = document.getElementById("app");
  if (!root) return;
  const p = document.createElement("p");
  p.setAttribute("data-testid", "no-backend");
  p.style.cssText = "font: 16px 'Suanli Sans', sans-serif; margin: 48px auto; max-width: 640px";
  p.textContent = `${e instanceof Error ? e.message : String(e)} / 此页面需在算力桌面应用中打开。`;
  root.replaceChildren(p);
}

/** Charts draw on a canvas once, with whatever face is loaded then: load the bundled one (both weights) first. */
async function bundledFont() {
  const fonts = typeof document !== "undefined" ? document.fonts : undefined;
  if (!fonts) return;
  await Promise.all([fonts.load("400 16px 'Suanli Sans'", "算力"), fonts.load("600 16px 'Suanli Sans'", "算力")]).catch(() => undefined);
}

async function start() {
  performance.mark("suanli:start");
  // The first frame the window paints (what scripts/bench-window times against an empty window's).
  if (typeof requestAnimationFrame !== "undefined") requestAnimationFrame(() => performance.mark("suanli:first-frame"));
  const font = bundledFont(); // loads while the backend answers
  let backend;
  try {
    backend = await selectBackend();
  } catch (e) {
    noBackend(e);
    return;
  }
  const state = createAppState(backend);
  const settings = await backend.getSettings().catch(() => null);
  // No settings (first start, or no database): the backend's language, which follows the system.
  const info = settings ? null : await backend.appInfo().catch(() => null);
  await font;
  performance.mark("suanli:font");
  const app = createApp(App);
  app.use(elements);
  app.use(makeI18n(settings?.lang ?? info?.lang ?? "en"));
  app.provide(APP, state);
  app.mount("#app");
  performance.mark("suanli:mounted");
}

void start();
