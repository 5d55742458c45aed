/**
 * Deposits held and bills owing as each day ended (issue 36 §5, docs/reports.md "A day's figures"):
 * a past day shows what the hotel held at its end, not what it holds today; every day of a range its
 * own; a day closed late freezes its own, not the day of the close.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDate, zonedToInstant } from '@console/shared';
import { insertStay, zoneAtLocalHour } from '../../test/factories';
import { createTestContext, type TestContext } from '../../test/harness';
import { ledgerHotel } from '../../test/ledger-kit';
import { closeDay } from './day-close';
import { dayReport, reportRange } from './day-report';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/**
 * A hotel where it is noon. Two days ago: a deposit of 300.00 for a booking next week (bill A), one of
 * 50.00 (bill B), and a guest left owing 80.00 (bill C). Yesterday: 100.00 of A's deposit refunded, B's
 * deposit corrected as never received. Today: the rest of A refunded and A settled, C paid and settled.
 * And bill D: a deposit of 100.00 two days ago that paid its night, the bill settled yesterday (the
 * deposit kept as the payment: held until the bill is settled, then no more).
 */
async function history() {
  const h = await ledgerHotel(ctx, ['R1', 'R2', 'R3', 'R4']);
  const timeZone = zoneAtLocalHour(12);
  await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone } });
  for (const c of [h.owner, h.staff]) c.actor.timeZone = timeZone;
  const today = localDate(new Date(), timeZone);
  const at = (days: number, time: string) => zonedToInstant(`${addDays(today, days)}T${time}`, timeZone)!;
  const [r1, r2, r3, r4] = h.rooms;
  const bill = async (roomId: number, from: Date, to: Date, status: 'reserved' | 'in_house' | 'checked_out') => {
    const stay = await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId, checkInAt: from, expectedCheckOutAt: to, status });
    const folio = await ctx.deps.prisma.folio.create({ data: { hotelId: h.hotel.id, stayId: stay.id, currency: 'CNY', createdAt: at(-3, '08:00') } });
    const entry = (data: Record<string, unknown>, when: Date) =>
      ctx.deps.prisma.orderEntry.create({
        data: {
          hotelId: h.hotel.id,
          currency: 'CNY',
          stayId: stay.id,
          roomId,
          folioId: folio.id,
          createdByAccountId: h.staffId,
          createdAt: when,
          ...data,
        } as never,
      });
    return { stay, folio, entry };
  };
  const a = await bill(r1.id, at(6, '14:00'), at(8, '12:00'), 'reserved');
  const depositA = await a.entry({ kind: 'deposit', method: 'cash', amount: 30_000 }, at(-2, '10:00'));
  const b = await bill(r2.id, at(5, '14:00'), at(6, '12:00'), 'reserved');
  const depositB = await b.entry({ kind: 'deposit', method: 'wechat', amount: 5_000 }, at(-2, '11:00'));
  const c = await bill(r3.id, at(-4, '14:00'), at(-2, '12:00'), 'checked_out');
  await c.entry({ kind: 'room_charge', amount: -8_000 }, at(-4, '14:05'));
  await ctx.deps.prisma.folio.update({ where: { id: c.folio.id }, data: { owedAt: at(-2, '12:00'), owedAmount: 8_000, owedReason: 'unpaid' } });

  const d = await bill(r4!.id, at(-2, '14:00'), at(-1, '12:00'), 'checked_out');
  await d.entry({ kind: 'deposit', method: 'cash', amount: 10_000 }, at(-2, '14:00'));
  await d.entry({ kind: 'room_charge', amount: -10_000 }, at(-2, '14:05'));
  await ctx.deps.prisma.folio.update({ where: { id: d.folio.id }, data: { settledAt: at(-1, '12:00') } });

  await a.entry({ kind: 'refund', method: 'cash', amount: -10_000, linkedEntryId: depositA.id, note: 'Fewer nights' }, at(-1, '09:00'));
  await b.entry({ kind: 'correction', amount: -5_000, linkedEntryId: depositB.id, note: 'Never received' }, at(-1, '10:00'));

  await a.entry({ kind: 'refund', method: 'cash', amount: -20_000, linkedEntryId: depositA.id, note: 'Cancelled' }, at(0, '09:00'));
  await ctx.deps.prisma.folio.update({ where: { id: a.folio.id }, data: { settledAt: at(0, '09:01') } });
  await c.entry({ kind: 'payment', method: 'cash', amount: 8_000 }, at(0, '10:00'));
  await ctx.deps.prisma.folio.update({ where: { id: c.folio.id }, data: { settledAt: at(0, '10:01') } });
  return { ...h, today };
}

describe('deposits held and bills owing', () => {
  it('are each day’s as it ended: held and owing two days ago, less yesterday, nothing today', async () => {
    const h = await history();
    const range = await reportRange(h.owner, { from: addDays(h.today, -3), to: h.today });
    expect(range.days.map((d) => d.depositsHeld)).toEqual([0, 45_000, 20_000, 0]);
    expect(range.days.map((d) => d.owing)).toEqual([
      { count: 0, total: 0 },
      { count: 1, total: 8_000 },
      { count: 1, total: 8_000 },
      { count: 0, total: 0 },
    ]);
    // The range's total: as the last day ended.
    expect(range.total).toMatchObject({ depositsHeld: 0, owing: { count: 0, total: 0 } });
    expect(await dayReport(h.owner, { date: addDays(h.today, -1) })).toMatchObject({ depositsHeld: 20_000, owing: { count: 1, total: 8_000 } });
  });

  it('are kept for a day that is over, read from what was kept, and computed again once an entry is posted on that day', async () => {
    const h = await history();
    const date = addDays(h.today, -2);
    const kept = () => ctx.deps.prisma.ledgerDaySum.findUnique({ where: { hotelId_date: { hotelId: h.hotel.id, date } } });
    expect(await dayReport(h.owner, { date })).toMatchObject({ depositsHeld: 45_000, owing: { count: 1, total: 8_000 } });
    expect((await kept())?.standing).toEqual({ owing: { count: 1, total: 8_000 }, depositsHeld: 45_000 });
    // What was kept is what the report reads (a kept figure changed behind its back shows).
    await ctx.deps.prisma.ledgerDaySum.update({
      where: { hotelId_date: { hotelId: h.hotel.id, date } },
      data: { standing: { owing: { count: 1, total: 8_000 }, depositsHeld: 1 } },
    });
    expect((await reportRange(h.owner, { from: date, to: date })).days[0]).toMatchObject({ depositsHeld: 1 });
    // An entry posted on that day all the same (an import): the day's row is forgotten and computed again.
    const folio = await ctx.deps.prisma.folio.findFirstOrThrow({ where: { hotelId: h.hotel.id, settledAt: null, owedAt: null } });
    await ctx.deps.prisma.orderEntry.create({
      data: {
        hotelId: h.hotel.id,
        currency: 'CNY',
        stayId: folio.stayId,
        folioId: folio.id,
        kind: 'deposit',
        method: 'cash',
        amount: 1_000,
        createdAt: zonedToInstant(`${date}T15:00`, h.owner.actor.timeZone)!,
      } as never,
    });
    expect(await kept()).toBeNull();
    expect(await dayReport(h.owner, { date })).toMatchObject({ depositsHeld: 46_000 });
    expect((await kept())?.standing).toMatchObject({ depositsHeld: 46_000 });
  });

  it('a day closed late freezes what it held at its end, not what the hotel holds on the day of the close', async () => {
    const h = await history();
    const date = addDays(h.today, -2);
    await closeDay(h.owner, { date });
    const closed = await dayReport(h.owner, { date });
    expect(closed).toMatchObject({ closed: true, depositsHeld: 45_000, owing: { count: 1, total: 8_000 } });
  });
});
