import type { EncodedCard } from '@console/card-format';
import { cardNumberOfUid, ZAttendantCardInput, type TAttendantCard, type TAttendantCardInput, type TAttendantCardRewriteReason } from '@console/shared';
import type { AuthedContext } from '../../context';
import { lockRooms, transaction, type Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { roomScope } from '../base/room-access';
import type { CardWriteDto } from '../cards/card-dto';
import { endIssues } from '../cards/card-end';
import { cardReserveError, reservedCard, reserveInTransaction, type Reserved } from '../cards/card-issue';
import { LIVE_DELIVERY_STATES, revoke } from '../credentials/delivery-states';
import { rotaOf } from './rota';

/**
 * An attendant's card (issue 28 §2, docs/housekeeping-keys.md "Cards"): for hotels whose locks take
 * cards only, the rota's keys as a staff card (kind 3, docs/card-format.md) written at the desk.
 * Its rooms are the attendant's rooms of the hotel day and its validity the hours of their shift,
 * both read from the rota here, never from the browser. A card learns nothing once written, so the
 * rota's changes reach it through its locks: a room taken from the attendant denylists the card at
 * that room's lock only; rooms added, or a longer shift, mark it to be written again; a shift cut
 * short denylists it at all its locks (it would open after the new end). At the shift's end it
 * stops by its own validity: nothing is sent. `syncAttendantCards` runs in the rota's sync
 * (attendant-access.ts), after the commit of every change of the rota, at the shift's end and in
 * the rota's sweep.
 */

const MINUTE = 60_000;
const floorMinute = (d: Date) => new Date(Math.floor(d.getTime() / MINUTE) * MINUTE);
const ceilMinute = (d: Date) => new Date(Math.ceil(d.getTime() / MINUTE) * MINUTE);
const dayDate = (day: string) => new Date(`${day}T00:00:00.000Z`);
const sameRooms = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && [...a].sort((x, y) => x - y).every((r, i) => r === [...b].sort((x, y) => x - y)[i]);

/** The blocks a reservation stored, as the desk writes them (the same data: the encoding is pure). */
function storedEncoding(blocks: unknown): EncodedCard {
  const rows = blocks as { block: number; data: string }[];
  const trailer = rows.find((b) => b.block % 4 === 3)!;
  return {
    sector: Math.floor(trailer.block / 4),
    blocks: rows.filter((b) => b.block % 4 !== 3),
    sectorKeyA: trailer.data.slice(0, 12),
    trailerBlock: trailer.block,
    trailer: trailer.data,
  };
}

/**
 * Step one of writing an attendant's card (step two is the desk's `card.confirm`): the data of the
 * card on the reader for the attendant's rooms of the day (listed, or a window: at most what fits
 * on a card) from now, or the shift's start, to the shift's end. Refused: a membership of another
 * hotel (NOT_FOUND), no shift that day or a shift that has ended, no rooms. A card the attendant
 * holds already is written again (its earlier writing ends when the new one is confirmed); the
 * same request twice gives the same reservation.
 */
export async function reserveAttendantCard(ctx: AuthedContext, raw: TAttendantCardInput): Promise<CardWriteDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'housekeeping.manage');
  const input = ZAttendantCardInput.parse(raw);
  const hotelId = actor.hotelId;
  const now = new Date();
  let result: Reserved;
  try {
    result = await transaction(deps, async (tx) => {
      // The attendant's row is locked: two requests wait for each other, and the rota's sync too.
      const members = await tx.$queryRaw<{ id: number; name: string; nickname: string }[]>`
        SELECT m."id", m."name", a."nickname"
          FROM "Membership" m JOIN "Account" a ON a."id" = m."accountId"
         WHERE m."hotelId" = ${hotelId} AND m."id" = ${input.membershipId}
           FOR NO KEY UPDATE OF m`;
      const member = members[0];
      if (!member) throw new AppError('NOT_FOUND', { messageKey: 'housekeeping.errors.attendantNotFound' });
      const rota = (await rotaOf(tx, hotelId, input.day)).find((r) => r.membershipId === member.id);
      const shift = rota?.shift ?? null;
      if (!shift) throw new AppError('VALIDATION', { messageKey: 'housekeeping.errors.cardNoShift' });
      if (shift.endsAt.getTime() <= now.getTime()) throw new AppError('VALIDATION', { messageKey: 'housekeeping.errors.cardShiftEnded' });
      const rooms = await tx.room.findMany({
        where: { id: { in: rota!.roomIds }, ...roomScope(actor), deletedAt: null },
        select: { id: true },
        orderBy: { id: 'asc' },
      });
      if (rooms.length === 0) throw new AppError('VALIDATION', { messageKey: 'housekeeping.errors.cardNoRooms' });
      // A supervisor of some rooms writes no card that opens rooms beyond them.
      if (rooms.length !== rota!.roomIds.length) throw new AppError('FORBIDDEN');
      const roomIds = rooms.map((r) => r.id);
      await lockRooms(tx, hotelId, roomIds);
      const validFrom = floorMinute(shift.startsAt.getTime() > now.getTime() ? shift.startsAt : now);
      const validUntil = ceilMinute(shift.endsAt);

      const cardNumber = cardNumberOfUid(input.uid);
      const onCard = await tx.cardIssue.findMany({
        where: { hotelId, card: { cardNumber }, state: { in: ['reserved', 'issued'] } },
        select: { id: true, state: true, attendantId: true, attendantDay: true, roomIds: true, validFrom: true, validUntil: true, blocks: true, uid: true },
      });
      // The same request again (a second click, a retry): the reservation made for it, the same data.
      const same = onCard.find(
        (i) =>
          i.state === 'reserved' &&
          i.attendantId === member.id &&
          i.attendantDay?.getTime() === dayDate(input.day).getTime() &&
          i.uid === input.uid &&
          sameRooms(i.roomIds, roomIds) &&
          i.validUntil?.getTime() === validUntil.getTime() &&
          i.validFrom.getTime() >= floorMinute(shift.startsAt).getTime() &&
          i.blocks !== null,
      );
      if (same) return { issueId: same.id, encoded: storedEncoding(same.blocks), newKeys: false };
      // Her own card (of this day or another) is written again; anyone else's is refused as in use.
      const issued = onCard.find((i) => i.state === 'issued');
      const replaces = issued && issued.attendantId === member.id ? issued.id : undefined;
      return reserveInTransaction(
        ctx,
        tx,
        {
          uid: input.uid,
          kind: 'management',
          mode: 'new',
          allRooms: false,
          note: '',
          replaces,
          stay: null,
          roomIds,
          validFrom,
          validUntil,
          attendant: { membershipId: member.id, day: dayDate(input.day), holderName: member.name || member.nickname },
        },
        now,
      );
    });
  } catch (error) {
    throw cardReserveError(error);
  }
  return reservedCard(ctx, result);
}

/** What the rota wants of an attendant's cards of a day: their rooms and shift (null: the member is gone). */
export interface RotaWants {
  shift: { startsAt: Date; endsAt: Date } | null;
  roomIds: number[];
}

/**
 * Brings an attendant's issued cards of a hotel day in line with the rota, inside the rota's sync
 * (the Membership row locked). Idempotent: a second run finds nothing to change. Answers the rooms
 * whose locks were asked to refuse a card (for the event), and whether anything changed.
 */
export async function syncAttendantCards(
  tx: Tx,
  hotelId: number,
  membershipId: number,
  day: string,
  wants: RotaWants | null,
  now: Date,
): Promise<{ changed: number; roomIds: number[] }> {
  const issues = await tx.cardIssue.findMany({
    where: { hotelId, attendantId: membershipId, attendantDay: dayDate(day), state: 'issued' },
    select: {
      id: true,
      roomIds: true,
      validFrom: true,
      validUntil: true,
      rewriteReasons: true,
      grants: { where: { doorLockId: null }, select: { id: true, roomId: true, deliveryState: true } },
    },
    orderBy: { id: 'asc' },
  });
  let changed = 0;
  const touched = new Set<number>();
  for (const issue of issues) {
    // A card past its end is refused by every lock on its own: nothing to send.
    if (issue.validUntil !== null && issue.validUntil.getTime() <= now.getTime()) continue;
    const liveGrants = issue.grants.filter((g) => g.roomId !== null && (LIVE_DELIVERY_STATES as readonly string[]).includes(g.deliveryState));
    const shift = wants?.shift ?? null;
    if (!shift) {
      // The shift removed, or the member: the card is refused at all its locks.
      await endIssues(tx, { id: issue.id, hotelId }, 'shift_ended', now);
      for (const g of liveGrants) touched.add(g.roomId!);
      changed += 1;
      continue;
    }
    const start = floorMinute(shift.startsAt);
    const end = ceilMinute(shift.endsAt);
    // Valid after the shift's end, or before a start still to come: the card would open outside the shift.
    const tooLong =
      issue.validUntil === null ||
      issue.validUntil.getTime() > end.getTime() ||
      (issue.validFrom.getTime() < start.getTime() && start.getTime() > now.getTime());
    if (tooLong) {
      await endIssues(tx, { id: issue.id, hotelId }, 'shift_changed', now);
      await tx.cardIssue.updateMany({ where: { id: issue.id, hotelId }, data: { rewriteReasons: ['shift_changed'] } });
      for (const g of liveGrants) touched.add(g.roomId!);
      changed += 1;
      continue;
    }
    // The shift is over: the card stops by its validity with it.
    if (shift.endsAt.getTime() <= now.getTime()) continue;
    const wanted = new Set(wants!.roomIds);
    const open = new Set<number>();
    for (const g of liveGrants) {
      if (wanted.has(g.roomId!)) {
        open.add(g.roomId!);
        continue;
      }
      // A room taken from the attendant: the card is refused at that room's lock, and opens the others still.
      await tx.cardGrant.updateMany({ where: { id: g.id, hotelId }, data: revoke('reassigned') });
      touched.add(g.roomId!);
      changed += 1;
    }
    const reasons: TAttendantCardRewriteReason[] = [];
    if (issue.roomIds.some((r) => !open.has(r))) reasons.push('rooms_removed');
    if ([...wanted].some((r) => !open.has(r))) reasons.push('rooms_added');
    const shortStart = issue.validFrom.getTime() > Math.max(start.getTime(), floorMinute(now).getTime());
    if (shortStart || issue.validUntil!.getTime() < end.getTime()) reasons.push('shift_changed');
    if (reasons.join() !== issue.rewriteReasons.join()) {
      await tx.cardIssue.updateMany({ where: { id: issue.id, hotelId }, data: { rewriteReasons: reasons } });
      changed += 1;
    }
  }
  return { changed, roomIds: [...touched] };
}

/**
 * The attendants' cards of a hotel day, for the supervisor's page: each attendant's last card of the
 * day that is issued, or that the rota ended (a shift cut short, to be written again); the rooms it
 * still opens and why it must be written again.
 */
export async function attendantCardsOf(ctx: AuthedContext, hotelId: number, day: string): Promise<TAttendantCard[]> {
  const issues = await ctx.deps.prisma.cardIssue.findMany({
    where: { hotelId, attendantDay: dayDate(day), attendantId: { not: null }, state: { in: ['issued', 'ended'] } },
    select: {
      id: true,
      attendantId: true,
      state: true,
      endReason: true,
      validFrom: true,
      validUntil: true,
      rewriteReasons: true,
      card: { select: { cardNumber: true } },
      grants: {
        // The rooms the reader sees (a supervisor of some rooms is told of no other room).
        where: { doorLockId: null, deliveryState: { in: [...LIVE_DELIVERY_STATES] }, room: roomScope(ctx.actor) },
        select: { roomId: true, room: { select: { name: true } } },
        orderBy: { roomId: 'asc' },
      },
    },
    orderBy: { id: 'desc' },
    take: 2000,
  });
  const seen = new Set<number>();
  const cards: TAttendantCard[] = [];
  for (const i of issues) {
    if (seen.has(i.attendantId!)) continue;
    seen.add(i.attendantId!);
    if (i.state === 'ended' && i.endReason !== 'shift_changed') continue;
    cards.push({
      membershipId: i.attendantId!,
      issueId: i.id,
      cardNumber: i.card.cardNumber,
      state: i.state as 'issued' | 'ended',
      validFrom: i.validFrom.toISOString(),
      validUntil: i.validUntil?.toISOString() ?? null,
      rooms: i.state === 'issued' ? i.grants.map((g) => ({ id: g.roomId!, name: g.room?.name ?? '' })) : [],
      rewriteReasons: i.rewriteReasons as TAttendantCardRewriteReason[],
    });
  }
  return cards;
}
