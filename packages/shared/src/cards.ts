import { z } from 'zod';
import { blankToUndefined } from './validation';
import { SEAM_ID_PATTERN, ZId, ZInstant, ZPageInput, ZSearch, whenValid } from './primitives';

/**
 * Room cards (spec §3 Card: card_num, cardNote, number of room cards; §5 "card number is
 * required"; docs/card-format.md). Messages are i18n keys.
 */
export const CARD_RULES = {
  noteMaxLength: 100,
  nameMaxLength: 40,
  /** Room cards written for one stay at a time (spec §3 "number of room cards"). */
  cardsPerStayMax: 10,
  /** A universal card lists at most this many rooms anywhere, or any within 96 consecutive room numbers, or all (the card format). */
  listedRoomsMax: 7,
} as const;

/** The spec's card kinds: room (guest) cards, management cards and universal (master) cards. */
export const CARD_KINDS = ['room', 'management', 'universal'] as const;
export type TCardKind = (typeof CARD_KINDS)[number];

/** The life of one writing of a card (CardIssue). */
export const CARD_ISSUE_STATES = ['reserved', 'issued', 'returned', 'lost', 'ended', 'voided'] as const;
export type TCardIssueState = (typeof CARD_ISSUE_STATES)[number];

/** A card's UID as a desk reader reports it: 4 or 7 bytes in hexadecimal. */
export const ZCardUid = z
  .string({ error: 'validation.cardUidInvalid' })
  .trim()
  .regex(/^([0-9A-Fa-f]{8}|[0-9A-Fa-f]{14})$/, { error: 'validation.cardUidInvalid' })
  .transform((v) => v.toUpperCase());

/** The spec's card number ("card number is required"): the decimal value of the card's UID. */
export const ZCardNumber = z
  .string({ error: 'validation.cardNumberRequired' })
  .trim()
  .min(1, { error: 'validation.cardNumberRequired' })
  .regex(/^\d{1,20}$/, { error: 'validation.cardNumberInvalid' });

/** The card number of a UID: its bytes read as one big-endian number, in decimal. */
export function cardNumberOfUid(uid: string): string {
  return BigInt(`0x${uid}`).toString(10);
}

/** A block of the card as a reader reads or writes it: its absolute number and 32 hex characters. */
export const ZCardBlock = z.object({
  block: z.number({ error: 'validation.cardBlockInvalid' }).int().min(0).max(63),
  data: z
    .string({ error: 'validation.cardDataLength' })
    .regex(/^[0-9A-Fa-f]{32}$/, { error: 'validation.cardDataLength' })
    .transform((v) => v.toUpperCase()),
});

export const ZCardNote = z.string({ error: 'validation.textInvalid' }).trim().max(CARD_RULES.noteMaxLength, { error: 'validation.textTooLong' });

/**
 * Reserves a card's data for the card on the reader (step one of `room/addCardStepTwoNew`): a room
 * card of a stay (new: voids the room's earlier cards once used; duplicate: another card of the
 * same stay), or a management or universal card for rooms (or all) and a period.
 */
export const ZCardReserveInput = z
  .object({
    uid: ZCardUid,
    kind: z.enum(CARD_KINDS, { error: 'validation.invalid' }),
    stayId: ZId.optional(),
    mode: z.enum(['new', 'duplicate'], { error: 'validation.invalid' }).default('new'),
    roomIds: z.array(ZId).max(1000, { error: 'validation.invalid' }).optional(),
    allRooms: z.boolean().default(false),
    validFrom: ZInstant.optional(),
    validUntil: ZInstant.nullish(),
    note: ZCardNote.default(''),
    /**
     * Writes this card's issued writing again (a room card whose stay was renewed): the writing
     * replaced ends only when this one is confirmed, so a failed rewrite leaves the card as it was.
     */
    replaces: ZId.optional(),
  })
  .refine((v) => v.kind !== 'room' || v.stayId !== undefined, { error: 'validation.stayRequired', path: ['stayId'] })
  .refine((v) => v.kind === 'room' || v.allRooms || (v.roomIds?.length ?? 0) > 0, { error: 'validation.roomRequired', path: ['roomIds'] })
  .refine((v) => !v.validFrom || !v.validUntil || v.validUntil.getTime() > v.validFrom.getTime(), {
    error: 'validation.endAfterStart',
    path: ['validUntil'],
    ...whenValid('validFrom', 'validUntil'),
  });
export type TCardReserveInput = z.input<typeof ZCardReserveInput>;

/** Step two: the card as read back after writing; it counts as issued only if it is exactly what was reserved. */
export const ZCardConfirmInput = z.object({
  issueId: ZId,
  uid: ZCardUid,
  blocks: z.array(ZCardBlock).min(1, { error: 'validation.cardDataLength' }).max(4, { error: 'validation.invalid' }),
});
export type TCardConfirmInput = z.input<typeof ZCardConfirmInput>;

export const ZCardIssueIdInput = z.object({ issueId: ZId });

/**
 * A card of a hotel card system (Seam `acs`: Visionline, Salto, dormakaba) encoded at the desk on
 * one of the system's encoders (docs/seam.md "Card systems"). The encoder's id is the platform's,
 * written as Seam writes its ids.
 */
export const ZCardEncoderId = z.string().regex(SEAM_ID_PATTERN, { error: 'validation.invalid' });
export const ZCardEncodersInput = z.object({ roomId: ZId });
/** `replaces`: an issued encoded card of the stay that this one replaces (a renewed stay's card encoded again). */
export const ZCardEncodeInput = z.object({ stayId: ZId, encoderId: ZCardEncoderId, replaces: ZId.optional() });
export type TCardEncodeInput = z.input<typeof ZCardEncodeInput>;

/**
 * A card sent over the air (`room/sendCard`, `room/sendCardEncryption`): its number pushed to its
 * rooms' locks through the gateway (TTLock identityCard), for a stay or for rooms and a period.
 */
export const ZCardSendInput = z
  .object({
    cardNumber: ZCardNumber,
    kind: z.enum(CARD_KINDS, { error: 'validation.invalid' }).default('room'),
    stayId: ZId.optional(),
    roomIds: z.array(ZId).max(1000, { error: 'validation.invalid' }).optional(),
    validFrom: ZInstant.optional(),
    validUntil: ZInstant.nullish(),
    note: ZCardNote.default(''),
  })
  .refine((v) => v.stayId !== undefined || (v.roomIds?.length ?? 0) > 0, { error: 'validation.roomRequired', path: ['roomIds'] })
  .refine((v) => !v.validFrom || !v.validUntil || v.validUntil.getTime() > v.validFrom.getTime(), {
    error: 'validation.endAfterStart',
    path: ['validUntil'],
    ...whenValid('validFrom', 'validUntil'),
  });
export type TCardSendInput = z.input<typeof ZCardSendInput>;

/** Rooms chosen for a universal or management card: whether they fit on one card (docs/card-format.md "Rooms"). */
export const ZCardRoomFitInput = z.object({
  roomIds: z.array(ZId).min(1, { error: 'validation.roomRequired' }).max(1000, { error: 'validation.invalid' }),
});
export type TCardRoomFitInput = z.input<typeof ZCardRoomFitInput>;

/** A card read at the desk, by its number (spec §4: the guest it belongs to). */
export const ZCardLookupInput = z.object({ cardNumber: ZCardNumber });

export const ZCardListInput = ZPageInput.extend({
  kind: z.enum(CARD_KINDS, { error: 'validation.invalid' }).optional(),
  roomId: ZId.optional(),
  stayId: ZId.optional(),
  /** `active`: reserved or issued; `history`: the others. */
  scope: z.enum(['active', 'history', 'all'], { error: 'validation.invalid' }).default('active'),
  search: ZSearch.optional(),
});
export type TCardListInput = z.input<typeof ZCardListInput>;

/** A new key set of the hotel (the active one retires: its cards keep working until they expire). */
/** A key set's name, as typed. */
export const ZCardKeySetName = z
  .string({ error: 'validation.nameRequired' })
  .trim()
  .min(1, { error: 'validation.nameRequired' })
  .max(CARD_RULES.nameMaxLength, { error: 'validation.textTooLong' });

/** A new key set; without a name (or a blank one) the server names it "Key set n", in each reader's language. */
export const ZCardKeySetCreateInput = z.object({
  name: z.preprocess(blankToUndefined, ZCardKeySetName.optional()),
  sector: z
    .number({ error: 'validation.cardSectorInvalid' })
    .int()
    .min(1, { error: 'validation.cardSectorInvalid' })
    .max(15, { error: 'validation.cardSectorInvalid' })
    .optional(),
});
export type TCardKeySetCreateInput = z.input<typeof ZCardKeySetCreateInput>;

export const ZCardKeySetIdInput = z.object({ id: ZId });

/**
 * Push the hotel's card keys to its locks: every room's lock and every shared door; or only these
 * rooms' locks and these shared doors (either list alone: only those).
 */
export const ZCardKeySyncInput = z.object({
  roomIds: z.array(ZId).max(5000, { error: 'validation.invalid' }).optional(),
  doorLockIds: z.array(ZId).max(5000, { error: 'validation.invalid' }).optional(),
});
