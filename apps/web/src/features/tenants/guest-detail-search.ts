import { z } from 'zod';

// The route (routes/_auth/room/thetouristsDetails.tsx) validates the URL with this before the
// page's chunk is loaded: it lives apart from the page so that the page stays out of the first download.

const NOTE_MAX_LENGTH = 1000;

/**
 * `?id=<manage_id>&other_information=...` (spec §2, reached from card reading). `id` is a guest id:
 * anything that is not one becomes 0 and the page shows "not found". `other_information` is a free
 * note; a value the URL parser turned into a number or an object is shown as its text.
 */
export const guestDetailSearchSchema = z.object({
  id: z.number().int().positive().catch(0),
  other_information: z
    .preprocess((v) => (v === undefined || v === null || v === '' ? undefined : typeof v === 'string' ? v : JSON.stringify(v)), z.string().max(NOTE_MAX_LENGTH).optional())
    .catch(undefined),
});
