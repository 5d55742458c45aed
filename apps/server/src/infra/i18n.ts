import fs from 'node:fs';
import path from 'node:path';
import i18next, { type TFunction } from 'i18next';
import { LANGUAGE_HEADERS, SOURCE_LANGUAGE, resolveLanguageHeader, type TLanguageHeader } from '@console/shared';
import { LOCALES_DIR } from '../db/paths';

/**
 * Server-side translation from the same `locales/` files the web console uses: error messages
 * (errmsg and tRPC errors), SMS texts. Keyed by the request's language header code.
 */
export interface Translator {
  t(lang: TLanguageHeader, key: string, params?: Record<string, unknown>): string;
  has(key: string): boolean;
}

export function loadLocales(dir = LOCALES_DIR): Record<string, Record<string, unknown>> {
  const resources: Record<string, Record<string, unknown>> = {};
  for (const lang of LANGUAGE_HEADERS) {
    const file = path.join(dir, `${lang}.json`);
    resources[lang] = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  }
  return resources;
}

export function createTranslator(resources = loadLocales()): Translator {
  const instance = i18next.createInstance();
  void instance.init({
    resources: Object.fromEntries(Object.entries(resources).map(([lng, data]) => [lng, { translation: data }])),
    lng: SOURCE_LANGUAGE,
    fallbackLng: SOURCE_LANGUAGE,
    supportedLngs: LANGUAGE_HEADERS,
    load: 'currentOnly',
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  const fixed = new Map<string, TFunction>(LANGUAGE_HEADERS.map((l) => [l, instance.getFixedT(l)]));
  return {
    t(lang, key, params) {
      const t = fixed.get(lang) ?? fixed.get(SOURCE_LANGUAGE)!;
      return t(key, params ?? {}) as string;
    },
    has(key) {
      return instance.exists(key, { lng: SOURCE_LANGUAGE });
    },
  };
}

/** The language of a request: the `language` header (spec §9), then Accept-Language, then `fallback` (zh-CN, the source language, unless the face says otherwise). */
export function requestLanguage(
  headers: Record<string, string | string[] | undefined>,
  bodyLanguage?: unknown,
  fallback: TLanguageHeader = SOURCE_LANGUAGE,
): TLanguageHeader {
  const pick = (v: unknown) => (typeof v === 'string' ? resolveLanguageHeader(v) : Array.isArray(v) ? resolveLanguageHeader(v[0]) : undefined);
  return pick(headers.language) ?? pick(bodyLanguage) ?? pick(headers['accept-language']) ?? fallback;
}
