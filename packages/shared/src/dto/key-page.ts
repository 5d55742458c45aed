import { z } from 'zod';
import { LANGUAGE_HEADERS, type TLanguageHeader } from '../languages';
import { SHARED_DOOR_KINDS } from '../shared-doors';

/** One code of the guest's stay that the lock confirmed, with its validity (ISO times; null: no end). */
export const ZKeyPageCodeDto = z.object({ code: z.string(), validFrom: z.string(), validUntil: z.string().nullable() });

/** A door the page may open: the stay's room (`room`), or a shared door serving it (`door-<lock id>`, its kind). */
export const ZKeyPageDoorDto = z.object({
  door: z.string(),
  kind: z.enum(['room', ...SHARED_DOOR_KINDS]),
  name: z.string(),
  canOpen: z.boolean(),
});

/** What the guest's key page shows: this stay and its hotel, nothing else. */
export const ZKeyPageViewOutput = z.object({
  language: z.enum(LANGUAGE_HEADERS as [TLanguageHeader, ...TLanguageHeader[]]),
  timeZone: z.string(),
  hotel: z.object({ name: z.string(), address: z.string(), phone: z.string(), mapUrl: z.string().nullable() }),
  room: z.object({ name: z.string(), notice: z.string() }),
  arrival: z.string(),
  departure: z.string(),
  /** `upcoming`: not begun yet (the door does not open); `in_house`: the guest's stay now. */
  state: z.enum(['upcoming', 'in_house']),
  codes: z.array(ZKeyPageCodeDto),
  doors: z.array(ZKeyPageDoorDto),
});
export type TKeyPageViewOutput = z.infer<typeof ZKeyPageViewOutput>;

export const ZKeyPageOpenOutput = z.object({ opened: z.literal(true) });

/** The console's view of a stay's key link. */
export const ZKeyLinkDto = z.object({
  stayId: z.number(),
  /** The absolute link (PUBLIC_URL), or null when PUBLIC_URL is not set: the console then builds it from its own address. */
  url: z.string().nullable(),
  path: z.string(),
  createdAt: z.string(),
  /** When the link stops opening the page: the stay's expected check-out (a renewal moves it). */
  expiresAt: z.string(),
  /** False once the stay has ended (checked out, expired, moved on without a current stay). */
  valid: z.boolean(),
});
export type TKeyLinkDto = z.infer<typeof ZKeyLinkDto>;
export const ZKeyPageGetOutput = z.object({ link: ZKeyLinkDto.nullable() });
export const ZKeyPageRegenerateOutput = z.object({ link: ZKeyLinkDto });
export const ZKeyPageRevokeOutput = z.object({ revoked: z.boolean() });
