import { describe, expect, it } from 'vitest';
import { periodRange, shiftPeriod } from './period';

describe('report periods', () => {
  it('a day is itself; a week runs Monday to Sunday across a month and a year; a month has its own length', () => {
    expect(periodRange('day', '2026-11-24')).toEqual({ from: '2026-11-24', to: '2026-11-24' });
    expect(periodRange('week', '2026-11-24')).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(periodRange('week', '2026-11-29')).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(periodRange('week', '2026-11-30')).toEqual({ from: '2026-11-30', to: '2026-12-06' });
    expect(periodRange('week', '2027-01-01')).toEqual({ from: '2026-12-28', to: '2027-01-03' });
    expect(periodRange('month', '2028-02-10')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(periodRange('month', '2026-02-10')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(periodRange('month', '2026-12-31')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
  });

  it('steps a period back and forth, keeping the day of the month where it exists', () => {
    expect(shiftPeriod('day', '2026-12-31', 1)).toBe('2027-01-01');
    expect(shiftPeriod('week', '2026-11-24', -1)).toBe('2026-11-17');
    expect(shiftPeriod('month', '2026-03-31', -1)).toBe('2026-02-28');
    expect(shiftPeriod('month', '2026-01-15', -1)).toBe('2025-12-15');
    expect(shiftPeriod('month', '2026-12-15', 1)).toBe('2027-01-15');
  });
});
