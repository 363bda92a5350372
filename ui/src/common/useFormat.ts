import { computed } from "vue";
import { useI18n } from "vue-i18n";
import { toLang } from "../i18n";
import { formatAxis, formatMoney, formatNumber, formatPercent, formatPrice } from "../format";
import type { Bilingual } from "../backend/types";

/** Formatting bound to the current UI language. */
export function useFormat() {
  const { locale } = useI18n();
  const lang = computed(() => toLang(locale.value));
  return {
    lang,
    money: (x: number | null | undefined, cur: string) => formatMoney(x, cur, lang.value),
    price: (x: number | null | undefined, cur: string) => formatPrice(x, cur, lang.value),
    axis: (x: number) => formatAxis(x, lang.value),
    pct: formatPercent,
    num: formatNumber,
    /** A text the backend gives in both languages, in the UI's. */
    label: (text: Bilingual) => text[lang.value],
  };
}
