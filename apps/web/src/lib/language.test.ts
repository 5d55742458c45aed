// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentLanguage } from './language';

describe('interface language', () => {
  afterEach(() => {
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('is the code kept in localStorage under "language"', () => {
    localStorage.setItem('language', 'Arabic');
    expect(currentLanguage()).toMatchObject({ code: 'Arabic', header: 'ar', dir: 'rtl' });
    localStorage.setItem('language', 'chsTW');
    expect(currentLanguage().header).toBe('zh-TW');
  });

  it('otherwise follows the browser, and is Simplified Chinese when none of the 12 match', () => {
    vi.stubGlobal('navigator', { languages: ['de-AT', 'en'], language: 'de-AT' });
    expect(currentLanguage().code).toBe('German');
    vi.stubGlobal('navigator', { languages: ['sw', 'tr'], language: 'sw' });
    expect(currentLanguage().code).toBe('chs');
  });
});
