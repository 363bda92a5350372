// The open scenario: the document being edited, its live evaluation (debounced),
// autosave, and saving to the library. One instance per window (see app.ts).
import { computed, reactive, ref, shallowRef, watch } from "vue";
import { asAppError, type Backend } from "../backend";
import type { AppError, Bilingual, Evaluated, FieldError, JsonValue, Lang, ScenarioDoc } from "../backend/types";
import { getNumber, getPath, getText, isTable, mapFieldErrors, setPath } from "./paths";
import { keepUnchanged } from "../results/keep";

export interface EditorOptions { evaluateDelayMs?: number; autosaveDelayMs?: number }
/** A message for the editor; `name` is an example's name as each language shows it. */
export type Notice = { key: string; params: Record<string, string>; name?: Bilingual } | null;

const clone = <X>(x: X): X => JSON.parse(JSON.stringify(x));

export function createEditor(backend: Backend, opts: EditorOptions = {}) {
  // No debounce: an evaluation takes about a millisecond; answers to older inputs are dropped (evalSeq).
  const evalDelay = opts.evaluateDelayMs ?? 0;
  const autosaveDelay = opts.autosaveDelayMs ?? 1000;
  const scenario = ref<ScenarioDoc | null>(null);
  const libraryId = ref<number | null>(null);
  const savedSnapshot = ref<string | null>(null);
  const result = shallowRef<Evaluated | null>(null);
  const evalError = shallowRef<AppError | null>(null);
  const saveError = shallowRef<AppError | null>(null);
  const generation = ref(0);
  const evaluating = ref(false);
  const notice = ref<Notice>(null);
  /** Paths of the form items currently shown (they register themselves). */
  const shownPaths = reactive(new Map<string, number>());

  let evalSeq = 0;
  let evalTimer: ReturnType<typeof setTimeout> | undefined;
  let autosaveTimer: ReturnType<typeof setTimeout> | undefined;
  let suppressAutosave = false;
  let skipEval = false;

  const dirty = computed(() => scenario.value !== null && JSON.stringify(scenario.value) !== savedSnapshot.value);
  const fieldErrors = computed<FieldError[]>(() => [...(evalError.value?.fields ?? []), ...(saveError.value?.fields ?? [])]);
  /** The options' tables, in order (an entry that is not a table shows as an empty one). */
  const options = computed<ScenarioDoc[]>(() => {
    const list = scenario.value?.options;
    return Array.isArray(list) ? list.map((o) => (isTable(o) ? o : {})) : [];
  });
  const optionIds = computed<string[]>(() => options.value.map((o) => String(o.id ?? "")));
  const mapped = computed(() => mapFieldErrors(fieldErrors.value, shownPaths.keys(), optionIds.value));

  async function evaluateNow(): Promise<void> {
    clearTimeout(evalTimer);
    if (!scenario.value) return;
    const seq = ++evalSeq;
    performance.mark("suanli:evaluate");
    const doc = clone(scenario.value);
    evaluating.value = true;
    try {
      const r = await backend.evaluate(doc);
      performance.mark("suanli:evaluated");
      if (seq !== evalSeq) return;
      // The parts equal to the last answer keep their identity: what shows them is not rendered again.
      result.value = keepUnchanged(result.value, r);
      evalError.value = null;
    } catch (e) {
      if (seq !== evalSeq) return;
      evalError.value = asAppError(e);
    } finally {
      if (seq === evalSeq) {
        evaluating.value = false;
        generation.value++;
      }
    }
  }

  async function autosaveNow(): Promise<void> {
    clearTimeout(autosaveTimer);
    if (scenario.value) await backend.autosavePut(clone(scenario.value), libraryId.value).catch(() => undefined);
  }

  watch(scenario, () => {
    saveError.value = null;
    clearTimeout(evalTimer);
    if (skipEval) skipEval = false; // load() evaluates at once itself
    // With no delay the command is sent now, before the keystroke's frame is painted, not a task later.
    else if (evalDelay === 0) void evaluateNow();
    else evalTimer = setTimeout(evaluateNow, evalDelay);
    if (suppressAutosave) { suppressAutosave = false; return; }
    clearTimeout(autosaveTimer);
    autosaveTimer = setTimeout(autosaveNow, autosaveDelay);
  }, { deep: true });

  /** Opens a document. `clean` = it matches what is in the library (or an example). */
  function load(doc: ScenarioDoc, id: number | null, clean: boolean) {
    suppressAutosave = clean;
    skipEval = true;
    scenario.value = clone(doc);
    libraryId.value = id;
    savedSnapshot.value = clean ? JSON.stringify(doc) : null;
    result.value = null;
    evalError.value = null;
    saveError.value = null;
  }

  /** First start: restore the autosaved draft, else open the first example. */
  async function init(): Promise<void> {
    const draft = await backend.autosaveGet().catch(() => null);
    if (draft) {
      load(draft.scenario, draft.library_id, false);
      suppressAutosave = true; // the draft is already stored
      if (draft.library_id !== null) {
        const saved = await backend.libraryOpen(draft.library_id).catch(() => null);
        if (saved) savedSnapshot.value = JSON.stringify(saved.scenario);
        else libraryId.value = null;
      }
      notice.value = { key: "editor.restored", params: { at: draft.saved_at } };
    } else {
      const ex = (await backend.examples())[0];
      if (ex) {
        load(await backend.scenarioFromToml(ex.toml), null, true);
        notice.value = { key: "editor.exampleOpened", params: {}, name: ex.display };
      }
    }
    await evaluateNow();
  }

  async function openFromLibrary(id: number) {
    const saved = await backend.libraryOpen(id);
    load(saved.scenario, saved.meta.id, true);
    notice.value = { key: "editor.opened", params: { name: saved.meta.name } };
    await backend.autosaveClear().catch(() => undefined);
    await evaluateNow();
  }

  async function openExample(toml: string, name: Bilingual) {
    load(await backend.scenarioFromToml(toml), null, true);
    notice.value = { key: "editor.exampleOpened", params: {}, name };
    await evaluateNow();
  }

  /** Saves to the library (as new when `asNew` or never saved). Returns false and
   * keeps the backend's errors when the scenario is invalid. */
  async function save(asNew = false): Promise<boolean> {
    if (!scenario.value) return false;
    const doc = clone(scenario.value);
    try {
      const meta = await backend.librarySave(asNew ? null : libraryId.value, doc);
      libraryId.value = meta.id;
      savedSnapshot.value = JSON.stringify(doc);
      saveError.value = null;
      notice.value = { key: "editor.saved", params: { name: meta.name } };
      await backend.autosaveClear().catch(() => undefined);
      return true;
    } catch (e) {
      saveError.value = asAppError(e);
      return false;
    }
  }

  function get(path: string): JsonValue | undefined { return getPath(scenario.value, path); }
  function text(path: string): string | undefined { return getText(scenario.value, path); }
  function number(path: string): number | undefined { return getNumber(scenario.value, path); }
  function set(path: string, value: JsonValue | undefined) { if (scenario.value) setPath(scenario.value, path, value); }

  function registerPath(path: string) { shownPaths.set(path, (shownPaths.get(path) ?? 0) + 1); }
  function unregisterPath(path: string) {
    const n = (shownPaths.get(path) ?? 1) - 1;
    if (n <= 0) shownPaths.delete(path); else shownPaths.set(path, n);
  }
  function errorsAt(path: string): string[] { return mapped.value.byPath[path] ?? []; }

  /** The open scenario's name as `lang` shows it: the backend's reading of
   * it when the last evaluation was of the same text, else the text as written. */
  function scenarioName(lang: Lang): string {
    const raw = String(scenario.value?.name ?? "");
    const ev = result.value?.evaluation;
    return ev && ev.scenario === raw ? ev.scenario_display[lang] : raw;
  }
  /** An option's label as `lang` shows it, read the same way. */
  function optionName(o: ScenarioDoc, lang: Lang): string {
    const raw = String(o.label || o.id || "");
    const shown = result.value?.evaluation.options.find((x) => x.id === o.id);
    return shown && shown.label === raw ? shown.display[lang] : raw;
  }

  function dispose() { clearTimeout(evalTimer); clearTimeout(autosaveTimer); }

  return {
    scenario, libraryId, result, evalError, saveError, generation, evaluating, notice, dirty, mapped, options, optionIds,
    evaluateNow, autosaveNow, load, init, openFromLibrary, openExample, save, scenarioName, optionName, get, text, number, set, registerPath, unregisterPath, errorsAt, dispose,
  };
}

export type Editor = ReturnType<typeof createEditor>;
