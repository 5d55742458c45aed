import { LANGUAGES, LANGUAGE_STORAGE_KEY, languageByCode, resolveLanguageHeader, type TLanguage } from '@console/shared';

/**
 * The interface language (spec §1, §9): its code is kept in localStorage under `language`;
 * without one, the browser's language decides (Simplified Chinese when none of the 12 match).
 */
export function currentLanguage(): TLanguage {
  const stored = languageByCode(safeStorage()?.getItem(LANGUAGE_STORAGE_KEY));
  if (stored) return stored;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const header = resolveLanguageHeader(tag);
    const match = LANGUAGES.find((l) => l.header === header);
    if (match) return match;
  }
  return LANGUAGES[0];
}

/** Keeps the choice and reloads the page, as the spec asks. */
export function changeLanguage(code: TLanguage['code']): void {
  safeStorage()?.setItem(LANGUAGE_STORAGE_KEY, code);
  window.location.reload();
}

function safeStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}
