import { MAX_LISTED_ROOMS, ROOM_WINDOW_SIZE, roomsFitOnCard } from '@console/card-format';
import { ZCardRoomFitInput, type TCardRoomFitInput } from '@console/shared';
import type { AuthedContext } from '../../context';
import { lockRooms, type Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { roomScope } from '../base/room-access';
import { findStay, requireActive } from '../base/stay-dto';
import { requireLockTakes } from '../base/lock-takes';

/** What a card opens, and for how long: a stay's room for the stay, or rooms chosen for a universal or management card. */
export interface CardTarget {
  stay: Awaited<ReturnType<typeof findStay>> | null;
  /** In room order: rooms without a lock number get theirs in that order (as cardRoomFit foresees). */
  roomIds: number[];
  validFrom: Date;
  validUntil: Date | null;
}

/**
 * The rooms and period of a card about to be written (reserve) or sent (send), with its rooms
 * locked for the rest of the transaction. A card of a stay opens the stay's room from its check-in
 * (or now) to its expected check-out, and only while the stay is active; a card of rooms opens
 * those the actor sees (all of the hotel's rooms with a lock only for an actor of all rooms).
 */
export async function cardTarget(
  ctx: AuthedContext,
  tx: Tx,
  input: { stayId?: number; roomIds?: number[]; allRooms?: boolean; validFrom?: Date; validUntil?: Date | null },
  now: Date,
): Promise<CardTarget> {
  const { actor } = ctx;
  let roomIds: number[];
  let stay: CardTarget['stay'] = null;
  let validFrom = input.validFrom ?? now;
  let validUntil = input.validUntil ?? null;
  if (input.stayId !== undefined) {
    stay = await findStay(ctx, input.stayId, tx);
    requireActive(stay, now);
    roomIds = [stay.roomId];
    validFrom = stay.checkInAt.getTime() > now.getTime() ? stay.checkInAt : now;
    validUntil = stay.expectedCheckOutAt;
  } else if (input.allRooms) {
    // Every door that reads cards (a keypad-only lock is no door of a master card).
    roomIds = (await tx.room.findMany({ where: { ...roomScope(actor), lock: { is: { hasCardReader: true } } }, select: { id: true } })).map((r) => r.id);
    if (!actor.allRooms) throw new AppError('FORBIDDEN', { messageKey: 'cards.errors.allRoomsNotAllowed' });
  } else {
    const rooms = await tx.room.findMany({ where: { id: { in: input.roomIds! }, ...roomScope(actor) }, select: { id: true }, orderBy: { id: 'asc' } });
    if (rooms.length !== new Set(input.roomIds).size) throw new AppError('NOT_FOUND', { messageKey: 'frontDesk.errors.roomNotFound' });
    roomIds = rooms.map((r) => r.id);
  }
  if (validUntil && validUntil.getTime() <= now.getTime())
    throw new AppError('VALIDATION', { messageKey: 'validation.endAfterStart', fields: { validUntil: 'validation.endAfterStart' } });
  // A card for a room whose lock has no card reader would open nothing: refused, naming the room.
  if (!input.allRooms) for (const roomId of roomIds) await requireLockTakes(tx, actor.hotelId, roomId, 'cards');
  await lockRooms(tx, actor.hotelId, roomIds);
  return { stay, roomIds, validFrom, validUntil };
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
  const rooms = await deps.prisma.room.findMany({
    where: { id: { in: ids }, ...roomScope(actor) },
    select: { id: true, lockNumber: true },
    orderBy: { id: 'asc' },
  });
  if (rooms.length !== ids.length) throw new AppError('NOT_FOUND', { messageKey: 'frontDesk.errors.roomNotFound' });
  const highest = (await deps.prisma.room.aggregate({ where: { hotelId: actor.hotelId }, _max: { lockNumber: true } }))._max.lockNumber ?? 0;
  let next = highest;
  const numbers = rooms.map((r) => r.lockNumber ?? ++next);
  const span = Math.max(...numbers) - Math.min(...numbers) + 1;
  return { fits: roomsFitOnCard(numbers), count: numbers.length, span, listedMax: MAX_LISTED_ROOMS, window: ROOM_WINDOW_SIZE };
}
