import { int, optional, searchSchema, withFallback } from '../../lib/url-search';

// The route (routes/_auth/room/thetouristsDetails.tsx) validates the URL with this before the
// page's chunk is loaded: it lives apart from the page so that the page stays out of the first
// download, and is written without zod (lib/url-search.ts) for the same reason.

const NOTE_MAX_LENGTH = 1000;

/** A note from the URL as text: absent or empty is none; a number or an object the URL parser made is its JSON; too long is none. */
function noteText(value: unknown): string | undefined {
  const text = value === undefined || value === null || value === '' ? undefined : typeof value === 'string' ? value : JSON.stringify(value);
  return text === undefined || text.length <= NOTE_MAX_LENGTH ? text : undefined;
}

/**
 * `?id=<manage_id>&other_information=...` (spec §2, reached from card reading). `id` is a guest id:
 * anything that is not one becomes 0 and the page shows "not found". `other_information` is a free
 * note; a value the URL parser turned into a number or an object is shown as its text.
 */
export const guestDetailSearchSchema = searchSchema({
  id: withFallback(int({ min: 1 }), 0),
  other_information: optional<string | undefined, unknown>(noteText),
});
