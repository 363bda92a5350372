import { createApp } from "vue";
import ElementPlus from "element-plus";
import "element-plus/dist/index.css";
import "./styles.css";
import "./charts/setup";
import App from "./App.vue";
import { selectBackend } from "./backend";
import { APP, createAppState } from "./app";
import { makeI18n } from "./i18n";

async function start() {
  const backend = await selectBackend();
  const state = createAppState(backend);
  const settings = await backend.getSettings().catch(() => null);
  // No settings (first start, or no database): the backend's language, which follows the system.
  const info = settings ? null : await backend.appInfo().catch(() => null);
  const app = createApp(App);
  app.use(ElementPlus);
  app.use(makeI18n(settings?.lang ?? info?.lang ?? "en"));
  app.provide(APP, state);
  app.mount("#app");
}

void start();
