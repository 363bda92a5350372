// A price refresh's state, held by the app (not the Settings screen) so that
// it goes on, and can be cancelled, while the user works elsewhere.
import { computed, ref } from "vue";
import { asAppError, type Backend } from "../backend";
import type { FeedChoice, FeedReport, RefreshProgress } from "../backend/types";

export function createRefresh(backend: Backend, afterImport: () => Promise<void>) {
  const choice = ref<FeedChoice | null>(null);
  const chosen = ref<string[]>([]);
  const skypilotUrl = ref("");
  const azureUrl = ref("");
  const progress = ref<RefreshProgress | null>(null);
  const reports = ref<FeedReport[] | null>(null);
  const error = ref("");
  const busy = ref(false);
  const receivedKb = computed(() => (progress.value ? Math.round((progress.value.done_bytes ?? 0) / 1024) : 0));

  /** The feeds and their public addresses, once. */
  async function load() {
    if (choice.value) return;
    const c = await backend.feedChoice();
    choice.value = c;
    skypilotUrl.value = c.skypilot_url;
    azureUrl.value = c.azure_url;
  }
  async function run() {
    busy.value = true; reports.value = null; error.value = ""; progress.value = null;
    try {
      reports.value = await backend.catalogRefresh(chosen.value, skypilotUrl.value, azureUrl.value, (p) => (progress.value = p));
      await afterImport();
    } catch (e) { error.value = asAppError(e).message; } finally { busy.value = false; progress.value = null; }
  }
  async function cancel() { await backend.catalogRefreshCancel(); }
  return { choice, chosen, skypilotUrl, azureUrl, progress, reports, error, busy, receivedKb, load, run, cancel };
}

export type Refresh = ReturnType<typeof createRefresh>;
