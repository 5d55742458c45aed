import { describe, expect, it } from 'vitest';
import * as shared from '@console/shared';
import * as copies from './shared-constants';

describe('constants copied from packages/shared for the first download', () => {
  it('are the same as in packages/shared', () => {
    expect(copies.CUSTOMER_STATES).toEqual(shared.CUSTOMER_STATES);
    expect(copies.CUSTOMER_SORTS).toEqual(shared.CUSTOMER_SORTS);
    expect(copies.ROOM_STATUSES).toEqual(shared.ROOM_STATUSES);
    expect(copies.ROOM_SORTS).toEqual(shared.ROOM_SORTS);
    expect(copies.ROOM_PAGE_SIZE_DEFAULT).toBe(shared.ROOM_PAGE_SIZE_DEFAULT);
    expect(copies.STAY_FILTERS).toEqual(shared.STAY_FILTERS);
    expect(copies.LOCAL_DATE_REGEX.source).toBe(shared.LOCAL_DATE_REGEX.source);
    expect(copies.LOCAL_DATE_REGEX.flags).toBe(shared.LOCAL_DATE_REGEX.flags);
  });

  it('wait for their lock account or the call limit on exactly the refusals LOCK_ERROR_KIND says so of', () => {
    const waiting = shared.LOCK_ERROR_CODES.filter((code) => shared.LOCK_ERROR_KIND[code] === 'account' || shared.LOCK_ERROR_KIND[code] === 'limit');
    expect([...copies.WAITING_LOCK_ERRORS].sort()).toEqual([...waiting].sort());
  });
});
