import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LIMITS, LOCAL_DATE_REGEX, STAY_FILTERS } from '@console/shared';
import { searchInputs } from '../../lib/url-search-inputs.test-support';
import { breakfastSearchSchema } from './breakfast-search';
import { guestDetailSearchSchema } from './guest-detail-search';
import { stayListSearchSchema } from './stay-list-search';

// The schemas as they were written with zod, before lib/url-search.ts replaced it there: the URL
// must be read exactly as before.
const urlDate = z
  .string()
  .regex(LOCAL_DATE_REGEX)
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)))
  .optional()
  .catch(undefined);
const stayListBefore = z.object({
  page: z.number().int().min(1).catch(1).default(1),
  pageSize: z.number().int().min(1).max(LIMITS.pageSizeMax).catch(LIMITS.pageSizeDefault).default(LIMITS.pageSizeDefault),
  state: z.enum(STAY_FILTERS).catch('all').default('all'),
  from: urlDate,
  to: urlDate,
  roomId: z.number().int().positive().optional().catch(undefined),
  guest: z.coerce.string().max(LIMITS.searchMaxLength).catch('').default(''),
});
const breakfastBefore = z.object({ date: urlDate });
const guestDetailBefore = z.object({
  id: z.number().int().positive().catch(0),
  other_information: z
    .preprocess((v) => (v === undefined || v === null || v === '' ? undefined : typeof v === 'string' ? v : JSON.stringify(v)), z.string().max(1000).optional())
    .catch(undefined),
});

describe('URL search schemas of the guest pages (without zod)', () => {
  it('read the stay list URL as the zod schema did', () => {
    const dates = ['2026-01-31', '2024-02-29'];
    const inputs = searchInputs({ page: [1, 2], pageSize: [20, 100], state: STAY_FILTERS, from: dates, to: dates, roomId: [1, 5], guest: ['wang', 139] });
    for (const input of inputs)
      expect(stayListSearchSchema['~standard'].validate(input), JSON.stringify(input)).toStrictEqual(stayListBefore['~standard'].validate(input));
  });

  it('read the breakfast URL as the zod schema did', () => {
    for (const input of searchInputs({ date: ['2026-01-31', '2024-02-29'] })) {
      expect(breakfastSearchSchema['~standard'].validate(input), JSON.stringify(input)).toStrictEqual(breakfastBefore['~standard'].validate(input));
    }
  });

  it('read the guest detail URL as the zod schema did', () => {
    for (const input of searchInputs({ id: [1, 77], other_information: ['note', 12, { a: [1] }] })) {
      expect(guestDetailSearchSchema['~standard'].validate(input), JSON.stringify(input)).toStrictEqual(guestDetailBefore['~standard'].validate(input));
    }
  });
});
