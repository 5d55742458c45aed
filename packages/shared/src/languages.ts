/**
 * The 12 interface languages (spec §1, §9). `code` is what the console keeps in
 * localStorage under `language`; `header` is what every request sends in the `language`
 * header, and is also the name of the file in `locales/`.
 */
export const LANGUAGES = [
  { code: 'chs', header: 'zh-CN', nativeName: '简体中文', dir: 'ltr' },
  { code: 'chsTW', header: 'zh-TW', nativeName: '繁體中文', dir: 'ltr' },
  { code: 'en', header: 'en', nativeName: 'English', dir: 'ltr' },
  { code: 'Korean', header: 'ko', nativeName: '한국어', dir: 'ltr' },
  { code: 'German', header: 'de', nativeName: 'Deutsch', dir: 'ltr' },
  { code: 'Russian', header: 'ru-RU', nativeName: 'Русский', dir: 'ltr' },
  { code: 'Spanish', header: 'es', nativeName: 'Español', dir: 'ltr' },
  { code: 'Arabic', header: 'ar', nativeName: 'العربية', dir: 'rtl' },
  { code: 'Portuguese', header: 'pt', nativeName: 'Português', dir: 'ltr' },
  { code: 'Japanese', header: 'ja', nativeName: '日本語', dir: 'ltr' },
  { code: 'French', header: 'fr', nativeName: 'Français', dir: 'ltr' },
  { code: 'Italian', header: 'it', nativeName: 'Italiano', dir: 'ltr' },
] as const;

export type TLanguage = (typeof LANGUAGES)[number];
export type TLanguageCode = TLanguage['code'];
export type TLanguageHeader = TLanguage['header'];

/** zh-CN is the source language of `locales/`. */
export const SOURCE_LANGUAGE: TLanguageHeader = 'zh-CN';
export const LANGUAGE_HEADERS = LANGUAGES.map((l) => l.header) as TLanguageHeader[];
export const LANGUAGE_STORAGE_KEY = 'language';

export function languageByCode(code: string | null | undefined): TLanguage | undefined {
  return LANGUAGES.find((l) => l.code === code);
}

/**
 * Picks the supported header code that best matches what a client sent: an exact header
 * (`ru-RU`), a spec code (`Russian`), or a browser tag (`ru`, `zh-Hant-TW`, `pt-BR`).
 */
export function resolveLanguageHeader(value: string | null | undefined): TLanguageHeader | undefined {
  if (!value) return undefined;
  const first = value.split(',')[0]?.split(';')[0]?.trim();
  if (!first) return undefined;
  const exact = LANGUAGES.find((l) => l.header.toLowerCase() === first.toLowerCase() || l.code === first);
  if (exact) return exact.header;
  const lower = first.toLowerCase();
  if (lower.startsWith('zh')) {
    return /(tw|hk|mo|hant)/.test(lower) ? 'zh-TW' : 'zh-CN';
  }
  const base = lower.split('-')[0];
  return LANGUAGES.find((l) => l.header.split('-')[0]?.toLowerCase() === base)?.header;
}
