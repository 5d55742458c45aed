import { CardFormatError, encodeCard, MAX_CARD_DOORS, roomsFitOnCard, type EncodedCard } from '@console/card-format';
import { cardNumberOfUid, ZCardReserveInput, type TCardKind, type TCardReserveInput } from '@console/shared';
import type { AuthedContext } from '../../context';
import { transaction, type Tx } from '../../db/transaction';
import { Prisma } from '../../generated/prisma/client';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { followCredentials } from '../credentials/delivery';
import { findIssue, LIVE_ISSUE_STATES, openKeysOf, toDto, type CardWriteDto } from './card-dto';
import { doorsServingRooms } from '../credentials/door-copies';
import { activeKeySet, ensureDoorNumber, ensureLockNumber, hotelTagOf } from './card-keys';
import { keySetName, queueKeySync, rotateKeySet } from './card-keys.service';
import { cardTarget, type CardTarget } from './card-rooms';
import { recordEvent } from '../../db/events';

/**
 * Issuing a card at the desk, step one (docs/card-format.md): the data of the card the desk reader
 * read, under the hotel's keys. Step two, the read-back, is card-write.ts.
 */

const CARD_KIND_ON_CARD: Record<TCardKind, 'guest' | 'master' | 'staff'> = { room: 'guest', universal: 'master', management: 'staff' };

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
  let result: Reserved;
  try {
    result = await transaction(deps, async (tx) => {
      // What the card opens, and for how long.
      const target = await cardTarget(
        ctx,
        tx,
        {
          stayId: input.kind === 'room' ? input.stayId! : undefined,
          roomIds: input.roomIds,
          allRooms: input.allRooms,
          validFrom: input.validFrom,
          validUntil: input.validUntil,
        },
        now,
      );
      return reserveInTransaction(ctx, tx, { ...input, ...target }, now);
    });
  } catch (error) {
    throw cardReserveError(error);
  }
  return reservedCard(ctx, result);
}

/** A reservation made: its writing, and the data to write. */
export interface Reserved {
  issueId: number;
  encoded: EncodedCard;
  newKeys: boolean;
}

/** What a reservation writes: the card on the reader, its kind, and what it opens for how long (already checked). */
export interface ReservationInput extends CardTarget {
  uid: string;
  kind: TCardKind;
  mode: 'new' | 'duplicate';
  allRooms: boolean;
  note: string;
  replaces?: number;
  /** An attendant's card of a hotel day (modules/housekeeping/attendant-card.ts): its holder's name and whose it is. */
  attendant?: { membershipId: number; day: Date; holderName: string };
}

/**
 * The reservation itself, inside the caller's transaction (its rooms locked): the card's row, the
 * checks of the card on the reader (lost, still issued, an earlier reservation), the hotel's key
 * set, the lock numbers, the writing and its data.
 */
export async function reserveInTransaction(ctx: AuthedContext, tx: Tx, input: ReservationInput, now: Date): Promise<Reserved> {
  const { deps, actor } = ctx;
  const cardNumber = cardNumberOfUid(input.uid);
  const { stay, roomIds, validFrom, validUntil } = input;
  // The card itself: one row per physical card of the hotel, by its number.
  const card = await tx.card.upsert({
    where: { hotelId_cardNumber: { hotelId: actor.hotelId, cardNumber } },
    create: { hotelId: actor.hotelId, cardNumber, uid: input.uid, kind: input.kind },
    update: { uid: input.uid },
    select: { id: true, lostAt: true },
  });
  if (card.lostAt) throw new AppError('CONFLICT', { messageKey: 'cards.errors.cardLost' });
  const live = await tx.cardIssue.findMany({
    where: { hotelId: actor.hotelId, cardId: card.id, state: { in: [...LIVE_ISSUE_STATES] } },
    select: { id: true, state: true, stayId: true, room: { select: { name: true } }, holderName: true },
  });
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
    await rotateKeySet(tx, deps, actor.hotelId, await keySetName(tx, actor.hotelId));
    await queueKeySync(tx, actor.hotelId);
    keySet = (await activeKeySet(tx, deps.config.cardKeySecret, actor.hotelId))!;
  }

  let generation: number | null = null;
  let duplicate = false;
  let holderName = input.attendant?.holderName ?? input.note;
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
  // A guest card names the shared doors its room is served by now (docs/shared-doors.md "Room cards").
  const doorLockIds = stay ? ((await doorsServingRooms(tx, actor.hotelId, [stay.roomId])).get(stay.roomId) ?? []) : [];
  if (doorLockIds.length > MAX_CARD_DOORS)
    throw new AppError('VALIDATION', { messageKey: 'cards.errors.tooManyDoors', params: { count: doorLockIds.length, max: MAX_CARD_DOORS } });
  const doorNumbers: number[] = [];
  for (const lockId of doorLockIds) doorNumbers.push(await ensureDoorNumber(tx, actor.hotelId, lockId));
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
      doorLockIds,
      generation,
      duplicate,
      keyId: keySet.id,
      uid: input.uid,
      validFrom,
      validUntil,
      holderName,
      note: input.note,
      replacesId: input.replaces ?? null,
      attendantId: input.attendant?.membershipId ?? null,
      attendantDay: input.attendant?.day ?? null,
      createdById: actor.accountId,
    },
    select: { id: true },
  });
  const common = { keys: keySet.keys, hotelTag: hotelTagOf(actor.hotelId), uid: input.uid, validFrom, validUntil, cardId: issue.id };
  const encoded =
    input.kind === 'room'
      ? encodeCard({ ...common, kind: 'guest', lockNumber: lockNumbers[0]!, generation: generation!, duplicate, doors: doorNumbers })
      : encodeCard({ ...common, kind: CARD_KIND_ON_CARD[input.kind] as 'master' | 'staff', rooms: input.allRooms ? 'all' : lockNumbers });
  await tx.cardIssue.update({
    where: { id: issue.id },
    data: { blocks: [...encoded.blocks, { block: encoded.trailerBlock, data: encoded.trailer }].map((b) => ({ block: b.block, data: b.data })) },
  });
  await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'credential.changed' });
  await recordAudit(tx, ctx, {
    action: 'card.reserve',
    entityType: 'CardIssue',
    entityId: issue.id,
    after: {
      cardNumber,
      kind: input.kind,
      stayId: stay?.id ?? null,
      rooms: input.allRooms ? 'all' : roomIds,
      doors: doorLockIds,
      generation,
      duplicate,
      validFrom: validFrom.toISOString(),
      validUntil: validUntil?.toISOString() ?? null,
      replaces: input.replaces ?? null,
    },
  });
  // The hotel's first key set goes to its locks now, whether or not this card is written.
  if (newKeys) followCredentials(tx, deps, actor.hotelId);
  return { issueId: issue.id, encoded, newKeys };
}

/** The errors of a reservation as the console says them: a card that cannot be encoded, a card being written by another desk. */
export function cardReserveError(error: unknown): unknown {
  if (error instanceof CardFormatError)
    return new AppError('VALIDATION', {
      messageKey: error.code === 'too_many_rooms' ? 'cards.errors.tooManyRooms' : 'cards.errors.cannotEncode',
      params: { max: 7 },
      cause: error,
    });
  if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002')
    return new AppError('CONFLICT', { messageKey: 'cards.errors.cardBusy', cause: error });
  return error;
}

/** What the desk reader writes for a reservation: its writing, the blocks and trailer, the keys that may open the card. */
export async function reservedCard(ctx: AuthedContext, result: Reserved): Promise<CardWriteDto> {
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
