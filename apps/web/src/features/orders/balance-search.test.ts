import { describe, expect, it } from 'vitest';
import { balanceSearchSchema } from './balance-search';

const read = (raw: unknown) => {
  const result = balanceSearchSchema['~standard'].validate(raw);
  if (!('value' in result)) throw new Error('not read');
  return result.value;
};

describe("the Balance page's URL", () => {
  it('reads the tab, the page and the filters it knows, and drops the rest', () => {
    expect(read({ tab: 'cash', page: 3, stay: 12, kind: 'refund', method: 'cash', from: '2026-11-01', to: '2026-11-30', x: 1 })).toEqual({
      tab: 'cash',
      page: 3,
      stay: 12,
      kind: 'refund',
      method: 'cash',
      from: '2026-11-01',
      to: '2026-11-30',
    });
  });

  it('falls back on what it cannot take: another tab, a page below 1, an unknown kind or way of paying, a date that is not one', () => {
    expect(read({ tab: 'other', page: 0, stay: -1, kind: 'gift', method: 'bitcoin', from: 'yesterday' })).toEqual({ tab: 'orders', page: 1 });
  });
});
