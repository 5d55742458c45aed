import { z } from 'zod';
import { CARD_ISSUE_STATES, CARD_KINDS } from '../cards';
import { DELIVERY_STATES } from '../credentials';
import { SHARED_DOOR_KINDS } from '../shared-doors';
import { ATTENDANT_CARD_REWRITE_REASONS } from '../housekeeping';
import { ZOk } from './common';

export const ZCardGrantDto = z.object({
  id: z.number(),
  roomId: z.number(),
  roomName: z.string(),
  deliveryState: z.enum(DELIVERY_STATES),
  lastError: z.string().nullable(),
  revokeReason: z.string().nullable(),
});
export type TCardGrantDto = z.infer<typeof ZCardGrantDto>;

export const ZCardIssueDto = z.object({
  id: z.number(),
  cardId: z.number(),
  cardNumber: z.string(),
  uid: z.string(),
  kind: z.enum(CARD_KINDS),
  medium: z.enum(['number', 'data', 'encoded']),
  state: z.enum(CARD_ISSUE_STATES),
  stayId: z.number().nullable(),
  roomId: z.number().nullable(),
  roomName: z.string().nullable(),
  allRooms: z.boolean(),
  duplicate: z.boolean(),
  generation: z.number().nullable(),
  holderName: z.string(),
  note: z.string(),
  validFrom: z.string(),
  validUntil: z.string().nullable(),
  endReason: z.string().nullable(),
  issuedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  createdAt: z.string(),
  needsRewrite: z.boolean(),
  /** The shared doors serving the card's room that it does not open (written before they served it): write it again. */
  missingDoors: z.array(z.string()),
  grants: z.array(ZCardGrantDto),
  /** An attendant's card of a hotel day (docs/housekeeping-keys.md "Cards"): whose, which day, and why it must be written again. */
  attendant: z.object({ membershipId: z.number(), day: z.string(), rewriteReasons: z.array(z.enum(ATTENDANT_CARD_REWRITE_REASONS)) }).nullable(),
});
export type TCardIssueDto = z.infer<typeof ZCardIssueDto>;

export const ZCardWriteDto = z.object({
  issue: ZCardIssueDto,
  sector: z.number(),
  blocks: z.array(z.object({ block: z.number(), data: z.string() })),
  trailer: z.object({ block: z.number(), data: z.string() }),
  openKeys: z.array(z.string()),
});
export type TCardWriteDto = z.infer<typeof ZCardWriteDto>;

export const ZCardLookupDto = z.object({
  cardNumber: z.string(),
  issue: ZCardIssueDto.nullable(),
  guest: z.object({ id: z.number(), name: z.string(), stayId: z.number(), roomId: z.number(), roomName: z.string(), otherInformation: z.string() }).nullable(),
});
export type TCardLookupDto = z.infer<typeof ZCardLookupDto>;

export const ZCardRoomFitDto = z.object({ fits: z.boolean(), count: z.number(), span: z.number(), listedMax: z.number(), window: z.number() });
export type TCardRoomFitDto = z.infer<typeof ZCardRoomFitDto>;

export const ZCardKeySetDto = z.object({
  id: z.number(),
  name: z.string(),
  sector: z.number(),
  fingerprint: z.string(),
  isActive: z.boolean(),
  retiredAt: z.string().nullable(),
  keepUntil: z.string().nullable(),
  issuedCards: z.number(),
  createdAt: z.string(),
});
export type TCardKeySetDto = z.infer<typeof ZCardKeySetDto>;

export const ZCardKeySyncDto = z.object({
  roomId: z.number(),
  roomName: z.string(),
  lockId: z.string(),
  deliveryState: z.enum(['unknown', 'never', 'pending', 'on_lock', 'failed', 'removing', 'removed', 'remove_failed']),
  lastError: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
export type TCardKeySyncDto = z.infer<typeof ZCardKeySyncDto>;

/** Where a shared door (docs/shared-doors.md) stands with the hotel's card keys: room cards name the doors their room is served by. */
export const ZCardDoorKeySyncDto = z.object({
  lockId: z.number(),
  /** The lock cloud's id of the door's lock (as `lockId` of a room's row). */
  providerLockId: z.string(),
  name: z.string(),
  kind: z.enum(SHARED_DOOR_KINDS),
  deliveryState: ZCardKeySyncDto.shape.deliveryState,
  lastError: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
export type TCardDoorKeySyncDto = z.infer<typeof ZCardDoorKeySyncDto>;

export const ZCardReserveOutput = ZCardWriteDto;
export const ZCardConfirmOutput = ZCardIssueDto;
/** The encoders of the card system a room's door belongs to. */
export const ZCardEncodersOutput = z.object({ items: z.array(z.object({ id: z.string(), name: z.string() })) });
export const ZCardEncodeOutput = ZCardIssueDto;
export const ZCardVoidReservationOutput = ZCardIssueDto;
export const ZCardSendOutput = ZCardIssueDto;
export const ZCardLookupOutput = ZCardLookupDto;
export const ZCardReturnOutput = z.object({
  issue: ZCardIssueDto,
  clear: z.array(z.object({ block: z.number(), data: z.string() })),
  openKeys: z.array(z.string()),
});
export const ZCardReportLostOutput = ZCardIssueDto;
export const ZCardRevokeOutput = ZCardIssueDto;
export const ZCardListOutput = z.object({ items: z.array(ZCardIssueDto), total: z.number(), page: z.number(), pageSize: z.number() });
export const ZCardGetOutput = ZCardIssueDto;
export const ZCardRoomFitOutput = ZCardRoomFitDto;
export const ZCardKeySetsOutput = z.array(ZCardKeySetDto);
export const ZCardCreateKeySetOutput = ZCardKeySetDto;
export const ZCardDeleteKeySetOutput = ZOk;
export const ZCardSyncKeysOutput = z.array(ZCardKeySyncDto);
export const ZCardKeyStatesOutput = z.array(ZCardKeySyncDto);
export const ZCardDoorKeyStatesOutput = z.array(ZCardDoorKeySyncDto);
