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
});
