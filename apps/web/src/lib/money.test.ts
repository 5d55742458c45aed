// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { formatMoney } from './money';

describe('formatMoney', () => {
  afterEach(() => {
    document.documentElement.dir = 'ltr';
  });

  it('isolates the currency symbol in a right-to-left page, so "CN¥" is not reordered to "¥CN"', () => {
    const leftToRight = formatMoney(25900, 'CNY');
    document.documentElement.dir = 'rtl';
    const text = formatMoney(25900, 'CNY');
    expect(text).toMatch(/\u2066CN¥\u2069/);
    // Nothing else changed: the same amount and symbol.
    expect(text.replace(/[\u2066\u2069]/g, '')).toBe(leftToRight);
  });

  it('writes no isolates left to right, and the narrow symbol when asked', () => {
    expect(formatMoney(25900, 'CNY')).not.toMatch(/[\u2066\u2069]/);
    expect(formatMoney(25900, 'CNY', { narrow: true })).toMatch(/^¥/);
    expect(formatMoney(null, 'CNY')).toBe('—');
  });
});
