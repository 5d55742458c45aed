import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { COOKIES, type TLanguage } from '@console/shared';
import { readCookie, writeCookie } from './cookies';
import { currentLanguage } from './language';

/**
 * Every language is its own pair of chunks (src/lib/text-parts.ts): the first part before the
 * first paint, the later part after it. Only the chosen language is downloaded. The folder also
 * holds the package.json and tsconfig.json of the locale tests: they are left out of the bundle.
 */
type Texts = Record<string, unknown>;
const firstParts = import.meta.glob<{ default: Texts }>(
  ['../../../../locales/*.json', '!../../../../locales/package.json', '!../../../../locales/tsconfig.json'],
  { query: '?part=first' },
);
const laterParts = import.meta.glob<{ default: Texts }>(
  ['../../../../locales/*.json', '!../../../../locales/package.json', '!../../../../locales/tsconfig.json'],
  { query: '?part=later' },
);

function loaderOf(parts: Record<string, () => Promise<{ default: Texts }>>, header: string) {
  const loader = parts[`../../../../locales/${header}.json`];
  if (!loader) throw new Error(`no locale file for ${header}`);
  return loader;
}

let later: Promise<void> | undefined;

/**
 * Adds the later part of the chosen language's texts (once; again after a failure). Started when
 * the browser is idle after the first paint; awaited before a page that needs it is shown.
 */
export function loadLaterTexts(): Promise<void> {
  later ??= (async () => {
    const header = currentLanguage().header;
    const texts = (await loaderOf(laterParts, header)()).default;
    i18next.addResourceBundle(header, 'translation', texts, true, true);
  })().catch((error: unknown) => {
    later = undefined;
    throw error;
  });
  return later;
}

const otherTexts = new Map<string, Promise<void>>();

/**
 * Both parts of a language's texts, added once, for what is written in a language other than the
 * interface's (an invoice in the guest's language, features/invoices): read with `i18next.getFixedT`.
 */
export function loadLanguageTexts(header: string): Promise<void> {
  let loading = otherTexts.get(header);
  if (!loading) {
    loading = Promise.all([loaderOf(firstParts, header)(), loaderOf(laterParts, header)()]).then(([first, rest]) => {
      i18next.addResourceBundle(header, 'translation', first.default, true, true);
      i18next.addResourceBundle(header, 'translation', rest.default, true, true);
    });
    loading.catch(() => otherTexts.delete(header));
    otherTexts.set(header, loading);
  }
  return loading;
}

/** Loads the chosen language, then sets `lang` and `dir` on <html> (Arabic lays out right to left). */
export async function initI18n(): Promise<TLanguage> {
  const language = currentLanguage();
  const resources = (await loaderOf(firstParts, language.header)()).default;
  await i18next.use(initReactI18next).init({
    resources: { [language.header]: { translation: resources } },
    lng: language.header,
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  document.documentElement.lang = language.header;
  document.documentElement.dir = language.dir;
  // The server names this language's texts in the next page it sends (apps/server/src/http/page-preloads.ts).
  if (readCookie(COOKIES.language) !== language.header)
    writeCookie(COOKIES.language, language.header, { expires: 365, sameSite: 'strict', secure: window.location.protocol === 'https:' });
  return language;
}

export { i18next };
