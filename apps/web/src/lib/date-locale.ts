import type { Locale } from 'date-fns';
import type { TLanguageHeader } from '@console/shared';

/** date-fns locales of the 12 languages (month and day names, first day of the week), each loaded when needed. */
const LOADERS: Record<TLanguageHeader, () => Promise<Locale>> = {
  'zh-CN': () => import('date-fns/locale/zh-CN').then((m) => m.zhCN),
  'zh-TW': () => import('date-fns/locale/zh-TW').then((m) => m.zhTW),
  en: () => import('date-fns/locale/en-US').then((m) => m.enUS),
  ko: () => import('date-fns/locale/ko').then((m) => m.ko),
  de: () => import('date-fns/locale/de').then((m) => m.de),
  'ru-RU': () => import('date-fns/locale/ru').then((m) => m.ru),
  es: () => import('date-fns/locale/es').then((m) => m.es),
  ar: () => import('date-fns/locale/ar').then((m) => m.ar),
  pt: () => import('date-fns/locale/pt').then((m) => m.pt),
  ja: () => import('date-fns/locale/ja').then((m) => m.ja),
  fr: () => import('date-fns/locale/fr').then((m) => m.fr),
  it: () => import('date-fns/locale/it').then((m) => m.it),
};

const cache = new Map<string, Promise<Locale>>();

export function loadDateLocale(header: TLanguageHeader): Promise<Locale> {
  let locale = cache.get(header);
  if (!locale) {
    locale = LOADERS[header]();
    cache.set(header, locale);
  }
  return locale;
}
