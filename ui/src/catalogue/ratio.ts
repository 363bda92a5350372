// How a catalogue ratio, or its absence, reads beside a price: one wording
// for the offers table and the comparison for a workload.
import { useI18n } from "vue-i18n";
import { useApp } from "../app";
import { useFormat } from "../common/useFormat";
import type { NoRatio, RatioUsed } from "../backend/types";

// The spec an estimate lacks, by its catalogue column, under the accelerators table's heading.
const SPEC_LABEL: Record<string, string> = { bf16_tflops: "catalogue.bf16", fp16_tflops: "catalogue.fp16", memory_bandwidth_gbps: "catalogue.bandwidth", memory_gb: "catalogue.memory" };

export function useRatioText() {
  const { t } = useI18n();
  const app = useApp();
  const { lang, num } = useFormat();
  const name = (id: string) => app.acceleratorName(id, lang.value) || id;
  /** "Efficiency ratio 0.68× vs A100 · Estimated: how it was made". */
  const describe = (r: RatioUsed) =>
    `${t("offers.ratio", { r: num(r.ratio, 3), ref: name(r.reference_accelerator_id) })} · ${t(`basis.${r.basis}`)}: ${lang.value === "zh" ? r.method_zh : r.method_en}`;
  function whyNone(why: NoRatio): string {
    switch (why.kind) {
      case "no_spec": {
        const field = SPEC_LABEL[why.field] ? t(SPEC_LABEL[why.field]) : why.field;
        return t(why.unpublished ? "noRatio.no_spec_unpublished" : "noRatio.no_spec", { id: name(why.accelerator_id), field });
      }
      case "unknown_accelerator":
        return t("noRatio.unknown_accelerator", { id: why.accelerator_id });
      default:
        return t(`noRatio.${why.kind}`);
    }
  }
  return { describe, whyNone };
}
