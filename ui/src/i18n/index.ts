import { createI18n } from "vue-i18n";
import en from "./en";
import zhCN from "./zh-CN";
import type { Lang } from "../backend/types";

export type Messages = typeof en;
export const messages = { en, "zh-CN": zhCN };

export function makeI18n(lang: Lang = "zh") {
  return createI18n({
    legacy: false,
    locale: toLocale(lang),
    fallbackLocale: "en",
    messages,
    missingWarn: false,
    fallbackWarn: false,
  });
}

export const toLocale = (lang: Lang) => (lang === "zh" ? "zh-CN" : "en");
export const toLang = (locale: string): Lang => (locale.startsWith("zh") ? "zh" : "en");
