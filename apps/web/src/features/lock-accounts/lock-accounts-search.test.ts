import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LIMITS, LOCK_LIST_FILTERS as SHARED_FILTERS, ZHotelLockListInput } from '@console/shared';
import { searchInputs } from '../../lib/url-search-inputs.test-support';
import { LOCK_LIST_FILTERS, lockAccountsSearchSchema } from './lock-accounts-search';

const read = (input: unknown) => lockAccountsSearchSchema['~standard'].validate(input);

// What the schema means, written with zod as the routes' schemas were before lib/url-search.ts.
const asZod = z.object({
  page: z.number().int().min(1).catch(1).default(1),
  pageSize: z.number().int().min(1).max(LIMITS.pageSizeMax).catch(LIMITS.pageSizeDefault).default(LIMITS.pageSizeDefault),
  filter: z.enum(SHARED_FILTERS).catch('all').default('all'),
  search: z.coerce.string().max(LIMITS.searchMaxLength).catch('').default(''),
  account: z.number().int().min(1).max(LIMITS.idMax).optional().catch(undefined),
});

describe('the lock accounts page URL', () => {
  it('has the filters of packages/shared', () => {
    expect(LOCK_LIST_FILTERS).toEqual(SHARED_FILTERS);
  });

  it('reads an empty URL as the first page of all the hotel’s locks', () => {
    expect(read({})).toStrictEqual({ value: { page: 1, pageSize: LIMITS.pageSizeDefault, filter: 'all', search: '' } });
  });

  it('keeps the filter, search, account and page it holds, as lock.list takes them', () => {
    const search = { page: 3, pageSize: 50, filter: 'unpaired', search: 'Room 1', account: 4 };
    expect(read(search)).toStrictEqual({ value: search });
    const { account, ...rest } = search;
    expect(ZHotelLockListInput.safeParse({ ...rest, accountId: account }).success).toBe(true);
  });

  it('keeps a search of digits (a lock id) as text, with the characters of a LIKE pattern as they are', () => {
    expect(read({ search: 1234567 })).toStrictEqual({ value: { page: 1, pageSize: LIMITS.pageSizeDefault, filter: 'all', search: '1234567' } });
    expect(read({ search: '10%_' })).toStrictEqual({ value: { page: 1, pageSize: LIMITS.pageSizeDefault, filter: 'all', search: '10%_' } });
  });

  it('replaces what it cannot take, and drops keys it does not know', () => {
    expect(
      read({ page: 0, pageSize: LIMITS.pageSizeMax + 1, filter: 'broken', search: 'x'.repeat(LIMITS.searchMaxLength + 1), account: 0, other: 1 }),
    ).toStrictEqual({
      value: { page: 1, pageSize: LIMITS.pageSizeDefault, filter: 'all', search: '', account: undefined },
    });
  });

  it('reads every URL as the zod schema would', () => {
    const inputs = searchInputs({ page: [1, 4], pageSize: [10, 50], filter: LOCK_LIST_FILTERS, search: ['101', 4711, 'Room'], account: [1, 12] });
    for (const input of inputs) expect(read(input), JSON.stringify(input)).toStrictEqual(asZod['~standard'].validate(input));
  });
});
