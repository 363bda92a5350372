import { computed } from "vue";
import { useI18n } from "vue-i18n";
import { toLang } from "../i18n";
import { formatAxis, formatMoney, formatNumber, formatPercent, formatPrice, pickLang } from "../format";

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
    label: (text: string | null | undefined) => pickLang(String(text ?? ""), lang.value),
  };
}
