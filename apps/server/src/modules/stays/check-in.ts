import { ACTIVE_STAY_STATES, ZCheckInInput, minPriceMinor, type TCheckInInput, type TCheckInWarning } from '@console/shared';
import type { AuthedContext } from '../../context';
import type { TPrisma } from '../../db/client';
import { isConstraint } from '../../db/errors';
import { idempotent } from '../../db/idempotency';
import { lockRooms, transaction, type Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { loadRates } from '../price/price.service';
import { priceStay } from '../price/pricing';
import { findRoom } from '../base/room-access';
import { followCredentials } from '../credentials/delivery';
import { revokeOldCardsOfGuests } from '../credentials/revocation';
import { guestData, guestSelect, newStayColumnsSelect, roomOccupied, staySelect, toStayDto, type StayDto, type StayRow } from '../base/stay-dto';
import { followStayJobs } from './stay-schedule';
import { postStayMoney } from '../orders/room-charge';
import { recordEvent } from '../../db/events';
import { refuseOutOfOrder } from '../housekeeping/out-of-order';

type Db = TPrisma | Tx;

/** The active stay of the room that overlaps [from, to) (what the exclusion constraint refuses), if any. */
async function findOverlappingStay(db: Db, hotelId: number, roomId: number, from: Date, to: Date, exceptStayId?: number) {
  return db.stay.findFirst({
    where: {
      hotelId,
      roomId,
      status: { in: [...ACTIVE_STAY_STATES] },
      checkInAt: { lt: to },
      expectedCheckOutAt: { gt: from },
      ...(exceptStayId ? { id: { not: exceptStayId } } : {}),
    },
    orderBy: { checkInAt: 'asc' },
    // Its guest is read only when there is one to name (a nested select costs a statement even for no stay).
    select: { id: true, status: true, checkInAt: true, expectedCheckOutAt: true },
  });
}

/** Whether an active stay of the room overlaps [from, to) (what the exclusion constraint refuses). */
export async function hasOverlappingStay(db: Db, hotelId: number, roomId: number, from: Date, to: Date, exceptStayId?: number): Promise<boolean> {
  return (await findOverlappingStay(db, hotelId, roomId, from, to, exceptStayId)) !== null;
}

/**
 * Refuses [from, to) in the room when an active stay overlaps it, naming that stay: whose, and
 * from when to when in the hotel's time zone (issue 26 §6: the clerk learns when the room is free).
 */
export async function refuseOverlap(
  db: Db,
  actor: { hotelId: number; timeZone: string },
  roomId: number,
  from: Date,
  to: Date,
  exceptStayId?: number,
): Promise<void> {
  const found = await findOverlappingStay(db, actor.hotelId, roomId, from, to, exceptStayId);
  // A room out of order or out of service on one of the nights is refused too (docs/housekeeping.md).
  if (!found) return refuseOutOfOrder(db, actor, roomId, from, to);
  const guest = await db.stayGuest.findFirst({ where: { hotelId: actor.hotelId, stayId: found.id, isPrimary: true }, select: { name: true } });
  throw roomOccupied(undefined, {
    status: found.status,
    guest: guest?.name ?? null,
    checkInAt: found.checkInAt,
    expectedCheckOutAt: found.expectedCheckOutAt,
    timeZone: actor.timeZone,
  });
}

/** Guests of other rooms' stays that have begun and not ended, with the same ID number or mobile. */
export async function guestsInOtherRooms(
  db: Db,
  hotelId: number,
  roomId: number,
  guests: { idNumber: string | null; mobile: string | null }[],
  now: Date,
  exceptStayId?: number,
) {
  const idNumbers = guests.map((g) => g.idNumber).filter((v): v is string => Boolean(v));
  const mobiles = guests.map((g) => g.mobile).filter((v): v is string => Boolean(v));
  if (!idNumbers.length && !mobiles.length) return [];
  // One statement (the same filter as a nested findMany, whose relations cost a statement each).
  return db.$queryRaw<{ guest: string; room: string }[]>`
    SELECT g."name" AS "guest", r."name" AS "room"
    FROM "StayGuest" g
    JOIN "Stay" s ON s."hotelId" = g."hotelId" AND s."id" = g."stayId"
    JOIN "Room" r ON r."hotelId" = s."hotelId" AND r."id" = s."roomId"
    WHERE g."hotelId" = ${hotelId}
      AND (g."idNumber" = ANY(${idNumbers}::text[]) OR g."mobile" = ANY(${mobiles}::text[]))
      AND s."status" = ANY(${[...ACTIVE_STAY_STATES]}::"StayStatus"[])
      AND s."checkInAt" <= ${now}
      AND s."roomId" <> ${roomId}
      AND s."id" <> ${exceptStayId ?? 0}
    ORDER BY g."id"`;
}

const byKey = (db: Db, hotelId: number, idempotencyKey: string) =>
  db.stay.findUnique({ where: { hotelId_idempotencyKey: { hotelId, idempotencyKey } }, select: staySelect });

/**
 * Checks guests into a room (spec §3-§5); with a check-in time ahead, a check-in dated ahead: the
 * room is held from then and the stay begins by itself at that time (the `arrive` job: the guest
 * goes to the room with a code, as legacy clients expect). A reservation for a guest who checks in
 * at the desk is `createReservation` (docs/room-status.md "Reservations").
 *
 * The same `idempotencyKey` always gives the same stay, however often and however simultaneously
 * it is sent: the room is locked before anything is decided, and the key is looked up under that
 * lock. An overlapping stay is refused ("room already occupied", also by the database's exclusion
 * constraint). A dirty room, or a guest already in another room, needs the user's confirmation
 * (CONFIRMATION_REQUIRED with the warnings), then `acknowledge`.
 */
export async function checkIn(ctx: AuthedContext, raw: TCheckInInput): Promise<StayDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'stay.manage');
  const input = ZCheckInInput.parse(raw);
  const now = new Date();
  // The stay this key made: an earlier copy of this check-in's, or one that won a race with it.
  const made = async () => {
    const stay = await byKey(deps.prisma, actor.hotelId, input.idempotencyKey);
    return stay && { stay, isNew: false };
  };
  let result: { stay: StayRow; isNew: boolean };
  try {
    result = await idempotent(made, () => write());
  } catch (error) {
    if (isConstraint(error, 'Stay_no_overlap')) throw roomOccupied(error);
    throw error;
  }
  return toStayDto(result.stay, now);

  async function write(): Promise<{ stay: StayRow; isNew: boolean }> {
    const room = await findRoom(ctx, input.roomId, { id: true, name: true, cleanStatus: true, maintenance: true });
    if (room.maintenance !== 'none') throw new AppError('CONFLICT', { messageKey: 'stay.errors.roomMaintain', params: { room: room.name } });
    if (input.expectedCheckOutAt <= now)
      throw new AppError('VALIDATION', { messageKey: 'validation.checkOutInPast', fields: { expectedCheckOutAt: 'validation.checkOutInPast' } });
    // A room out of order on one of the nights is refused at once (again under the room's lock below).
    await refuseOutOfOrder(deps.prisma, actor, room.id, input.checkInAt, input.expectedCheckOutAt);
    // Most losers of a race, and every late attempt, are told at once, without a transaction.
    if (await hasOverlappingStay(deps.prisma, actor.hotelId, room.id, input.checkInAt, input.expectedCheckOutAt)) {
      // Unless the stay in the way is the one a copy of this very check-in has just made.
      const twin = await made();
      if (twin) return twin;
      await refuseOverlap(deps.prisma, actor, room.id, input.checkInAt, input.expectedCheckOutAt);
    }

    const warnings: TCheckInWarning[] = [];
    const elsewhere = await guestsInOtherRooms(deps.prisma, actor.hotelId, room.id, input.guests, now);
    if (elsewhere.length) warnings.push('guest_in_other_room');
    if (room.cleanStatus === 'dirty') warnings.push('room_dirty');
    const unconfirmed = warnings.filter((w) => !input.acknowledge.includes(w));
    if (unconfirmed.length) {
      // A copy of this very check-in may have just made the stay: that is the answer, not a warning.
      const twin = await made();
      if (twin) return twin;
      const askingAboutGuest = unconfirmed[0] === 'guest_in_other_room';
      throw new AppError('CONFIRMATION_REQUIRED', {
        messageKey: askingAboutGuest ? 'stay.warnings.guestInOtherRoom' : 'stay.warnings.roomDirty',
        params: askingAboutGuest ? { guest: elsewhere[0]?.guest, room: elsewhere[0]?.room } : { room: room.name },
        details: { warnings: unconfirmed, elsewhere },
      });
    }

    // The room's rates the price is quoted at, which the room charge is then spread by (not read again).
    const rates =
      input.priceMode === 'fixed'
        ? undefined
        : { roomId: room.id, rates: await loadRates(deps.prisma, room.id, actor.timeZone, input.checkInAt, input.expectedCheckOutAt) };
    const price = rates ? priceStay(input.checkInAt, input.expectedCheckOutAt, actor.timeZone, rates.rates).total : input.fixedPrice!;
    if (input.priceMode === 'fixed' && price < minPriceMinor(actor.currency))
      throw new AppError('VALIDATION', { messageKey: 'validation.priceMin', fields: { fixedPrice: 'validation.priceMin' } });

    return transaction(deps, async (tx) => {
      await lockRooms(tx, actor.hotelId, [room.id]);
      const twin = await byKey(tx, actor.hotelId, input.idempotencyKey);
      if (twin) return { stay: twin, isNew: false };
      await refuseOverlap(tx, actor, room.id, input.checkInAt, input.expectedCheckOutAt);
      const stay = await tx.stay
        .create({
          data: {
            hotelId: actor.hotelId,
            roomId: room.id,
            status: input.checkInAt > now ? 'reserved' : 'in_house',
            checkInAt: input.checkInAt,
            expectedCheckOutAt: input.expectedCheckOutAt,
            lengthUnit: input.lengthUnit,
            breakfast: input.breakfast,
            disableOldCards: input.disableOldCards,
            idCardUnlock: input.idCardUnlock,
            depositAmount: input.depositAmount,
            priceAmount: price,
            remark: input.remark,
            idempotencyKey: input.idempotencyKey,
            createdByAccountId: actor.accountId,
          },
          select: newStayColumnsSelect,
        })
        .then((row) => ({ ...row, passwords: [] }));
      const guests = await tx.stayGuest.createManyAndReturn({
        data: input.guests.map((g, i) => guestData(actor.hotelId, stay.id, g, i === 0)),
        select: guestSelect,
      });
      const disabledCards = input.disableOldCards ? await revokeOldCardsOfGuests(tx, actor.hotelId, stay.id, input.guests) : 0;
      // The bill from the first moment: the stay's price once it has begun, the deposit received.
      await postStayMoney(
        tx,
        ctx,
        { ...stay, room: { name: room.name } },
        input.depositMethod ? { amount: input.depositAmount, method: input.depositMethod } : null,
        rates,
      );
      await recordEvent(tx, {
        hotelId: actor.hotelId,
        kind: stay.status === 'reserved' ? 'stay.reserved' : 'stay.checkedIn',
        roomIds: [room.id],
        stayId: stay.id,
      });
      // The old cards of the guests, revoked above, come off the locks.
      if (input.disableOldCards) followCredentials(tx, deps, actor.hotelId);
      await recordAudit(tx, ctx, {
        action: 'stay.checkIn',
        entityType: 'Stay',
        entityId: stay.id,
        after: {
          roomId: room.id,
          checkInAt: input.checkInAt.toISOString(),
          expectedCheckOutAt: input.expectedCheckOutAt.toISOString(),
          price,
          guests: input.guests.length,
          disabledCards,
          acknowledged: input.acknowledge,
        },
      });
      // The new stay as the DTO needs it, from what was just written (no read back).
      followStayJobs(tx, deps, stay, actor.timeZone);
      return { stay: { ...stay, room: { name: room.name }, movedTo: [], cardIssues: [], guests }, isNew: true };
    });
  }
}
