import { CardFormatError, encodeCard, FACTORY_KEY, MAX_LISTED_ROOMS, ROOM_WINDOW_SIZE, roomsFitOnCard, type EncodedCard } from '@console/card-format';
import {
  cardNumberOfUid,
  ZCardConfirmInput,
  ZCardIssueIdInput,
  ZCardListInput,
  ZCardLookupInput,
  ZCardReserveInput,
  ZCardRoomFitInput,
  ZCardSendInput,
  type TCardConfirmInput,
  type TCardRoomFitInput,
  type TCardSendInput,
  type TCardIssueState,
  type TCardKind,
  type TCardListInput,
  type TCardReserveInput,
  type TDeliveryState,
} from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { containsText, searchText } from '../../db/search';
import { lockRooms, transaction, type Tx } from '../../db/transaction';
import { Prisma } from '../../generated/prisma/client';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { afterCredentialChange } from '../credentials/delivery';
import { roomScope } from '../room/room-access';
import { LIVE_DELIVERY_STATES, revoke, type TRevokeReason } from '../stay/revocation';
import { findStay, requireActive } from '../stay/stay-dto';
import { activeKeySet, ensureLockNumber, hotelTagOf, lockKeyEntries } from './card-keys';
import { firstKeySetName, queueKeySync, rotateKeySet } from './card-keys.service';

/**
 * Room cards (issue 8, docs/card-format.md): a card's data is computed here under the hotel's
 * keys for the UID the desk reader read (reserve), the browser writes it and reads it back, and
 * the card counts as issued only when the read-back is exactly what was reserved (confirm). Its
 * rooms' locks read it offline; its end (check-out, loss, return, revocation) denylists it on its
 * locks through the delivery engine, and a new card of a room voids the older ones.
 */

const CARD_KIND_ON_CARD: Record<TCardKind, 'guest' | 'master' | 'staff'> = { room: 'guest', universal: 'master', management: 'staff' };
const LIVE_ISSUE_STATES = ['reserved', 'issued'] as const;

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
  medium: 'data' | 'number';
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
  /** Its stay was renewed past its end: the card must be written again to open until the new check-out. */
  needsRewrite: boolean;
  grants: CardGrantDto[];
}

const issueSelect = {
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
  card: { select: { cardNumber: true } },
  room: { select: { name: true } },
  stay: { select: { expectedCheckOutAt: true, status: true } },
  grants: { select: { id: true, roomId: true, deliveryState: true, lastError: true, revokeReason: true, room: { select: { name: true } } }, orderBy: { id: 'asc' } },
} as const satisfies Prisma.CardIssueSelect;
type IssueRow = Prisma.CardIssueGetPayload<{ select: typeof issueSelect }>;

function toDto(i: IssueRow): CardIssueDto {
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
    needsRewrite: i.state === 'issued' && i.medium === 'data' && i.validUntil !== null && i.stay !== null && i.stay.expectedCheckOutAt.getTime() > i.validUntil.getTime(),
    grants: i.grants.filter((g) => g.roomId !== null).map((g) => ({ id: g.id, roomId: g.roomId!, roomName: g.room?.name ?? '', deliveryState: g.deliveryState, lastError: g.lastError, revokeReason: g.revokeReason })),
  };
}

/** Cards of rooms the actor sees: a guest card by its room, a universal or management card by any of its rooms (or all rooms). */
function visibleIssues(ctx: AuthedContext): Prisma.CardIssueWhereInput {
  const { actor } = ctx;
  if (actor.allRooms) return { hotelId: actor.hotelId };
  return { hotelId: actor.hotelId, OR: [{ room: roomScope(actor) }, { grants: { some: { room: roomScope(actor) } } }] };
}

async function findIssue(ctx: AuthedContext, id: number, db: Tx | AuthedContext['deps']['prisma'] = ctx.deps.prisma): Promise<IssueRow> {
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

/**
 * Step one of issuing a card (`room/addCardStepTwoNew` reserve): the block data for the card with
 * this UID, under the hotel's active key set (made now if the hotel has none). A room card is for
 * an active stay, valid from its check-in (or now) to its expected check-out; *new* takes the
 * room's next generation (the lock refuses older cards of the room once it has seen it),
 * *duplicate* repeats the current one. A card still issued must be returned (read back at the
 * desk) first; a card reported lost is never written again.
 */
export async function reserveCard(ctx: AuthedContext, raw: TCardReserveInput): Promise<CardWriteDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'credential.manage');
  if (raw.kind === 'room') requirePermission(actor, 'stay.manage');
  const input = ZCardReserveInput.parse(raw);
  const now = new Date();
  const cardNumber = cardNumberOfUid(input.uid);

  let result: { issueId: number; encoded: EncodedCard; newKeys: boolean };
  try {
    result = await transaction(deps, async (tx) => {
      // What the card opens, and for how long.
      let roomIds: number[];
      let stay: Awaited<ReturnType<typeof findStay>> | null = null;
      let validFrom = input.validFrom ?? now;
      let validUntil = input.validUntil ?? null;
      if (input.kind === 'room') {
        stay = await findStay(ctx, input.stayId!, tx);
        requireActive(stay, now);
        roomIds = [stay.roomId];
        validFrom = stay.checkInAt.getTime() > now.getTime() ? stay.checkInAt : now;
        validUntil = stay.expectedCheckOutAt;
        const issuedForStay = await tx.cardIssue.count({ where: { hotelId: actor.hotelId, stayId: stay.id, state: 'issued' } });
        if (issuedForStay >= 10) throw new AppError('CONFLICT', { messageKey: 'cards.errors.tooManyForStay', params: { count: issuedForStay } });
      } else if (input.allRooms) {
        roomIds = (await tx.room.findMany({ where: { ...roomScope(actor), lockId: { not: null } }, select: { id: true } })).map((r) => r.id);
        if (!actor.allRooms) throw new AppError('FORBIDDEN', { messageKey: 'cards.errors.allRoomsNotAllowed' });
      } else {
        // In room order: rooms without a lock number get theirs in that order (as cardRoomFit foresees).
        const rooms = await tx.room.findMany({ where: { id: { in: input.roomIds! }, ...roomScope(actor) }, select: { id: true }, orderBy: { id: 'asc' } });
        if (rooms.length !== new Set(input.roomIds).size) throw new AppError('NOT_FOUND', { messageKey: 'frontDesk.errors.roomNotFound' });
        roomIds = rooms.map((r) => r.id);
      }
      if (validUntil && validUntil.getTime() <= now.getTime()) throw new AppError('VALIDATION', { messageKey: 'validation.endAfterStart', fields: { validUntil: 'validation.endAfterStart' } });
      await lockRooms(tx, actor.hotelId, roomIds);

      // The card itself: one row per physical card of the hotel, by its number.
      const card = await tx.card.upsert({
        where: { hotelId_cardNumber: { hotelId: actor.hotelId, cardNumber } },
        create: { hotelId: actor.hotelId, cardNumber, uid: input.uid, kind: input.kind },
        update: { uid: input.uid },
        select: { id: true, lostAt: true },
      });
      if (card.lostAt) throw new AppError('CONFLICT', { messageKey: 'cards.errors.cardLost' });
      const live = await tx.cardIssue.findMany({ where: { hotelId: actor.hotelId, cardId: card.id, state: { in: [...LIVE_ISSUE_STATES] } }, select: { id: true, state: true, stayId: true, room: { select: { name: true } }, holderName: true } });
      const issued = live.find((l) => l.state === 'issued');
      if (input.replaces !== undefined) {
        // A rewrite: of this card's issued writing, for the same stay.
        if (issued?.id !== input.replaces) throw new AppError('CONFLICT', { messageKey: 'cards.errors.notIssued' });
        if (issued.stayId !== (stay?.id ?? null)) throw new AppError('VALIDATION', { messageKey: 'cards.errors.rewriteOtherStay' });
      } else if (issued) {
        throw new AppError('CONFLICT', { messageKey: 'cards.errors.cardInUse', params: { room: issued.room?.name ?? '', holder: issued.holderName } });
      }
      // An earlier reservation of this card that was never confirmed (the write failed or was abandoned).
      const stale = live.filter((l) => l.state === 'reserved').map((l) => l.id);
      if (stale.length) await tx.cardIssue.updateMany({ where: { id: { in: stale } }, data: { state: 'voided', endReason: 'write_failed', endedAt: now } });

      // The hotel's key set (the first card of a hotel makes it, and its locks learn it).
      let keySet = await activeKeySet(tx, deps.config.cardKeySecret, actor.hotelId);
      const newKeys = !keySet;
      if (!keySet) {
        await rotateKeySet(tx, deps, actor.hotelId, firstKeySetName(ctx));
        await queueKeySync(tx, actor.hotelId);
        keySet = (await activeKeySet(tx, deps.config.cardKeySecret, actor.hotelId))!;
      }

      let generation: number | null = null;
      let duplicate = false;
      let holderName = input.note;
      if (stay) {
        const room = await tx.room.findUniqueOrThrow({ where: { id: stay.roomId }, select: { cardGeneration: true } });
        // A rewrite keeps the stay's generation: it must not void the stay's other cards.
        duplicate = (input.mode === 'duplicate' || input.replaces !== undefined) && room.cardGeneration > 0;
        generation = duplicate ? room.cardGeneration : room.cardGeneration + 1;
        if (!duplicate) await tx.room.update({ where: { id: stay.roomId }, data: { cardGeneration: generation } });
        holderName = stay.guests[0]?.name ?? '';
      } else if (!holderName) {
        holderName = '';
      }
      const lockNumbers: number[] = [];
      for (const roomId of roomIds) lockNumbers.push(await ensureLockNumber(tx, actor.hotelId, roomId));
      if (input.kind !== 'room' && !input.allRooms && !roomsFitOnCard(lockNumbers)) {
        throw new AppError('VALIDATION', { messageKey: 'cards.errors.tooManyRooms', params: { max: 7 }, fields: { roomIds: 'cards.errors.tooManyRooms' } });
      }

      const issue = await tx.cardIssue.create({
        data: {
          hotelId: actor.hotelId,
          cardId: card.id,
          kind: input.kind,
          medium: 'data',
          roomId: stay?.roomId ?? null,
          stayId: stay?.id ?? null,
          guestId: stay?.guests[0]?.id ?? null,
          allRooms: input.allRooms,
          roomIds,
          generation,
          duplicate,
          keyId: keySet.id,
          uid: input.uid,
          validFrom,
          validUntil,
          holderName,
          note: input.note,
          replacesId: input.replaces ?? null,
          createdById: actor.accountId,
        },
        select: { id: true },
      });
      const common = { keys: keySet.keys, hotelTag: hotelTagOf(actor.hotelId), uid: input.uid, validFrom, validUntil, cardId: issue.id };
      const encoded =
        input.kind === 'room'
          ? encodeCard({ ...common, kind: 'guest', lockNumber: lockNumbers[0]!, generation: generation!, duplicate })
          : encodeCard({ ...common, kind: CARD_KIND_ON_CARD[input.kind] as 'master' | 'staff', rooms: input.allRooms ? 'all' : lockNumbers });
      await tx.cardIssue.update({ where: { id: issue.id }, data: { blocks: [...encoded.blocks, { block: encoded.trailerBlock, data: encoded.trailer }].map((b) => ({ block: b.block, data: b.data })) } });
      await recordAudit(tx, ctx, {
        action: 'card.reserve',
        entityType: 'CardIssue',
        entityId: issue.id,
        after: { cardNumber, kind: input.kind, stayId: stay?.id ?? null, rooms: input.allRooms ? 'all' : roomIds, generation, duplicate, validFrom: validFrom.toISOString(), validUntil: validUntil?.toISOString() ?? null, replaces: input.replaces ?? null },
      });
      return { issueId: issue.id, encoded, newKeys };
    });
  } catch (error) {
    if (error instanceof CardFormatError) throw new AppError('VALIDATION', { messageKey: error.code === 'too_many_rooms' ? 'cards.errors.tooManyRooms' : 'cards.errors.cannotEncode', params: { max: 7 }, cause: error });
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') throw new AppError('CONFLICT', { messageKey: 'cards.errors.cardBusy', cause: error });
    throw error;
  }
  // The hotel's first key set goes to its locks now, whether or not this card is written.
  if (result.newKeys) await afterCredentialChange(deps, actor.hotelId);
  const openKeys = await openKeysOf(ctx);
  const { encoded } = result;
  return {
    issue: toDto(await findIssue(ctx, result.issueId)),
    sector: encoded.sector,
    blocks: encoded.blocks,
    trailer: { block: encoded.trailerBlock, data: encoded.trailer },
    openKeys,
  };
}

/**
 * Step two: the card as the desk reader read it back after writing. Exactly what was reserved, for
 * the same UID: the card is issued (a *new* room card ends the room's earlier cards: they are
 * denylisted on the lock, and the lock refuses them anyway once it has seen the new one). Anything
 * else: the reservation is voided and no card counts as issued.
 */
export async function confirmCard(ctx: AuthedContext, raw: TCardConfirmInput): Promise<CardIssueDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'credential.manage');
  const input = ZCardConfirmInput.parse(raw);
  const now = new Date();
  const outcome = await transaction(deps, async (tx) => {
    const issue = await findIssue(ctx, input.issueId, tx);
    const row = await tx.cardIssue.findUniqueOrThrow({ where: { id: issue.id }, select: { blocks: true, state: true, roomId: true, stayId: true, guestId: true, roomIds: true, validFrom: true, validUntil: true, replacesId: true } });
    if (row.state !== 'reserved') throw new AppError('CONFLICT', { messageKey: 'cards.errors.notReserved' });
    const reserved = (row.blocks as { block: number; data: string }[] | null) ?? [];
    const written = new Map(input.blocks.map((b) => [b.block, b.data]));
    // The data blocks must read back the same (the trailer's keys read back as zeros on real cards).
    const same = input.uid === issue.uid && reserved.filter((b) => b.block % 4 !== 3).every((b) => written.get(b.block) === b.data);
    if (!same) {
      await tx.cardIssue.update({ where: { id: issue.id }, data: { state: 'voided', endReason: 'write_failed', endedAt: now } });
      await recordAudit(tx, ctx, { action: 'card.write_failed', entityType: 'CardIssue', entityId: issue.id });
      return 'mismatch' as const;
    }
    if (row.stayId !== null) {
      await lockRooms(tx, actor.hotelId, [row.roomId!]);
      requireActive(await findStay(ctx, row.stayId, tx), now);
    }
    // A rewrite: the card's earlier writing ends now (its card id denylisted), not before.
    if (row.replacesId !== null) await endIssues(tx, { id: row.replacesId, hotelId: actor.hotelId, cardId: issue.cardId, state: 'issued' }, 'rewritten', now);
    await tx.cardIssue.update({ where: { id: issue.id }, data: { state: 'issued', issuedAt: now } });
    // On its rooms' locks from now on: one grant per room (a data card has nothing to push; its end denylists it there).
    await tx.cardGrant.createMany({
      data: row.roomIds.map((roomId) => ({
        hotelId: actor.hotelId,
        cardId: issue.cardId,
        issueId: issue.id,
        medium: 'data' as const,
        roomId,
        stayId: row.stayId,
        guestId: row.guestId,
        validFrom: row.validFrom,
        validUntil: row.validUntil,
        deliveryState: 'on_lock' as const,
        deliveredAt: now,
        // What the lock knows it by: the card id written on it (its removal denylists that).
        providerRef: `C${issue.id}`,
      })),
    });
    if (issue.kind === 'room' && !issue.duplicate) await endIssues(tx, { hotelId: actor.hotelId, kind: 'room', roomId: row.roomId!, state: 'issued', id: { not: issue.id }, OR: [{ generation: { lt: issue.generation! } }, { generation: null }] }, 'replaced', now);
    await recordAudit(tx, ctx, { action: 'card.issue', entityType: 'CardIssue', entityId: issue.id, after: { cardNumber: issue.card.cardNumber } });
    return 'issued' as const;
  });
  if (outcome === 'mismatch') throw new AppError('VALIDATION', { messageKey: 'cards.errors.readBackMismatch' });
  await afterCredentialChange(deps, actor.hotelId);
  return toDto(await findIssue(ctx, input.issueId));
}

/** The keys that may open a card of the hotel on the reader: its key sets' key A, then the factory key. */
async function openKeysOf(ctx: AuthedContext): Promise<string[]> {
  const entries = await lockKeyEntries(ctx.deps.prisma, ctx.deps.config.cardKeySecret, ctx.actor.hotelId);
  return [...new Set([...entries.map((e) => e.keys.sectorKeyA), FACTORY_KEY])];
}

/** Gives up a reservation whose card was not written (the write failed in the browser): nothing was issued. */
export async function voidReservation(ctx: AuthedContext, raw: z.input<typeof ZCardIssueIdInput>): Promise<CardIssueDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'credential.manage');
  const { issueId } = ZCardIssueIdInput.parse(raw);
  await transaction(deps, async (tx) => {
    const issue = await findIssue(ctx, issueId, tx);
    if (issue.state !== 'reserved') throw new AppError('CONFLICT', { messageKey: 'cards.errors.notReserved' });
    await tx.cardIssue.update({ where: { id: issue.id }, data: { state: 'voided', endReason: 'write_failed', endedAt: new Date() } });
  });
  return toDto(await findIssue(ctx, issueId));
}

/**
 * Ends issued cards matching `where`: each one's grants are taken off their locks (a data card
 * denylisted by the card id written on it), and the writing is `ended` (or `returned`, `lost`).
 */
export async function endIssues(tx: Tx, where: Prisma.CardIssueWhereInput, reason: TRevokeReason | 'returned' | 'lost', now: Date): Promise<number> {
  const issues = await tx.cardIssue.findMany({ where, select: { id: true } });
  if (!issues.length) return 0;
  const ids = issues.map((i) => i.id);
  const state: TCardIssueState = reason === 'returned' ? 'returned' : reason === 'lost' ? 'lost' : 'ended';
  await tx.cardIssue.updateMany({ where: { id: { in: ids } }, data: { state, endReason: reason, endedAt: now } });
  await tx.cardGrant.updateMany({ where: { issueId: { in: ids }, deliveryState: { in: [...LIVE_DELIVERY_STATES] } }, data: revoke(reason as TRevokeReason) });
  return ids.length;
}

export interface CardLookupDto {
  cardNumber: string;
  /** The card's live writing, when it has one. */
  issue: CardIssueDto | null;
  /** The guest it was issued to (spec §4: the guest page), when it is a room card of a stay. */
  guest: { id: number; name: string; stayId: number; roomId: number; roomName: string; otherInformation: string } | null;
}

/**
 * A card read at the desk (spec §4, `passenger/getRoomInfo` with card_num): its live writing and
 * the guest it belongs to. A card of another hotel, or of rooms the actor does not see, is not
 * found like any unknown card.
 */
export async function lookupCard(ctx: AuthedContext, raw: z.input<typeof ZCardLookupInput>): Promise<CardLookupDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'room.read');
  const { cardNumber } = ZCardLookupInput.parse(raw);
  const issue = await deps.prisma.cardIssue.findFirst({ where: { ...visibleIssues(ctx), card: { cardNumber }, state: 'issued' }, select: issueSelect, orderBy: { id: 'desc' } });
  if (!issue) return { cardNumber, issue: null, guest: null };
  let guest: CardLookupDto['guest'] = null;
  if (issue.stayId !== null) {
    const stay = await deps.prisma.stay.findFirst({
      where: { id: issue.stayId, hotelId: actor.hotelId },
      select: { id: true, roomId: true, remark: true, room: { select: { name: true } }, guests: { select: { id: true, name: true }, orderBy: [{ isPrimary: 'desc' }, { id: 'asc' }], take: 1 } },
    });
    const first = stay?.guests[0];
    if (stay && first) guest = { id: first.id, name: first.name, stayId: stay.id, roomId: stay.roomId, roomName: stay.room.name, otherInformation: stay.remark };
  }
  return { cardNumber, issue: toDto(issue), guest };
}

/**
 * A card handed back at the desk (withdrawal, `passenger/deleteCardByCardId`): its writing is
 * returned and taken off its locks; the browser then clears its sector. The card can be written
 * again for the next guest.
 */
export async function returnCard(ctx: AuthedContext, raw: z.input<typeof ZCardLookupInput>): Promise<{ issue: CardIssueDto; clear: { block: number; data: string }[]; openKeys: string[] }> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'credential.manage');
  const { cardNumber } = ZCardLookupInput.parse(raw);
  const now = new Date();
  const issueId = await transaction(deps, async (tx) => {
    const issue = await tx.cardIssue.findFirst({ where: { ...visibleIssues(ctx), card: { cardNumber }, state: 'issued' }, select: { id: true, roomId: true, card: { select: { cardNumber: true } } }, orderBy: { id: 'desc' } });
    if (!issue) throw new AppError('NOT_FOUND', { messageKey: 'cards.errors.notIssued' });
    await endIssues(tx, { id: issue.id }, 'returned', now);
    await recordAudit(tx, ctx, { action: 'card.return', entityType: 'CardIssue', entityId: issue.id, after: { cardNumber } });
    return issue.id;
  });
  await afterCredentialChange(deps, actor.hotelId);
  const issue = await findIssue(ctx, issueId);
  const sector = Math.floor(((await deps.prisma.cardIssue.findUniqueOrThrow({ where: { id: issueId }, select: { blocks: true } })).blocks as { block: number }[] | null)?.[0]?.block ?? 4) / 4;
  return { issue: toDto(issue), clear: [0, 1, 2].map((i) => ({ block: sector * 4 + i, data: '0'.repeat(32) })), openKeys: await openKeysOf(ctx) };
}

/** A card reported lost: refused on its locks from now on (denylisted), and never written again. */
export async function reportCardLost(ctx: AuthedContext, raw: z.input<typeof ZCardIssueIdInput>): Promise<CardIssueDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'credential.manage');
  const { issueId } = ZCardIssueIdInput.parse(raw);
  const now = new Date();
  await transaction(deps, async (tx) => {
    const issue = await findIssue(ctx, issueId, tx);
    if (issue.state !== 'issued') throw new AppError('CONFLICT', { messageKey: 'cards.errors.notIssued' });
    await endIssues(tx, { id: issue.id }, 'lost', now);
    await tx.card.update({ where: { id: issue.cardId }, data: { lostAt: now } });
    await recordAudit(tx, ctx, { action: 'card.lost', entityType: 'CardIssue', entityId: issue.id, after: { cardNumber: issue.card.cardNumber } });
  });
  await afterCredentialChange(deps, actor.hotelId);
  return toDto(await findIssue(ctx, issueId));
}

/** Revokes an issued card by hand (its grants denylisted), e.g. a staff member's card. */
export async function revokeCard(ctx: AuthedContext, raw: z.input<typeof ZCardIssueIdInput>): Promise<CardIssueDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'credential.manage');
  const { issueId } = ZCardIssueIdInput.parse(raw);
  await transaction(deps, async (tx) => {
    const issue = await findIssue(ctx, issueId, tx);
    if (issue.state !== 'issued') throw new AppError('CONFLICT', { messageKey: 'cards.errors.notIssued' });
    await endIssues(tx, { id: issue.id }, 'manual', new Date());
    await recordAudit(tx, ctx, { action: 'card.revoke', entityType: 'CardIssue', entityId: issue.id });
  });
  await afterCredentialChange(deps, actor.hotelId);
  return toDto(await findIssue(ctx, issueId));
}

/** Cards of the rooms the actor sees, newest first: of a room, a stay or a kind; active or past. */
export async function listCards(ctx: AuthedContext, raw: TCardListInput): Promise<{ items: CardIssueDto[]; total: number; page: number; pageSize: number }> {
  const { deps } = ctx;
  requirePermission(ctx.actor, 'room.read');
  const input = ZCardListInput.parse(raw);
  const search = searchText(input.search);
  const where: Prisma.CardIssueWhereInput = {
    AND: [
      visibleIssues(ctx),
      input.kind ? { kind: input.kind } : {},
      input.roomId !== undefined ? { OR: [{ roomId: input.roomId }, { grants: { some: { roomId: input.roomId } } }] } : {},
      input.stayId !== undefined ? { stayId: input.stayId } : {},
      input.scope === 'active' ? { state: 'issued' } : input.scope === 'history' ? { state: { in: ['returned', 'lost', 'ended', 'voided'] } } : {},
      search ? { OR: [{ card: { cardNumber: { contains: search } } }, { holderName: containsText(search) }, { note: containsText(search) }] } : {},
    ],
  };
  const [rows, total] = await Promise.all([
    deps.prisma.cardIssue.findMany({ where, select: issueSelect, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: (input.page - 1) * input.pageSize, take: input.pageSize }),
    deps.prisma.cardIssue.count({ where }),
  ]);
  return { items: rows.map(toDto), total, page: input.page, pageSize: input.pageSize };
}

export async function getCard(ctx: AuthedContext, raw: z.input<typeof ZCardIssueIdInput>): Promise<CardIssueDto> {
  requirePermission(ctx.actor, 'room.read');
  return toDto(await findIssue(ctx, ZCardIssueIdInput.parse(raw).issueId));
}

export interface CardRoomFitDto {
  /** The rooms fit on one card: up to MAX_LISTED_ROOMS anywhere, or within ROOM_WINDOW_SIZE consecutive lock numbers. */
  fits: boolean;
  count: number;
  /** How many consecutive lock numbers the rooms span (their highest minus their lowest, plus one). */
  span: number;
  listedMax: number;
  window: number;
}

/**
 * Whether rooms chosen for a universal or management card fit on one card, before a card is put
 * on the reader. It depends on the rooms' lock numbers, which only the server knows: a room
 * without one yet would get the next numbers, in room order, when the card is reserved.
 */
export async function cardRoomFit(ctx: AuthedContext, raw: TCardRoomFitInput): Promise<CardRoomFitDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'room.read');
  const input = ZCardRoomFitInput.parse(raw);
  const ids = [...new Set(input.roomIds)];
  const rooms = await deps.prisma.room.findMany({ where: { id: { in: ids }, ...roomScope(actor) }, select: { id: true, lockNumber: true }, orderBy: { id: 'asc' } });
  if (rooms.length !== ids.length) throw new AppError('NOT_FOUND', { messageKey: 'frontDesk.errors.roomNotFound' });
  const highest = (await deps.prisma.room.aggregate({ where: { hotelId: actor.hotelId }, _max: { lockNumber: true } }))._max.lockNumber ?? 0;
  let next = highest;
  const numbers = rooms.map((r) => r.lockNumber ?? ++next);
  const span = Math.max(...numbers) - Math.min(...numbers) + 1;
  return { fits: roomsFitOnCard(numbers), count: numbers.length, span, listedMax: MAX_LISTED_ROOMS, window: ROOM_WINDOW_SIZE };
}

/**
 * A card sent over the air (`room/sendCard`): its number pushed to its rooms' locks through the
 * gateway (TTLock identityCard/add, addType 2) by the delivery engine, for a stay (valid for the
 * stay, ended with it) or for rooms and a period. Nothing is written on the card: the lock knows
 * it by its number. A card still issued, or reported lost, is refused as for a written card.
 */
export async function sendCard(ctx: AuthedContext, raw: TCardSendInput): Promise<CardIssueDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'credential.manage');
  const input = ZCardSendInput.parse(raw);
  const now = new Date();
  const issueId = await transaction(deps, async (tx) => {
    let stay: Awaited<ReturnType<typeof findStay>> | null = null;
    let roomIds: number[];
    let validFrom = input.validFrom ?? now;
    let validUntil = input.validUntil ?? null;
    if (input.stayId !== undefined) {
      stay = await findStay(ctx, input.stayId, tx);
      requireActive(stay, now);
      roomIds = [stay.roomId];
      validFrom = stay.checkInAt.getTime() > now.getTime() ? stay.checkInAt : now;
      validUntil = stay.expectedCheckOutAt;
    } else {
      const rooms = await tx.room.findMany({ where: { id: { in: input.roomIds! }, ...roomScope(actor) }, select: { id: true } });
      if (rooms.length !== new Set(input.roomIds).size) throw new AppError('NOT_FOUND', { messageKey: 'frontDesk.errors.roomNotFound' });
      roomIds = rooms.map((r) => r.id);
    }
    if (validUntil && validUntil.getTime() <= now.getTime()) throw new AppError('VALIDATION', { messageKey: 'validation.endAfterStart', fields: { validUntil: 'validation.endAfterStart' } });
    await lockRooms(tx, actor.hotelId, roomIds);
    const card = await tx.card.upsert({
      where: { hotelId_cardNumber: { hotelId: actor.hotelId, cardNumber: input.cardNumber } },
      create: { hotelId: actor.hotelId, cardNumber: input.cardNumber, kind: input.kind },
      update: {},
      select: { id: true, lostAt: true, uid: true },
    });
    if (card.lostAt) throw new AppError('CONFLICT', { messageKey: 'cards.errors.cardLost' });
    const live = await tx.cardIssue.findFirst({ where: { hotelId: actor.hotelId, cardId: card.id, state: { in: [...LIVE_ISSUE_STATES] } }, select: { id: true, state: true, room: { select: { name: true } }, holderName: true } });
    if (live?.state === 'issued') throw new AppError('CONFLICT', { messageKey: 'cards.errors.cardInUse', params: { room: live.room?.name ?? '', holder: live.holderName } });
    if (live) await tx.cardIssue.update({ where: { id: live.id }, data: { state: 'voided', endReason: 'write_failed', endedAt: now } });
    const holderName = stay?.guests[0]?.name ?? input.note;
    const issue = await tx.cardIssue.create({
      data: {
        hotelId: actor.hotelId,
        cardId: card.id,
        kind: input.kind,
        medium: 'number',
        state: 'issued',
        roomId: stay?.roomId ?? (input.kind === 'room' ? roomIds[0]! : null),
        stayId: stay?.id ?? null,
        guestId: stay?.guests[0]?.id ?? null,
        roomIds,
        uid: card.uid ?? BigInt(input.cardNumber).toString(16).toUpperCase().padStart(8, '0').slice(-8),
        validFrom,
        validUntil,
        holderName,
        note: input.note,
        issuedAt: now,
        createdById: actor.accountId,
      },
      select: { id: true },
    });
    await tx.cardGrant.createMany({
      data: roomIds.map((roomId) => ({ hotelId: actor.hotelId, cardId: card.id, issueId: issue.id, medium: 'number' as const, roomId, stayId: stay?.id ?? null, guestId: stay?.guests[0]?.id ?? null, validFrom, validUntil })),
    });
    await recordAudit(tx, ctx, { action: 'card.send', entityType: 'CardIssue', entityId: issue.id, after: { cardNumber: input.cardNumber, rooms: roomIds, stayId: stay?.id ?? null, validFrom: validFrom.toISOString(), validUntil: validUntil?.toISOString() ?? null } });
    return issue.id;
  });
  await afterCredentialChange(deps, actor.hotelId);
  return toDto(await findIssue(ctx, issueId));
}
