import { describe, expect, it } from 'vitest';
import { LIMITS } from '@console/shared';
import { shiftsSearchSchema } from './shifts-search';

const read = (raw: unknown) => {
  const result = shiftsSearchSchema['~standard'].validate(raw);
  if (!('value' in result)) throw new Error('not read');
  return result.value;
};

describe("the shifts page's URL", () => {
  it('reads the page, its size and the days, and drops the rest', () => {
    expect(read({ page: 2, pageSize: 50, from: '2026-11-01', to: '2026-11-30', x: 1 })).toEqual({
      page: 2,
      pageSize: 50,
      from: '2026-11-01',
      to: '2026-11-30',
    });
  });

  it('falls back on what it cannot take: a page below 1, a size too large, a date that is not one', () => {
    expect(read({ page: 0, pageSize: LIMITS.pageSizeMax + 1, from: 'yesterday' })).toEqual({ page: 1, pageSize: LIMITS.pageSizeDefault });
  });
});
