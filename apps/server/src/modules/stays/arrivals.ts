import { ZArrivalsInput, addDays, localDate, zonedToInstant } from '@console/shared';
import type { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client';
import type { AuthedContext } from '../../context';
import { requirePermission } from '../../permissions';
import { roomScope } from '../base/room-access';
import { staySelect, toStayDto, type StayDto } from '../base/stay-dto';
import { withBills, type StayBill } from '../orders/stay-bills';
import { beginsVisit } from './visit-start';

/** How many stays each list of a day's arrivals holds at most (the totals count them all). */
export const ARRIVALS_LISTED = 200;

/** An arrival with its visit's bill: the deposit shown is the one the folio holds (`bill.depositHeld`). */
export type ArrivalDto = StayDto & { bill: StayBill };

export interface ArrivalsDto {
  date: string;
  timeZone: string;
  /** Reservations expected that day (and, today, those awaiting a late guest), earliest first. */
  expected: ArrivalDto[];
  expectedTotal: number;
  /** Guests whose visit began that day: reservations that arrived and walk-ins (not a room change). */
  arrived: ArrivalDto[];
  arrivedTotal: number;
  /** Reservations that became no-shows that day (at the midnight that starts it, with the default no-show time). */
  noShows: ArrivalDto[];
  noShowsTotal: number;
}

/**
 * The arrivals of a hotel day (default today, in the hotel's zone), over the rooms the actor may
 * see: what the today board lists with "arrive" and "cancel" on each expected row. The states are
 * those of `effectiveState` at this moment, whatever the jobs have written yet.
 */
export async function listArrivals(ctx: AuthedContext, raw: z.input<typeof ZArrivalsInput> = {}): Promise<ArrivalsDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'room.read');
  const input = ZArrivalsInput.parse(raw);
  const now = new Date();
  const today = localDate(now, actor.timeZone);
  const date = input.date ?? today;
  const dayStart = zonedToInstant(`${date}T00:00`, actor.timeZone)!;
  const dayEnd = zonedToInstant(`${addDays(date, 1)}T00:00`, actor.timeZone)!;
  const scope: Prisma.StayWhereInput = { hotelId: actor.hotelId, room: roomScope(actor) };
  const notNoShowYet: Prisma.StayWhereInput = { OR: [{ noShowAt: null }, { noShowAt: { gt: now } }] };
  const expected: Prisma.StayWhereInput = {
    ...scope,
    status: 'reserved',
    checkInAt: { lt: dayEnd },
    expectedCheckOutAt: { gt: now },
    AND: [
      // That day's, and today the late guests still awaited from an earlier day.
      { OR: [{ checkInAt: { gte: dayStart } }, ...(date === today ? [{ awaitsArrival: true }] : [])] },
      // Not begun by the clock (a check-in dated ahead whose time has come is in house), not a no-show by it.
      {
        OR: [
          { awaitsArrival: true, ...notNoShowYet },
          { awaitsArrival: false, checkInAt: { gt: now } },
        ],
      },
    ],
  };
  // Every visit begun that day, a reservation's arrival or a walk-in (a room change is no arrival, a
  // reservation moved before its guest came is one): the
  // same guests as Today's "arrived today" figure (today.service.ts), so the list and the count agree.
  const arrived: Prisma.StayWhereInput = {
    ...scope,
    checkInAt: { gte: dayStart, lt: dayEnd, lte: now },
    AND: [
      beginsVisit,
      // Had its guest: a reservation moved before its guest came (moved, never checked out) did not.
      {
        OR: [
          { status: { in: ['in_house', 'expired', 'checked_out'] } },
          { status: 'moved', checkedOutAt: { not: null } },
          { status: 'reserved', awaitsArrival: false },
        ],
      },
    ],
  };
  // No-shows of the day: ended as such, or (before the job has run) awaiting past their no-show time.
  const noShows: Prisma.StayWhereInput = {
    ...scope,
    awaitsArrival: true,
    noShowAt: { gte: dayStart, lt: dayEnd },
    OR: [{ status: 'no_show' }, { status: 'reserved', noShowAt: { lte: now } }],
  };
  const list = (where: Prisma.StayWhereInput, orderBy: Prisma.StayOrderByWithRelationInput[]) =>
    Promise.all([deps.prisma.stay.findMany({ where, select: staySelect, orderBy, take: ARRIVALS_LISTED }), deps.prisma.stay.count({ where })]);
  const [[e, eTotal], [a, aTotal], [n, nTotal]] = await Promise.all([
    list(expected, [{ checkInAt: 'asc' }, { id: 'asc' }]),
    list(arrived, [{ checkInAt: 'desc' }, { id: 'desc' }]),
    list(noShows, [{ noShowAt: 'desc' }, { id: 'desc' }]),
  ]);
  // The three lists' bills in one statement.
  const billed = await withBills(
    deps.prisma,
    actor.hotelId,
    [...e, ...a, ...n].map((r) => toStayDto(r, now)),
  );
  return {
    date,
    timeZone: actor.timeZone,
    expected: billed.slice(0, e.length),
    expectedTotal: eTotal,
    arrived: billed.slice(e.length, e.length + a.length),
    arrivedTotal: aTotal,
    noShows: billed.slice(e.length + a.length),
    noShowsTotal: nTotal,
  };
}
