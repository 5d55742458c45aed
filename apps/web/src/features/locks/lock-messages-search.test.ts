import { describe, expect, it } from 'vitest';
import { LIMITS } from '@console/shared';
import { lockMessagesSearchSchema } from './lock-messages-search';

const read = (input: unknown) => lockMessagesSearchSchema['~standard'].validate(input);

describe('the lock messages URL', () => {
  it('reads an empty URL as the first page of all messages of every room', () => {
    expect(read({})).toStrictEqual({ value: { page: 1, pageSize: LIMITS.pageSizeDefault, show: 'all' } });
  });

  it('keeps the page, page size, unread filter and room it holds', () => {
    expect(read({ page: 3, pageSize: 50, show: 'unread', roomId: 12 })).toStrictEqual({ value: { page: 3, pageSize: 50, show: 'unread', roomId: 12 } });
  });

  it('replaces what it cannot take, and drops keys it does not know', () => {
    expect(read({ page: 0, pageSize: LIMITS.pageSizeMax + 1, show: 'read', roomId: 'abc', other: 1 })).toStrictEqual({
      value: { page: 1, pageSize: LIMITS.pageSizeDefault, show: 'all', roomId: undefined },
    });
    expect(read({ page: 1.5, roomId: -1 })).toStrictEqual({ value: { page: 1, pageSize: LIMITS.pageSizeDefault, show: 'all', roomId: undefined } });
  });
});
