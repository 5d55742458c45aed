import { z } from 'zod';
import { ZId } from './primitives';

/**
 * The guest's key page (issue 20 §4, docs/key-page.md): a link per visit whose token is the secret,
 * 256 random bits written as 43 base64url characters.
 */
export const KEY_LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** The page's path on the console's address: `/k/<token>`. */
export const keyPagePath = (token: string) => `/k/${token}`;

/** How often a link may open its door: per minute and per day (a guest at the door tries a few times). */
export const KEY_PAGE_OPEN_LIMITS = { perMinute: 5, perDay: 30 } as const;
/**
 * How often one client address may use links, any link, known or not: viewing and opening, by the
 * page and by tRPC, counted together (a guesser learns nothing either way, but pays for it).
 */
export const KEY_PAGE_ADDRESS_LIMITS = { perMinute: 60 } as const;

/**
 * What a link is given as. Any text is taken (up to a bound) so that a token of the wrong shape
 * answers exactly as an unknown one does: "not found", no oracle.
 */
export const ZKeyPageTokenInput = z.object({ token: z.string().max(200, { error: 'validation.textTooLong' }) });
export type TKeyPageTokenInput = z.infer<typeof ZKeyPageTokenInput>;

/** A door the key page names: `room` (the stay's room) or `door-<lock id>` (a shared door serving the room). */
export const KEY_PAGE_DOOR = /^(room|door-[1-9][0-9]{0,9})$/;

/** "Open the door now": the stay's room door, or a shared door serving its room (docs/shared-doors.md). */
export const ZKeyPageOpenInput = ZKeyPageTokenInput.extend({ door: z.string().regex(KEY_PAGE_DOOR, { error: 'validation.invalid' }).default('room') });
export type TKeyPageOpenInput = z.input<typeof ZKeyPageOpenInput>;

/** The console's key link of a stay. */
export const ZKeyLinkStayInput = z.object({ stayId: ZId });
