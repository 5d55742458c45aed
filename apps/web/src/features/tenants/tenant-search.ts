import { z } from 'zod';
import { LIMITS, LOCAL_DATE_REGEX, STAY_FILTERS } from '@console/shared';

// The route (routes/_auth/room/tenant.tsx) validates the URL with these before the page's chunk
// is loaded: they live apart from the page so that the page stays out of the first download.

/** A calendar date of the hotel (`YYYY-MM-DD`) kept in the URL; anything else is dropped. */
const urlDate = z
  .string()
  .regex(LOCAL_DATE_REGEX)
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)))
  .optional()
  .catch(undefined);

/** The list's filters live in the URL, so a reload or a shared link shows the same page. */
export const tenantSearchSchema = z.object({
  page: z.number().int().min(1).catch(1).default(1),
  pageSize: z.number().int().min(1).max(LIMITS.pageSizeMax).catch(LIMITS.pageSizeDefault).default(LIMITS.pageSizeDefault),
  state: z.enum(STAY_FILTERS).catch('all').default('all'),
  from: urlDate,
  to: urlDate,
  roomId: z.number().int().positive().optional().catch(undefined),
  // A search of digits (a mobile, an ID number) comes back from the URL as a number: it is still text.
  guest: z.coerce.string().max(LIMITS.searchMaxLength).catch('').default(''),
});

/** Values equal to these are left out of the URL. */
export const tenantSearchDefaults = { page: 1, pageSize: LIMITS.pageSizeDefault, state: 'all', guest: '' } as const;
