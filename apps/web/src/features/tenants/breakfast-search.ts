import { z } from 'zod';
import { LOCAL_DATE_REGEX } from '@console/shared';

// The route (routes/_auth/room/breakfast.tsx) validates the URL with this before the page's chunk
// is loaded: it lives apart from the page so that the page stays out of the first download.

/** `?date=YYYY-MM-DD` (a hotel date); without one, today in the hotel's zone. */
export const breakfastSearchSchema = z.object({
  date: z
    .string()
    .regex(LOCAL_DATE_REGEX)
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)))
    .optional()
    .catch(undefined),
});
