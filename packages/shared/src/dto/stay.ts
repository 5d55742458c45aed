import { z } from 'zod';
import { ACCESS_CARD_OUTCOMES, ACCESS_OUTCOMES, ARRIVAL_FIXES } from '../access-rules';
import { CREDENTIAL_MOVE_OUTCOMES, PASSWORD_KINDS, UNDELIVERABLE_REASONS } from '../credentials';
import { CANCEL_REASONS, GENDERS, STAY_LENGTH_UNITS, STAY_STATES } from '../stays';
import { LOCK_ITEM_KINDS } from '../locks';
import { ZPasswordDto } from './password';
import { ZFaceAuthorizationDto } from './face';
import { ZCardIssueDto } from './card';

export const ZGuestDto = z.object({
  id: z.number(),
  name: z.string(),
  gender: z.enum(GENDERS),
  nationality: z.string(),
  birthDate: z.string().nullable(),
  idNumber: z.string().nullable(),
  mobile: z.string().nullable(),
  email: z.string().nullable(),
  isPrimary: z.boolean(),
});
export type TGuestDto = z.infer<typeof ZGuestDto>;

/** A stay's visit's bill as lists show it; `depositHeld` is what its folio holds of deposits now (the ledger's). */
export const ZStayBill = z.object({
  state: z.enum(['none', 'open', 'owing', 'settled']),
  balance: z.number(),
  owed: z.number(),
  dueBack: z.number(),
  depositHeld: z.number(),
});
export type TStayBill = z.infer<typeof ZStayBill>;

export const ZStayDto = z.object({
  id: z.number(),
  roomId: z.number(),
  roomName: z.string(),
  state: z.enum(STAY_STATES),
  checkInAt: z.string(),
  expectedCheckOutAt: z.string(),
  checkedOutAt: z.string().nullable(),
  lengthUnit: z.enum(STAY_LENGTH_UNITS),
  breakfast: z.boolean(),
  disableOldCards: z.boolean(),
  idCardUnlock: z.boolean(),
  depositAmount: z.number(),
  priceAmount: z.number(),
  remark: z.string(),
  movedFromStayId: z.number().nullable(),
  movedToStayId: z.number().nullable(),
  visitStayId: z.number(),
  guests: z.array(ZGuestDto),
  awaitsArrival: z.boolean(),
  noShowAt: z.string().nullable(),
  cancelReason: z.enum(CANCEL_REASONS).nullable(),
  cancelNote: z.string(),
  /** When the hotel's access rule issued its credentials, and what its code rule gave (ACCESS_OUTCOMES). */
  accessIssuedAt: z.string().nullable(),
  accessOutcome: z.enum(ACCESS_OUTCOMES).nullable(),
  offlineCode: z.object({ at: z.string(), reason: z.string(), leftUntil: z.string().nullable() }).nullable(),
  /** What the rule's number card gave (ACCESS_CARD_OUTCOMES): sent, or a card to issue at arrival. */
  accessCard: z.enum(ACCESS_CARD_OUTCOMES).nullable(),
  createdAt: z.string(),
});
export type TStayDto = z.infer<typeof ZStayDto>;

/** `visitCheckInAt`: when the guest's visit began (the first stay's check-in; a room change begins a new stay at the move). */
export const ZStayWithBill = z.object({ ...ZStayDto.shape, bill: ZStayBill, visitCheckInAt: z.string() });
export type TStayWithBill = z.infer<typeof ZStayWithBill>;

/** An arrival with its visit's bill (the deposit a list shows is `bill.depositHeld`). */
const ZArrivalStay = z.object({ ...ZStayDto.shape, bill: ZStayBill });

export const ZArrivalsDto = z.object({
  date: z.string(),
  timeZone: z.string(),
  expected: z.array(ZArrivalStay),
  expectedTotal: z.number(),
  arrived: z.array(ZArrivalStay),
  arrivedTotal: z.number(),
  noShows: z.array(ZArrivalStay),
  noShowsTotal: z.number(),
});
export type TArrivalsDto = z.infer<typeof ZArrivalsDto>;

export const ZRenewalDto = z.object({
  addedPrice: z.number(),
  replacedPasswords: z.number(),
  extendedCredentials: z.number(),
  rewriteCards: z.array(z.object({ issueId: z.number(), cardNumber: z.string() })),
  ...ZStayDto.shape,
});
export type TRenewalDto = z.infer<typeof ZRenewalDto>;

export const ZCredentialMoveDto = z.object({
  kind: z.enum(LOCK_ITEM_KINDS),
  fromId: z.number(),
  toId: z.number().nullable(),
  outcome: z.enum(CREDENTIAL_MOVE_OUTCOMES),
  blocked: z.enum(UNDELIVERABLE_REASONS).nullable(),
  holderName: z.string(),
  passwordKind: z.enum(PASSWORD_KINDS).nullable(),
  code: z.string().nullable(),
  cardNumber: z.string().nullable(),
  faceId: z.string().nullable(),
});
export type TCredentialMoveDto = z.infer<typeof ZCredentialMoveDto>;

export const ZRoomChangeDto = z.object({
  priceDifference: z.number(),
  credentialMoves: z.array(ZCredentialMoveDto),
  ...ZStayDto.shape,
});
export type TRoomChangeDto = z.infer<typeof ZRoomChangeDto>;

/** What a change of dates or room would do (`stay.reschedulePreview`): shown before the clerk confirms. */
export const ZReschedulePreviewDto = z.object({
  stayId: z.number(),
  /** `move`: a reservation to other dates and/or room; `extend` / `shorten`: a stay that has begun; `unchanged`: nothing to do. */
  kind: z.enum(['move', 'extend', 'shorten', 'unchanged']),
  before: z.object({ roomId: z.number(), roomName: z.string(), checkInAt: z.string(), expectedCheckOutAt: z.string(), nights: z.number(), price: z.number() }),
  after: z.object({ roomId: z.number(), roomName: z.string(), checkInAt: z.string(), expectedCheckOutAt: z.string(), nights: z.number(), price: z.number() }),
  priceDifference: z.number(),
  /** A reservation moved: its price at the booked rate (`kept`) and priced again at today's rates (`quoted`); null otherwise. */
  prices: z.object({ kept: z.number(), quoted: z.number() }).nullable(),
  /** The nights added (priced by the renewal rule) or taken off (priced as an early departure prices them). */
  changedNights: z.array(z.object({ date: z.string(), price: z.number() })),
  /** The room charge on the bill now and after (a stay that has begun); null when the bill has none to change. */
  roomCharge: z.object({ posted: z.number(), after: z.number() }).nullable(),
  /** The stay came from a channel's calendar: its dates are the channel's. */
  fromChannel: z.boolean(),
});
export type TReschedulePreviewDto = z.infer<typeof ZReschedulePreviewDto>;

export const ZRescheduleDto = z.object({
  ...ZStayDto.shape,
  kind: z.enum(['move', 'extend', 'shorten', 'unchanged']),
  priceDifference: z.number(),
  /** Codes, faces and number cards whose lock learns the new period. */
  changedCredentials: z.number(),
  /** Generated codes replaced by a new one (a generated code cannot be changed on its lock). */
  replacedPasswords: z.number(),
  /** Cards with data written on them that still carry the old period: written again at the desk. */
  rewriteCards: z.array(z.object({ issueId: z.number(), cardNumber: z.string() })),
  /** The room changed: what happened to each credential (as a room change says). */
  credentialMoves: z.array(ZCredentialMoveDto),
});
export type TRescheduleDto = z.infer<typeof ZRescheduleDto>;

export const ZBreakfastRow = z.object({
  stayId: z.number(),
  roomId: z.number(),
  roomName: z.string(),
  guestNames: z.array(z.string()),
  guests: z.number(),
  servedAt: z.string().nullable(),
  servedGuests: z.number().nullable(),
});
export type TBreakfastRow = z.infer<typeof ZBreakfastRow>;

export const ZStayKeysDto = z.object({
  stayId: z.number(),
  roomId: z.number(),
  roomName: z.string(),
  expectedCheckOutAt: z.string(),
  lock: z.object({ name: z.string(), gone: z.boolean() }).nullable(),
  passwords: z.array(ZPasswordDto),
  faces: z.array(ZFaceAuthorizationDto),
  cards: z.array(ZCardIssueDto),
  movedFrom: z
    .object({
      stayId: z.number(),
      roomId: z.number(),
      roomName: z.string(),
      passwords: z.array(ZPasswordDto),
      faces: z.array(ZFaceAuthorizationDto),
      cards: z.array(ZCardIssueDto),
    })
    .nullable(),
});
export type TStayKeysDto = z.infer<typeof ZStayKeysDto>;

export const ZStayListOutput = z.object({ items: z.array(ZStayWithBill), total: z.number(), page: z.number(), pageSize: z.number() });
export const ZStayGetOutput = ZStayWithBill;
export const ZStayCheckInOutput = ZStayDto;
export const ZStayArriveOutput = ZStayDto;
export const ZStayReserveOutput = ZStayDto;
export const ZStayArrivalsOutput = ZArrivalsDto;
export const ZStayCancelReservationOutput = z.object({
  ...ZStayDto.shape,
  revokedCredentials: z.number(),
});
export const ZStayCheckOutOutput = z.object({
  ...ZStayDto.shape,
  revokedCredentials: z.number(),
});
export const ZStayRenewOutput = ZRenewalDto;
export const ZStayChangeRoomOutput = ZRoomChangeDto;
export const ZStayReschedulePreviewOutput = ZReschedulePreviewDto;
export const ZStayRescheduleOutput = ZRescheduleDto;
export const ZStayAddGuestOutput = ZStayDto;
/** "Fix now" of an arrival without a working key: what it did, and the stay after it. */
export const ZStayFixAccessOutput = z.object({ fix: z.enum(ARRIVAL_FIXES), stay: ZStayDto });
export const ZStayRemoveGuestOutput = ZStayDto;
export const ZStayGuestOutput = z.object({ guest: ZGuestDto, stay: ZStayWithBill });
export const ZStayGuestsOutput = z.object({
  items: z.array(
    z.object({
      stayId: z.number(),
      roomId: z.number(),
      roomName: z.string(),
      state: z.enum(STAY_STATES),
      checkInAt: z.string(),
      expectedCheckOutAt: z.string(),
      ...ZGuestDto.shape,
    }),
  ),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export const ZStayBreakfastOutput = z.object({ date: z.string(), rows: z.array(ZBreakfastRow), guests: z.number(), served: z.number() });
export const ZStayServeBreakfastOutput = ZBreakfastRow;
export const ZStayKeysOutput = ZStayKeysDto;
