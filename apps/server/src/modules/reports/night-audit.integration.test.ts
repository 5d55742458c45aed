/**
 * Issue 36: the day report by the night a room is sold for, and the close as a night audit
 * (docs/reports.md, docs/journal.md). Room revenue, ADR and RevPAR are the journal's nights, whenever
 * they were posted; a closed night never changes (what a later change would book on it lands on the
 * open day); a no-show counts on the day the guest was due, and the close releases the day's no-shows
 * first; a day whose trial balance does not tie is not closed.
 */
import { addDays } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobContext } from '../../context';
import { insertStay } from '../../test/factories';
import { createTestContext, type TestContext } from '../../test/harness';
import { trialBalanceOf } from '../journal/trial-balance';
import { noonHotel, refusal, stayIn } from '../../test/ledger-kit';
import { getFolio } from '../orders/settlement.service';
import { updateHotelInfo } from '../hotel/hotel.service';
import { renewStay } from '../stays/renewal';
import { dayReport, reportRange } from './day-report';
import { closeDay, closeDaysOnTime } from './day-close';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

const num = (v: bigint | number | null | undefined) => Number(v ?? 0);

/** The room revenue the hotel's journal books per night (positive), nights with none left out. */
async function nights(hotelId: number) {
  const rows = await ctx.deps.prisma.$queryRaw<{ date: string; amount: bigint }[]>`
    SELECT "serviceDate" AS "date", -sum("amount") AS "amount" FROM "JournalLine"
    WHERE "hotelId" = ${hotelId} AND "account" = 'revenue_rooms' GROUP BY 1 HAVING sum("amount") <> 0 ORDER BY 1`;
  return rows.map((r) => [r.date, num(r.amount)]);
}

describe('room revenue by the night it is for', () => {
  it('reports each night its own revenue, ADR and RevPAR, whenever the charge was posted', async () => {
    const h = await noonHotel(ctx);
    // Two nights checked in yesterday morning: posted yesterday, one night each.
    const stay = await stayIn(h.staff, h.rooms[0].id, { from: -26, to: 22 });
    expect(await nights(h.hotel.id)).toEqual([
      [h.yesterday, 20_000],
      [h.today, 20_000],
    ]);
    const range = await reportRange(h.owner, { from: h.yesterday, to: h.today });
    expect(range.days.map((d) => [d.rooms.sold, d.revenue.roomCharges, d.adr, d.revpar])).toEqual([
      [1, 20_000, 20_000, 6_667],
      [1, 20_000, 20_000, 6_667],
    ]);
    // A night added today at a dearer rate is tomorrow's revenue, not today's.
    const tomorrow = addDays(h.today, 1);
    await ctx.deps.prisma.roomDatePrice.create({
      data: { hotelId: h.hotel.id, roomId: h.rooms[0].id, date: new Date(`${tomorrow}T00:00:00Z`), price: 35_000 },
    });
    await renewStay(h.staff, { stayId: stay.id, expectedCheckOutAt: new Date(Date.parse(stay.expectedCheckOutAt) + 86_400_000) });
    expect((await dayReport(h.owner, { date: h.today })).revenue.roomCharges).toBe(20_000);
    expect((await dayReport(h.owner, { date: tomorrow })).revenue.roomCharges).toBe(35_000);
  });

  it('never changes a closed night: a later re-spread keeps it, and a night booked on a closed day lands on the open one', async () => {
    const h = await noonHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id, { from: -26, to: 22 });
    const closed = await closeDay(h.owner, { date: h.yesterday });
    expect(closed.revenue.roomCharges).toBe(20_000);
    const before = await trialBalanceOf(ctx.deps.prisma, h.hotel.id, h.yesterday);
    // The rate of last night is changed afterwards, then a night is added: the nights still open carry the
    // rest of the stay's price by their rates; last night keeps what it booked.
    const tomorrow = addDays(h.today, 1);
    for (const [date, price] of [
      [h.yesterday, 60_000],
      [tomorrow, 35_000],
    ] as const) {
      await ctx.deps.prisma.roomDatePrice.create({ data: { hotelId: h.hotel.id, roomId: h.rooms[0].id, date: new Date(`${date}T00:00:00Z`), price } });
    }
    await renewStay(h.staff, { stayId: stay.id, expectedCheckOutAt: new Date(Date.parse(stay.expectedCheckOutAt) + 86_400_000) });
    expect(await nights(h.hotel.id)).toEqual([
      [h.yesterday, 20_000],
      [h.today, 20_000],
      [tomorrow, 35_000],
    ]);
    expect(await trialBalanceOf(ctx.deps.prisma, h.hotel.id, h.yesterday)).toEqual(before);
    // A room charge written by SQL for last night (an import): the database books it on the open day.
    const folio = await getFolio(h.staff, { stayId: stay.id });
    await ctx.deps.prisma.orderEntry.create({
      data: {
        hotelId: h.hotel.id,
        currency: 'CNY',
        stayId: stay.id,
        roomId: h.rooms[0].id,
        folioId: folio.folioId!,
        kind: 'room_charge',
        amount: -5_000,
        nights: [{ date: h.yesterday, amount: 5_000 }],
      },
    });
    expect(await nights(h.hotel.id)).toEqual([
      [h.yesterday, 20_000],
      [h.today, 25_000],
      [tomorrow, 35_000],
    ]);
    expect(await trialBalanceOf(ctx.deps.prisma, h.hotel.id, h.yesterday)).toEqual(before);
    expect((await dayReport(h.owner, { date: h.yesterday })).revenue.roomCharges).toBe(20_000);
  });
});

describe('the close as a night audit', () => {
  it('counts a no-show on the day the guest was due, and releases the day’s no-shows before freezing it', async () => {
    const h = await noonHotel(ctx);
    // Due yesterday, no-show time at midnight: still awaited (the sweep has not run), then released by the close.
    const due = await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: h.rooms[1].id, checkInAt: h.at(-1, '14:00'), expectedCheckOutAt: h.at(0, '12:00') });
    await ctx.deps.prisma.stay.update({ where: { id: due.id }, data: { status: 'reserved', awaitsArrival: true, noShowAt: h.at(0, '00:00') } });
    // Due the day before, released this morning: that day's no-show, not today's.
    const late = await insertStay(ctx.deps, {
      hotelId: h.hotel.id,
      roomId: h.rooms[2].id,
      checkInAt: h.at(-2, '14:00'),
      expectedCheckOutAt: h.at(-1, '12:00'),
    });
    await ctx.deps.prisma.stay.update({
      where: { id: late.id },
      data: { status: 'no_show', awaitsArrival: true, noShowAt: h.at(-1, '00:00'), checkedOutAt: h.at(0, '09:00') },
    });
    const range = await reportRange(h.owner, { from: addDays(h.yesterday, -1), to: h.today });
    expect(range.days.map((d) => d.noShows)).toEqual([1, 0, 0]);

    const closed = await closeDay(h.owner, { date: h.yesterday });
    expect(closed).toMatchObject({ closed: true, noShows: 1 });
    expect(await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: due.id }, select: { status: true } })).toEqual({ status: 'no_show' });
    const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { hotelId: h.hotel.id, action: 'stay.noShow', entityId: String(due.id) } });
    expect(audit.after).toMatchObject({ status: 'no_show', by: 'close' });
    expect((await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { hotelId: h.hotel.id, action: 'order.closeDay' } })).after).toMatchObject({
      noShowsReleased: 1,
    });
  });

  it('does not close a day whose trial balance does not tie, by hand or at the set hour', async () => {
    const h = await noonHotel(ctx);
    await stayIn(h.staff, h.rooms[0].id, { from: -26, to: 22 });
    // A bill's entry written behind the journal's back (its triggers off, as a restore or a bad import could).
    const folio = await ctx.deps.prisma.folio.findFirstOrThrow({ where: { hotelId: h.hotel.id } });
    await ctx.deps.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL session_replication_role = replica`);
      await tx.$executeRawUnsafe(
        `INSERT INTO "OrderEntry" ("hotelId", "currency", "folioId", "stayId", "roomId", "kind", "amount", "note", "createdAt") VALUES ($1, 'CNY', $2, $3, $4, 'charge', -1000, 'Minibar', $5)`,
        h.hotel.id,
        folio.id,
        folio.stayId,
        h.rooms[0].id,
        h.at(-1, '18:00'),
      );
    });
    expect((await trialBalanceOf(ctx.deps.prisma, h.hotel.id, h.yesterday)).checks.foliosOff).toEqual([folio.id]);
    expect(await refusal(closeDay(h.owner, { date: h.yesterday }))).toMatchObject({ code: 'CONFLICT', key: 'reports.validation.booksDoNotTie' });
    await updateHotelInfo(h.owner, { dayCloseTime: '04:00' });
    expect(await closeDaysOnTime(jobContext(ctx.deps, 'stay.sweep', 'job:test'), new Date(), { hotelId: h.hotel.id })).toBe(0);
    expect(await ctx.deps.prisma.dayClose.count({ where: { hotelId: h.hotel.id } })).toBe(0);
  });
});
