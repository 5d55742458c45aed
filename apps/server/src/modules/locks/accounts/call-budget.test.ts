import { describe, expect, it } from 'vitest';
import { budgetState, nextQuotaMonth } from '../../lock-cloud/call-budget';

describe("the lock cloud's calendar and the call budget", () => {
  it("turns the month over on the first, Beijing time (TTLock's quota)", () => {
    // 31 October 16:30 UTC is already 1 November 00:30 in Beijing: the next month starts 30 November 16:00 UTC.
    expect(nextQuotaMonth(Date.UTC(2026, 9, 31, 16, 30))).toEqual(new Date(Date.UTC(2026, 10, 30, 16, 0)));
    expect(nextQuotaMonth(Date.UTC(2026, 9, 31, 15, 59))).toEqual(new Date(Date.UTC(2026, 9, 31, 16, 0)));
    expect(nextQuotaMonth(Date.UTC(2026, 11, 31, 20, 0))).toEqual(new Date(Date.UTC(2027, 0, 31, 16, 0)));
  });

  it('warns from 80 % of the budget and is over at it', () => {
    expect(budgetState(0, 1000)).toBe('ok');
    expect(budgetState(799, 1000)).toBe('ok');
    expect(budgetState(800, 1000)).toBe('warning');
    expect(budgetState(1000, 1000)).toBe('over');
  });
});
