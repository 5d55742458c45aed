import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { TLanguage } from '@console/shared';
import { currentLanguage } from './language';

/**
 * Every locale is its own chunk; only the chosen one is downloaded. The folder also holds the
 * package.json and tsconfig.json of the locale tests: they are left out of the bundle.
 */
const locales = import.meta.glob<{ default: Record<string, unknown> }>([
  '../../../../locales/*.json',
  '!../../../../locales/package.json',
  '!../../../../locales/tsconfig.json',
]);

export async function loadLocale(header: string): Promise<Record<string, unknown>> {
  const loader = locales[`../../../../locales/${header}.json`];
  if (!loader) throw new Error(`no locale file for ${header}`);
  return (await loader()).default;
}

/** Loads the chosen language, then sets `lang` and `dir` on <html> (Arabic lays out right to left). */
export async function initI18n(): Promise<TLanguage> {
  const language = currentLanguage();
  const resources = await loadLocale(language.header);
  await i18next.use(initReactI18next).init({
    resources: { [language.header]: { translation: resources } },
    lng: language.header,
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  document.documentElement.lang = language.header;
  document.documentElement.dir = language.dir;
  return language;
}

export { i18next };
