import { describe, expect, it } from 'vitest';
import { guestQueries } from './api';
import { guestsSearchSchema } from './guests-search';

/** The query key the guests route's loader and page ask for, with a URL's search read as the route reads it. */
function keyOf(raw: unknown): string {
  const result = guestsSearchSchema['~standard'].validate(raw);
  if (!('value' in result)) throw new Error('not a search');
  return JSON.stringify(guestQueries.list(result.value).queryKey);
}

describe("the guest list's query, read from the URL", () => {
  it("asks for the URL's page, search and guests of current stays only", () => {
    const key = keyOf({ page: 3, pageSize: 50, search: 'ann', show: 'current' });
    for (const part of ['"page":3', '"pageSize":50', '"search":"ann"', '"currentOnly":true']) expect(key).toContain(part);
  });

  it('sends no empty search, and every guest by default', () => {
    const key = keyOf({});
    expect(key).not.toContain('"search"');
    expect(key).toContain('"currentOnly":false');
  });
});
