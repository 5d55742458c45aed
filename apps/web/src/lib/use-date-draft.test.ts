import { describe, expect, it } from 'vitest';
import { periodErrorOf } from './use-date-draft';

describe('periodErrorOf', () => {
  it('takes an open or ordered period of whole days', () => {
    expect(periodErrorOf('', '')).toBeNull();
    expect(periodErrorOf('2026-11-01', '')).toBeNull();
    expect(periodErrorOf('', '2026-11-01')).toBeNull();
    expect(periodErrorOf('2026-11-01', '2026-11-01')).toBeNull();
    expect(periodErrorOf('2026-11-01', '2026-11-02')).toBeNull();
  });

  it('refuses a text that is not a day before an end before its start', () => {
    expect(periodErrorOf('2026-11-0', '2026-11-02')).toBe('validation.dateInvalid');
    expect(periodErrorOf('2026-11-03', 'soon')).toBe('validation.dateInvalid');
    expect(periodErrorOf('2026-11-03', '2026-11-02')).toBe('validation.endAfterStart');
  });
});
