import { FACTORY_KEY } from '@console/card-format';
import type { TAttendantCardRewriteReason, TCardIssueState, TCardKind, TDeliveryState } from '@console/shared';
import type { AuthedContext } from '../../context';
import type { Tx } from '../../db/transaction';
import type { Prisma } from '../../generated/prisma/client';
import { AppError } from '../../errors';
import { roomScope } from '../base/room-access';
import { lockKeyEntries } from './card-keys';

/**
 * Room cards (issue 8, docs/card-format.md): a card's data is computed here under the hotel's
 * keys for the UID the desk reader read (reserve), the browser writes it and reads it back, and
 * the card counts as issued only when the read-back is exactly what was reserved (confirm). Its
 * rooms' locks read it offline; its end (check-out, loss, return, revocation) denylists it on its
 * locks through the delivery engine, and a new card of a room voids the older ones.
 */

/** A card's writing that is not over: reserved (being written) or issued. */
export const LIVE_ISSUE_STATES = ['reserved', 'issued'] as const;

export interface CardGrantDto {
  id: number;
  roomId: number;
  roomName: string;
  deliveryState: TDeliveryState;
  lastError: string | null;
  revokeReason: string | null;
}

export interface CardIssueDto {
  id: number;
  cardId: number;
  cardNumber: string;
  uid: string;
  kind: TCardKind;
  medium: 'data' | 'number' | 'encoded';
  state: TCardIssueState;
  stayId: number | null;
  roomId: number | null;
  roomName: string | null;
  allRooms: boolean;
  duplicate: boolean;
  generation: number | null;
  holderName: string;
  note: string;
  validFrom: string;
  validUntil: string | null;
  endReason: string | null;
  issuedAt: string | null;
  endedAt: string | null;
  createdAt: string;
  /**
   * The card must be written again: its stay was renewed past its end, a shared door serves its
   * room that the card does not open (`missingDoors`), or an attendant's card no longer matches the
   * rota (`attendant.rewriteReasons`).
   */
  needsRewrite: boolean;
  /** An issued guest card: the shared doors serving its room now that it does not open (it was written before they served it). */
  missingDoors: string[];
  grants: CardGrantDto[];
  /** An attendant's card of a hotel day (docs/housekeeping-keys.md "Cards"): whose, which day, and why it must be written again. */
  attendant: { membershipId: number; day: string; rewriteReasons: TAttendantCardRewriteReason[] } | null;
}

const DOOR_SELECT = { lockId: true, lock: { select: { name: true, alias: true, sharedKind: true } } } as const;

/** The shared doors serving an issued guest card's room that the card does not open (no live grant of it on the door). */
function missingDoorsOf(i: IssueRow): string[] {
  if (i.state !== 'issued' || i.medium !== 'data' || i.kind !== 'room' || !i.room) return [];
  const serving = [...i.room.sharedDoors, ...(i.room.group?.sharedDoors ?? [])].filter((s) => s.lock.sharedKind !== null);
  const opens = new Set(
    i.grants.filter((g) => g.doorLockId !== null && !['removing', 'removed', 'remove_failed'].includes(g.deliveryState)).map((g) => g.doorLockId),
  );
  const names = new Map(serving.filter((s) => !opens.has(s.lockId)).map((s) => [s.lockId, s.lock.alias || s.lock.name]));
  return [...names.entries()].sort((a, b) => a[0] - b[0]).map(([, name]) => name);
}

export const issueSelect = {
  id: true,
  cardId: true,
  kind: true,
  medium: true,
  state: true,
  stayId: true,
  roomId: true,
  allRooms: true,
  duplicate: true,
  generation: true,
  uid: true,
  holderName: true,
  note: true,
  validFrom: true,
  validUntil: true,
  endReason: true,
  issuedAt: true,
  endedAt: true,
  createdAt: true,
  attendantId: true,
  attendantDay: true,
  rewriteReasons: true,
  card: { select: { cardNumber: true } },
  room: {
    select: {
      name: true,
      sharedDoors: { select: DOOR_SELECT },
      group: { select: { sharedDoors: { select: DOOR_SELECT } } },
    },
  },
  stay: { select: { expectedCheckOutAt: true, status: true } },
  grants: {
    select: { id: true, roomId: true, doorLockId: true, deliveryState: true, lastError: true, revokeReason: true, room: { select: { name: true } } },
    orderBy: { id: 'asc' },
  },
} as const satisfies Prisma.CardIssueSelect;
export type IssueRow = Prisma.CardIssueGetPayload<{ select: typeof issueSelect }>;

/** A card's writing as the console shows it. */
export function toDto(i: IssueRow): CardIssueDto {
  const missing = missingDoorsOf(i);
  return {
    id: i.id,
    cardId: i.cardId,
    cardNumber: i.card.cardNumber,
    uid: i.uid,
    kind: i.kind,
    medium: i.medium,
    state: i.state,
    stayId: i.stayId,
    roomId: i.roomId,
    roomName: i.room?.name ?? null,
    allRooms: i.allRooms,
    duplicate: i.duplicate,
    generation: i.generation,
    holderName: i.holderName,
    note: i.note,
    validFrom: i.validFrom.toISOString(),
    validUntil: i.validUntil?.toISOString() ?? null,
    endReason: i.endReason,
    issuedAt: i.issuedAt?.toISOString() ?? null,
    endedAt: i.endedAt?.toISOString() ?? null,
    createdAt: i.createdAt.toISOString(),
    needsRewrite:
      // A card that holds its period (a data card, a card system's): a longer stay means writing it again.
      (i.state === 'issued' &&
        (i.medium === 'data' || i.medium === 'encoded') &&
        i.validUntil !== null &&
        i.stay !== null &&
        i.stay.expectedCheckOutAt.getTime() > i.validUntil.getTime()) ||
      missing.length > 0 ||
      (i.state === 'issued' && i.rewriteReasons.length > 0),
    missingDoors: missing,
    // A card's rooms; its grants on shared doors are in missingDoors' complement, not listed as rooms.
    grants: i.grants
      .filter((g) => g.roomId !== null && g.doorLockId === null)
      .map((g) => ({
        id: g.id,
        roomId: g.roomId!,
        roomName: g.room?.name ?? '',
        deliveryState: g.deliveryState,
        lastError: g.lastError,
        revokeReason: g.revokeReason,
      })),
    attendant:
      i.attendantId !== null && i.attendantDay !== null
        ? {
            membershipId: i.attendantId,
            day: i.attendantDay.toISOString().slice(0, 10),
            rewriteReasons: i.rewriteReasons as TAttendantCardRewriteReason[],
          }
        : null,
  };
}

/** Cards of rooms the actor sees: a guest card by its room, a universal or management card by any of its rooms (or all rooms). */
export function visibleIssues(ctx: AuthedContext): Prisma.CardIssueWhereInput {
  const { actor } = ctx;
  if (actor.allRooms) return { hotelId: actor.hotelId };
  // A management or universal card has no room of its own and gets its grants when it is confirmed:
  // until then (reserved, or voided unwritten) it is seen by whoever made it (its rooms were checked against their scope).
  return {
    hotelId: actor.hotelId,
    OR: [{ room: roomScope(actor) }, { grants: { some: { room: roomScope(actor) } } }, { roomId: null, createdById: actor.accountId, grants: { none: {} } }],
  };
}

/** A card's writing the actor sees, by id; not found otherwise. */
export async function findIssue(ctx: AuthedContext, id: number, db: Tx | AuthedContext['deps']['prisma'] = ctx.deps.prisma): Promise<IssueRow> {
  const row = await db.cardIssue.findFirst({ where: { id, ...visibleIssues(ctx) }, select: issueSelect });
  if (!row) throw new AppError('NOT_FOUND', { messageKey: 'cards.errors.notFound' });
  return row;
}

/** What the desk reader writes: the sector's data blocks and trailer, and the keys that may open the card now. */
export interface CardWriteDto {
  issue: CardIssueDto;
  sector: number;
  blocks: { block: number; data: string }[];
  trailer: { block: number; data: string };
  /**
   * The keys to try, in order, to open the sector of the card on the reader before writing: the
   * hotel's key A of each key set its locks hold (a card written before), then the factory key (a
   * blank card). The DES and MAC keys never leave the server.
   */
  openKeys: string[];
}

/** The keys that may open a card of the hotel on the reader: its key sets' key A, then the factory key. */
export async function openKeysOf(ctx: AuthedContext): Promise<string[]> {
  const entries = await lockKeyEntries(ctx.deps.prisma, ctx.deps.config.cardKeySecret, ctx.actor.hotelId);
  return [...new Set([...entries.map((e) => e.keys.sectorKeyA), FACTORY_KEY])];
}
