// Window-wide state: the backend, settings, catalogue look-ups and the editor.
import { inject, ref, shallowRef, type InjectionKey } from "vue";
import type { Backend } from "./backend";
import type { Accelerator, AppInfo, Lang, Settings, Source } from "./backend/types";
import { createEditor, type Editor, type EditorOptions } from "./scenario/editor";
import { createRefresh } from "./settings/refresh";

export function createAppState(backend: Backend, editorOpts: EditorOptions = {}) {
  const info = shallowRef<AppInfo | null>(null);
  const settings = ref<Settings | null>(null);
  const accelerators = shallowRef<Accelerator[]>([]);
  const workloadClasses = shallowRef<string[]>([]);
  const editor: Editor = createEditor(backend, editorOpts);
  const sourceCache = new Map<string, Promise<Source | null>>();

  async function loadInfo() { info.value = await backend.appInfo(); return info.value; }
  async function loadCatalogue() {
    accelerators.value = await backend.listAccelerators({ vendor: null, domestic: null, min_memory_gb: null, obtainable_in: null });
    workloadClasses.value = await backend.workloadClasses();
  }
  async function loadSettings() { settings.value = await backend.getSettings(); return settings.value; }
  async function saveSettings(s: Settings) { settings.value = await backend.putSettings(s); return settings.value; }
  async function setLang(lang: Lang) {
    if (!settings.value) return;
    await saveSettings({ ...settings.value, lang });
  }
  function source(id: string): Promise<Source | null> {
    let p = sourceCache.get(id);
    if (!p) { p = backend.getSource(id).catch(() => null); sourceCache.set(id, p); }
    return p;
  }
  /** The rates prices are compared at: the settings' USD→CNY, never an invented one
   * (without it USD offers have no comparable CNY price). */
  function fx(): Record<string, number> {
    const r = settings.value?.usd_cny;
    return r ? { USD: r } : {};
  }
  function acceleratorName(id: string | null | undefined, lang: Lang): string {
    if (!id) return "—";
    const a = accelerators.value.find((x) => x.id === id);
    if (!a) return id;
    return (lang === "zh" && a.name_zh) || a.name;
  }
  const refresh = createRefresh(backend, async () => { await loadInfo(); await loadCatalogue(); });
  return { backend, info, settings, accelerators, workloadClasses, editor, refresh, loadInfo, loadCatalogue, loadSettings, saveSettings, setLang, source, fx, acceleratorName };
}

export type AppState = ReturnType<typeof createAppState>;
export const APP: InjectionKey<AppState> = Symbol("app");

export function useApp(): AppState {
  const s = inject(APP);
  if (!s) throw new Error("app state not provided");
  return s;
}
