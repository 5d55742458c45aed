/**
 * Issue 36 §6: the business date (docs/journal.md "The business date"). In the night before the
 * audit hour, while the day before is not closed, what is posted lands on the day before: its report,
 * its trial balance, Today's takings. The close rolls it; a hotel with no audit hour keeps the
 * calendar; never more than one day behind.
 */
import { addDays, localDate } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zoneAtLocalHour } from '../../test/factories';
import { createTestContext, type TestContext } from '../../test/harness';
import { ledgerHotel, stayIn } from '../../test/ledger-kit';
import { recordPayment } from '../orders/payments';
import { closeDay } from '../reports/day-close';
import { dayReport } from '../reports/day-report';
import { getToday } from '../today/today.service';
import { businessDateOf } from './business-date';
import { trialBalanceOf } from './trial-balance';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

/** A hotel where it is `hour`:xx now, with the audit hour `audit` (null: none). */
async function hotelAt(hour: number, audit: string | null) {
  const h = await ledgerHotel(ctx);
  const timeZone = zoneAtLocalHour(hour);
  await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone, dayCloseTime: audit } });
  for (const c of [h.owner, h.staff]) c.actor.timeZone = timeZone;
  const today = localDate(new Date(), timeZone);
  return { ...h, today, yesterday: addDays(today, -1) };
}

/** The business dates of a hotel's journal entries posted for order entries, in order. */
async function postedOn(hotelId: number) {
  const rows = await ctx.deps.prisma.journalEntry.findMany({ where: { hotelId, source: 'order' }, orderBy: { id: 'asc' }, select: { businessDate: true } });
  return rows.map((r) => r.businessDate);
}

describe('the business date', () => {
  it('keeps the night before the audit hour on the day before, until that day is closed', async () => {
    const h = await hotelAt(2, '04:00');
    expect(await businessDateOf(ctx.deps.prisma, h.hotel.id)).toBe(h.yesterday);
    // Checked in yesterday evening; a payment at 02:00 is the day before's.
    const stay = await stayIn(h.staff, h.rooms[0].id, { from: -5, to: 20 });
    await recordPayment(h.staff, { stayId: stay.id, amount: 12_300, method: 'cash' });
    expect(await postedOn(h.hotel.id)).toEqual([h.yesterday, h.yesterday]);
    expect((await dayReport(h.owner, { date: h.yesterday })).received).toBe(12_300);
    expect((await dayReport(h.owner, { date: h.today })).received).toBe(0);
    const today = await getToday(h.owner);
    expect([today.date, today.businessDate, today.takings?.received]).toEqual([h.today, h.yesterday, 12_300]);
    const money = (await trialBalanceOf(ctx.deps.prisma, h.hotel.id, h.yesterday)).rows.find((a) => a.account === 'money');
    expect(money?.debits).toBe(12_300);

    // The manager's close rolls it: what follows is today's, whatever the hour; the closed day stays.
    const closed = await closeDay(h.owner, { date: h.yesterday });
    expect(closed.received).toBe(12_300);
    expect(await businessDateOf(ctx.deps.prisma, h.hotel.id)).toBe(h.today);
    await recordPayment(h.staff, { stayId: stay.id, amount: 700, method: 'cash' });
    expect((await postedOn(h.hotel.id)).at(-1)).toBe(h.today);
    expect((await dayReport(h.owner, { date: h.yesterday })).received).toBe(12_300);
    expect((await dayReport(h.owner, { date: h.today })).received).toBe(700);
    const after = await getToday(h.owner);
    expect([after.businessDate, after.takings?.received]).toEqual([h.today, 700]);
  });

  it('is the calendar date past the audit hour, and always for a hotel with no audit hour', async () => {
    const late = await hotelAt(5, '04:00');
    expect(await businessDateOf(ctx.deps.prisma, late.hotel.id)).toBe(late.today);
    const none = await hotelAt(2, null);
    expect(await businessDateOf(ctx.deps.prisma, none.hotel.id)).toBe(none.today);
    const stay = await stayIn(none.staff, none.rooms[0].id, { from: -1, to: 20 });
    await recordPayment(none.staff, { stayId: stay.id, amount: 500, method: 'bank_card' });
    expect(await postedOn(none.hotel.id)).toEqual([none.today, none.today]);
    expect((await getToday(none.owner)).businessDate).toBe(none.today);
  });

  it('is never more than one day behind: two days unclosed leave the night on the day before only', async () => {
    const h = await hotelAt(1, '04:00');
    const dayBefore = addDays(h.yesterday, -1);
    // Neither the day before yesterday nor yesterday is closed: at 01:00 the books are on yesterday.
    expect(await businessDateOf(ctx.deps.prisma, h.hotel.id)).toBe(h.yesterday);
    await closeDay(h.owner, { date: dayBefore });
    expect(await businessDateOf(ctx.deps.prisma, h.hotel.id)).toBe(h.yesterday);
  });
});
