import { ZDayReportInput } from '@console/shared';
import type { TAuditChecks } from '@console/shared/dto';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { businessDateOf } from '../journal/business-date';
import { trialBalanceOf } from '../journal/trial-balance';
import { hotelDay } from '../orders/cash-lines';
import { firstNight } from '../orders/no-show-fee';
import { requireManager } from './day-report';

/**
 * The night audit's checks of a day (docs/reports.md "The day close"), read before the close: whether
 * its books tie, the cashier shifts still open, the arrivals that did not come (and which of them the
 * close will end as no-shows, with the fee the hotel's policy charges), the guests still in house past
 * their departure, and the bills of reservations that never began still holding or owing money. For
 * managers of the whole hotel, as the close. The first 50 of each list.
 */
const LISTED = 50;

const primaryGuest = `coalesce((SELECT g."name" FROM "StayGuest" g WHERE g."stayId" = s."id" ORDER BY g."isPrimary" DESC, g."id" LIMIT 1), '')`;

export async function auditChecks(ctx: AuthedContext, raw: z.input<typeof ZDayReportInput>): Promise<TAuditChecks> {
  const { actor, deps } = ctx;
  requireManager(actor);
  const { date } = ZDayReportInput.parse(raw);
  const db = deps.prisma;
  const hotelId = actor.hotelId;
  const { from, to } = hotelDay(date, actor.timeZone);
  const now = new Date();
  const [hotel, closed, businessDate, books, shifts, arrivals, departures, bills] = await Promise.all([
    db.hotel.findUniqueOrThrow({ where: { id: hotelId }, select: { noShowPolicy: true } }),
    db.dayClose.findUnique({ where: { hotelId_date: { hotelId, date } }, select: { id: true } }),
    businessDateOf(db, hotelId, now),
    trialBalanceOf(db, hotelId, date),
    db.cashierShift.findMany({
      where: { hotelId, closedAt: null, openedAt: { lt: to } },
      orderBy: { openedAt: 'asc' },
      take: LISTED,
      select: { id: true, openedAt: true, openingFloat: true, account: { select: { nickname: true } } },
    }),
    db.$queryRawUnsafe<{ stayId: number; roomId: number; roomName: string; guestName: string; noShowAt: Date | null }[]>(
      `SELECT s."id" AS "stayId", s."roomId", r."name" AS "roomName", ${primaryGuest} AS "guestName", s."noShowAt"
         FROM "Stay" s JOIN "Room" r ON r."id" = s."roomId"
        WHERE s."hotelId" = $1 AND s."status" = 'reserved' AND s."awaitsArrival" AND s."checkInAt" >= $2 AND s."checkInAt" < $3
        ORDER BY s."checkInAt", s."id" LIMIT ${LISTED}`,
      hotelId,
      from,
      to,
    ),
    db.$queryRawUnsafe<{ stayId: number; roomId: number; roomName: string; guestName: string; expectedCheckOutAt: Date }[]>(
      `SELECT s."id" AS "stayId", s."roomId", r."name" AS "roomName", ${primaryGuest} AS "guestName", s."expectedCheckOutAt"
         FROM "Stay" s JOIN "Room" r ON r."id" = s."roomId"
        WHERE s."hotelId" = $1 AND s."status" IN ('in_house', 'expired') AND s."expectedCheckOutAt" < $2
        ORDER BY s."expectedCheckOutAt", s."id" LIMIT ${LISTED}`,
      hotelId,
      to,
    ),
    // The open bills whose visit's latest stay never began (a no-show, a cancellation), with a balance.
    db.$queryRawUnsafe<{ stayId: number; roomId: number; roomName: string; guestName: string; folioId: number; balance: bigint }[]>(
      `SELECT s."id" AS "stayId", s."roomId", r."name" AS "roomName", ${primaryGuest} AS "guestName", f."id" AS "folioId", b.balance
         FROM "Folio" f
         JOIN LATERAL (SELECT s.* FROM "Stay" s WHERE s."hotelId" = f."hotelId" AND s."visitStayId" = f."stayId" ORDER BY s."id" DESC LIMIT 1) s ON s."status" IN ('no_show', 'ended')
         JOIN LATERAL (SELECT sum(e."amount") AS balance FROM "OrderEntry" e WHERE e."hotelId" = f."hotelId" AND e."folioId" = f."id") b ON b.balance <> 0
         JOIN "Room" r ON r."id" = s."roomId"
        WHERE f."hotelId" = $1 AND f."settledAt" IS NULL AND f."owedAt" IS NULL
        ORDER BY s."checkInAt", s."id" LIMIT ${LISTED}`,
      hotelId,
    ),
  ]);
  const charging = hotel.noShowPolicy === 'charge_first_night';
  const fees = await Promise.all(
    arrivals.map(async (a) => (charging ? Math.max(0, (await firstNight(db, hotelId, a.stayId, actor.timeZone)).first?.amount ?? 0) : 0)),
  );
  return {
    date,
    closed: closed !== null,
    businessDate,
    over: now >= to,
    noShowPolicy: charging ? 'charge_first_night' : 'release',
    ties: books.ties,
    foliosOff: books.checks.foliosOff.length,
    openShifts: shifts.map((s) => ({ id: s.id, openedAt: s.openedAt.toISOString(), openedBy: s.account.nickname, openingFloat: s.openingFloat })),
    arrivals: arrivals.map((a, i) => ({
      stayId: a.stayId,
      roomId: a.roomId,
      roomName: a.roomName,
      guestName: a.guestName,
      noShowAt: a.noShowAt?.toISOString() ?? null,
      due: a.noShowAt !== null && a.noShowAt <= now,
      fee: fees[i]!,
    })),
    departures: departures.map((d) => ({ ...d, expectedCheckOutAt: d.expectedCheckOutAt.toISOString() })),
    bills: bills.map((b) => ({
      stayId: b.stayId,
      roomId: b.roomId,
      roomName: b.roomName,
      guestName: b.guestName,
      folioId: b.folioId,
      balance: Number(b.balance),
    })),
  };
}
