/**
 * Issue 36 §6: the night audit's no-show policy and its checks (docs/reports.md "The day close"). A
 * hotel that charges the first night has it posted on a no-show's bill by whatever ends it (the close,
 * the stay's job), once; a hotel that releases posts nothing. The checks read before a close say what
 * the close will do and what is left for the desk, for managers of the whole hotel, of their hotel only.
 */
import { addDays, localDate, zonedToInstant } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobContext } from '../../context';
import { insertStay, zoneAtLocalHour } from '../../test/factories';
import { createTestContext, type TestContext } from '../../test/harness';
import { trpcClient } from '../../test/trpc-client';
import { ledgerHotel, refusal } from '../../test/ledger-kit';
import { updateHotelInfo } from '../hotel/hotel.service';
import { openShift } from '../orders/shifts';
import { recordDeposit } from '../orders/payments';
import { noShowOnTime } from '../stays/transitions';
import { auditChecks } from './audit-checks';
import { closeDay } from './day-close';
import { dayReport } from './day-report';

let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;
beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
});
afterAll(() => ctx?.close());

/** A hotel where it is noon, with a reservation due yesterday for two nights at 450.00 and 100.00 paid ahead, not come. */
async function hotelWithNoShow() {
  const h = await ledgerHotel(ctx);
  const timeZone = zoneAtLocalHour(12);
  await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone } });
  for (const c of [h.owner, h.staff]) c.actor.timeZone = timeZone;
  const today = localDate(new Date(), timeZone);
  const at = (days: number, time: string) => zonedToInstant(`${addDays(today, days)}T${time}`, timeZone)!;
  const stay = await insertStay(ctx.deps, {
    hotelId: h.hotel.id,
    roomId: h.rooms[1].id,
    checkInAt: at(-1, '14:00'),
    expectedCheckOutAt: at(1, '12:00'),
    status: 'reserved',
    guestName: 'Absent Guest',
  });
  await ctx.deps.prisma.stay.update({ where: { id: stay.id }, data: { awaitsArrival: true, noShowAt: at(0, '00:00'), priceAmount: 45_000 } });
  await recordDeposit(h.staff, { stayId: stay.id, amount: 10_000, method: 'cash' });
  return { ...h, today, yesterday: addDays(today, -1), at, stay };
}

/** The no-show fees posted on a stay's bill. */
async function fees(stayId: number) {
  const rows = await ctx.deps.prisma.orderEntry.findMany({ where: { stayId, kind: 'charge' }, select: { amount: true, noteKey: true, noteParams: true } });
  return rows;
}

describe('the no-show policy', () => {
  it('charges the first night as booked when the hotel says so, at the close, and the checks said so before', async () => {
    const h = await hotelWithNoShow();
    await updateHotelInfo(h.owner, { noShowPolicy: 'charge_first_night' });
    const before = await auditChecks(h.owner, { date: h.yesterday });
    expect(before).toMatchObject({ closed: false, over: true, ties: true, noShowPolicy: 'charge_first_night', bills: [] });
    expect(before.arrivals).toEqual([expect.objectContaining({ stayId: h.stay.id, guestName: 'Absent Guest', due: true, fee: 22_500 })]);

    await closeDay(h.owner, { date: h.yesterday });
    expect(await fees(h.stay.id)).toEqual([{ amount: -22_500, noteKey: 'orders.notes.noShowFee', noteParams: { date: h.yesterday } }]);
    // The deposit pays part of it; what is left is owed, and the checks name the bill for the desk.
    const after = await auditChecks(h.owner, { date: h.today });
    expect(after.bills).toEqual([expect.objectContaining({ stayId: h.stay.id, balance: -12_500 })]);
    expect((await auditChecks(h.owner, { date: h.yesterday })).closed).toBe(true);
    // The fee is revenue of the business date it was posted on (noon today: today), never of a closed day.
    expect((await dayReport(h.owner, { date: h.today })).revenue.charges).toBe(22_500);
    expect((await dayReport(h.owner, { date: h.yesterday })).noShows).toBe(1);
    const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { hotelId: h.hotel.id, action: 'stay.noShow', entityId: String(h.stay.id) } });
    expect(audit.after).toMatchObject({ status: 'no_show', noShowFee: 22_500, by: 'close' });
  });

  it("charges it once when the stay's job ends the reservation, and never under the policy to release", async () => {
    const h = await hotelWithNoShow();
    await updateHotelInfo(h.owner, { noShowPolicy: 'charge_first_night' });
    const job = jobContext(ctx.deps, 'stay.noShow', 'job:test');
    expect(await noShowOnTime(job, { stayId: h.stay.id, version: 0 })).toBe(true);
    expect(await noShowOnTime(job, { stayId: h.stay.id, version: 0 })).toBe(false);
    expect((await fees(h.stay.id)).map((f) => f.amount)).toEqual([-22_500]);

    const released = await hotelWithNoShow();
    expect((await auditChecks(released.owner, { date: released.yesterday })).arrivals[0]).toMatchObject({ due: true, fee: 0 });
    await closeDay(released.owner, { date: released.yesterday });
    expect(await fees(released.stay.id)).toEqual([]);
    // Its deposit is left on its bill: the checks name it, never silent.
    expect((await auditChecks(released.owner, { date: released.today })).bills).toEqual([
      expect.objectContaining({ stayId: released.stay.id, balance: 10_000 }),
    ]);
  });

  it('is set by owners and administrators only, to one of its two values', async () => {
    const h = await hotelWithNoShow();
    expect((await updateHotelInfo(h.owner, { noShowPolicy: 'charge_first_night' })).noShowPolicy).toBe('charge_first_night');
    expect(await refusal(updateHotelInfo(h.staff, { noShowPolicy: 'release' }))).toMatchObject({ code: 'FORBIDDEN' });
    for (const bad of ['charge_everything', '', 1e308]) {
      const answer = await api.mutation('hotel.update', { noShowPolicy: bad as never }, { token: h.ownerToken, lang: 'en' });
      expect(answer.status, String(bad)).toBe(400);
      expect(answer.error?.data.app?.fields).toEqual({ noShowPolicy: expect.stringMatching(/^[A-Z]/) });
    }
    expect((await api.query('hotel.info', {}, { token: h.ownerToken })).data?.noShowPolicy).toBe('charge_first_night');
  });
});

describe("the night audit's checks", () => {
  it('lists the shifts still open and the guests past their departure, of its own hotel only, for managers of the whole hotel', async () => {
    const h = await hotelWithNoShow();
    const other = await hotelWithNoShow();
    await openShift(h.staff, { openingFloat: 5_000 });
    // In house since yesterday, due out at 10:00 this morning and still there.
    const overdue = await insertStay(ctx.deps, {
      hotelId: h.hotel.id,
      roomId: h.rooms[0].id,
      checkInAt: h.at(-1, '15:00'),
      expectedCheckOutAt: h.at(0, '10:00'),
    });
    const checks = await auditChecks(h.owner, { date: h.today });
    expect(checks.openShifts).toEqual([expect.objectContaining({ openingFloat: 5_000 })]);
    expect(checks.departures.map((d) => d.stayId)).toEqual([overdue.id]);
    expect(checks.over).toBe(false);
    const ids = (c: typeof checks) => [...c.arrivals, ...c.departures, ...c.bills].map((s) => s.stayId);
    expect(ids(checks)).not.toContain(other.stay.id);
    expect(ids(await auditChecks(other.owner, { date: other.yesterday }))).not.toContain(overdue.id);
    expect(await refusal(auditChecks(h.staff, { date: h.today }))).toMatchObject({ code: 'FORBIDDEN' });
    expect(await refusal(auditChecks(h.limitedAdmin.ctx, { date: h.today }))).toMatchObject({ code: 'FORBIDDEN' });
    const bad = await api.query('order.auditChecks', { date: '2026-13-40' }, { token: h.ownerToken, lang: 'en' });
    expect(bad.status).toBe(400);
    const foreign = await api.query('order.auditChecks', { date: h.today }, { token: other.ownerToken });
    expect(foreign.data?.departures).toEqual([]);
  });
});
