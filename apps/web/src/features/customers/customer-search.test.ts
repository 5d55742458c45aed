import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CUSTOMER_SORTS, CUSTOMER_STATES, LIMITS } from '@console/shared';
import { searchInputs } from '../../lib/url-search-inputs.test-support';
import { customerSearchSchema } from './customer-search';

// The schema as it was written with zod, before lib/url-search.ts replaced it there: the URL must be
// read exactly as before.
const before = z.object({
  page: z.number().int().min(1).catch(1).default(1),
  pageSize: z.number().int().min(1).max(LIMITS.pageSizeMax).catch(LIMITS.pageSizeDefault).default(LIMITS.pageSizeDefault),
  search: z.coerce.string().max(LIMITS.searchMaxLength).catch('').default(''),
  state: z.enum(CUSTOMER_STATES).catch('all').default('all'),
  sort: z.enum(CUSTOMER_SORTS).catch('newest').default('newest'),
  id: z.number().int().positive().optional().catch(undefined),
});

describe('URL search schema of the customer list (without zod)', () => {
  it('reads the URL as the zod schema did', () => {
    const inputs = searchInputs({ page: [1, 4], pageSize: [10, 50], search: ['ann', 138], state: CUSTOMER_STATES, sort: CUSTOMER_SORTS, id: [1, 12] });
    for (const input of inputs)
      expect(customerSearchSchema['~standard'].validate(input), JSON.stringify(input)).toStrictEqual(before['~standard'].validate(input));
  });
});
