/**
 * The manager's day (issue 26 §2, docs/reports.md): a day's figures from the stays and the ledger
 * (rooms sold, occupancy, ADR, RevPAR, arrivals, departures, stay-overs, no-shows, cancellations,
 * revenue by kind, money by way of paying, bills owing, deposits held); the close that freezes them
 * (once, even twice at once; never a day not over; a later correction lands on its own day); a range
 * summed; managers of every room only, each hotel its own.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COOKIES, addDays, localDate, zonedToInstant } from '@console/shared';
import { createRooms, insertStay, zoneAtLocalHour } from '../../test/factories';
import { createTestContext, type TestContext } from '../../test/harness';
import { trpcClient } from '../../test/trpc-client';
import { ledgerHotel, refusal } from '../../test/ledger-kit';
import { recordPayment } from '../orders/payments';
import { jobContext } from '../../context';
import { updateHotelInfo } from '../hotel/hotel.service';
import { dayReport, reportRange } from './day-report';
import { sumDaysOnTime } from './kept-sums';
import { closeDay, closeDaysOnTime } from './day-close';

let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;

beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
});
afterAll(() => ctx.close());

/** Yesterday of a hotel where it is noon now, with four rooms (one out of order) and a known day of stays and money. */
async function yesterday() {
  const h = await ledgerHotel(ctx, ['R1', 'R2', 'R3', 'R4']);
  const timeZone = zoneAtLocalHour(12);
  await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone } });
  for (const c of [h.owner, h.staff, h.limitedAdmin.ctx]) c.actor.timeZone = timeZone;
  const today = localDate(new Date(), timeZone);
  const at = (days: number, time: string) => zonedToInstant(`${addDays(today, days)}T${time}`, timeZone)!;
  const [r1, r2, r3, r4] = h.rooms;
  await ctx.deps.prisma.room.updateMany({ where: { hotelId: h.hotel.id }, data: { createdAt: at(-10, '00:00') } });
  await ctx.deps.prisma.room.update({ where: { id: r4!.id }, data: { maintenance: 'out_of_order' } });
  const stay = async (roomId: number, from: Date, to: Date, end?: { status: 'checked_out' | 'ended' | 'no_show'; at: Date }) => {
    const s = await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId, checkInAt: from, expectedCheckOutAt: to });
    if (end) await ctx.deps.prisma.stay.update({ where: { id: s.id }, data: { status: end.status, checkedOutAt: end.at } });
    return s;
  };
  // Left yesterday morning; arrived yesterday; in since the day before; a cancellation; a no-show.
  await stay(r1.id, at(-3, '15:00'), at(-1, '12:00'), { status: 'checked_out', at: at(-1, '11:00') });
  const arrived = await stay(r2.id, at(-1, '14:00'), at(1, '12:00'));
  const over = await stay(r3.id, at(-3, '14:00'), at(2, '12:00'));
  await stay(r1.id, at(-1, '14:00'), at(0, '12:00'), { status: 'ended', at: at(-1, '10:00') });
  await stay(r1.id, at(-1, '14:00'), at(0, '12:00'), { status: 'no_show', at: at(-1, '20:00') });
  const folio = await ctx.deps.prisma.folio.create({ data: { hotelId: h.hotel.id, stayId: arrived.id, currency: 'CNY' } });
  const overFolio = await ctx.deps.prisma.folio.create({ data: { hotelId: h.hotel.id, stayId: over.id, currency: 'CNY' } });
  const entry = (data: Record<string, unknown>, when: Date, onFolio = folio.id, stayId = arrived.id, roomId = r2.id) =>
    ctx.deps.prisma.orderEntry.create({
      data: { hotelId: h.hotel.id, currency: 'CNY', stayId, roomId, folioId: onFolio, createdByAccountId: h.staffId, createdAt: when, ...data } as never,
    });
  await entry({ kind: 'room_charge', amount: -59_800 }, at(-1, '14:05'));
  const payment = await entry({ kind: 'payment', method: 'cash', amount: 30_000 }, at(-1, '14:10'));
  await entry({ kind: 'deposit', method: 'wechat', amount: 20_000 }, at(-1, '14:11'));
  const charge = await entry({ kind: 'charge', amount: -1_500, note: 'Minibar' }, at(-1, '18:00'));
  await entry({ kind: 'correction', amount: 1_500, linkedEntryId: charge.id, note: 'Not taken' }, at(-1, '19:00'));
  await entry({ kind: 'refund', method: 'cash', amount: -5_000, linkedEntryId: payment.id, note: 'Paid too much' }, at(-1, '20:00'));
  // The day before: not yesterday's.
  await entry({ kind: 'room_charge', amount: -90_000 }, at(-3, '14:05'), overFolio.id, over.id, r3.id);
  return { ...h, timeZone, today, date: addDays(today, -1), at, arrived };
}

describe("a day's report", () => {
  it('counts the rooms, the guests and the money of the day, and derives occupancy, ADR and RevPAR', async () => {
    const d = await yesterday();
    const report = await dayReport(d.owner, { date: d.date });
    expect(report).toMatchObject({
      date: d.date,
      closed: false,
      rooms: { total: 4, outOfOrder: 1, available: 3, sold: 2 },
      occupancy: 66.7,
      // Room revenue of the night (the journal's, by the night it is for): the arrival's first of two
      // nights (598.00 over two) and the fifth of the stay-over's 900.00.
      adr: 23_950,
      revpar: 15_967,
      arrivals: 1,
      departures: 1,
      stayOvers: 1,
      noShows: 1,
      cancellations: 1,
      revenue: { roomCharges: 47_900, charges: 0, total: 47_900 },
      received: 50_000,
      refunded: 5_000,
      owing: { count: 0, total: 0 },
      depositsHeld: 20_000,
    });
    expect(report.methods).toEqual([
      expect.objectContaining({ method: 'cash', payments: 30_000, refunds: -5_000, net: 25_000, count: 2 }),
      expect.objectContaining({ method: 'wechat', deposits: 20_000, net: 20_000, count: 1 }),
    ]);
    // Three days summed: room-nights, and the room revenue of each night, whenever it was posted.
    const range = await reportRange(d.owner, { from: addDays(d.date, -2), to: d.date });
    expect(range.days.map((x) => x.rooms.sold)).toEqual([2, 2, 2]);
    expect(range.days.map((x) => x.revenue.roomCharges)).toEqual([18_000, 18_000, 47_900]);
    expect(range.total).toMatchObject({ rooms: { available: 9, sold: 6 }, occupancy: 66.7, revenue: { roomCharges: 83_900 }, depositsHeld: 20_000 });
  });

  it('counts on each day of a range the rooms made before its end and not deleted before it', async () => {
    const d = await yesterday();
    const {
      rooms: [made, added],
    } = await createRooms(ctx.deps, d.hotel.id, ['R5', 'R6']);
    // R5 made three days ago and deleted two days ago in the morning; R6 made yesterday.
    await ctx.deps.prisma.room.update({ where: { id: made!.id }, data: { createdAt: d.at(-3, '09:00'), deletedAt: d.at(-2, '09:00') } });
    await ctx.deps.prisma.room.update({ where: { id: added!.id }, data: { createdAt: d.at(-1, '10:00') } });
    const range = await reportRange(d.owner, { from: addDays(d.date, -2), to: d.date });
    expect(range.days.map((x) => x.rooms.total)).toEqual([5, 4, 5]);
    expect(range.days.map((x) => x.rooms.outOfOrder)).toEqual([1, 1, 1]);
    // A room deleted at the very end of a day was still there at its end.
    await ctx.deps.prisma.room.update({ where: { id: made!.id }, data: { deletedAt: d.at(-2, '00:00') } });
    expect((await reportRange(d.owner, { from: addDays(d.date, -2), to: d.date })).days.map((x) => x.rooms.total)).toEqual([5, 4, 5]);
    expect((await dayReport(d.owner, { date: addDays(d.date, -2) })).rooms.total).toBe(5);
  });

  it('counts a room once on a night two guests were in it: one stayed past the check-out and the next checked in', async () => {
    const d = await yesterday();
    const [r1] = d.rooms;
    const {
      rooms: [r5],
    } = await createRooms(ctx.deps, d.hotel.id, ['R5']);
    await ctx.deps.prisma.room.update({ where: { id: r5!.id }, data: { createdAt: d.at(-10, '00:00') } });
    const stay = (roomId: number, from: Date, to: Date) => insertStay(ctx.deps, { hotelId: d.hotel.id, roomId, checkInAt: from, expectedCheckOutAt: to });
    const end = (id: number, data: { status: 'checked_out' | 'expired'; checkedOutAt?: Date }) => ctx.deps.prisma.stay.update({ where: { id }, data });
    // R1, a week ago: due out at noon on day -5, left only on day -4 at 11:00; the next guest came on day -5 at 15:00.
    const late = await stay(r1!.id, d.at(-6, '14:00'), d.at(-5, '12:00'));
    const next = await stay(r1!.id, d.at(-5, '15:00'), d.at(-4, '12:00'));
    await end(next.id, { status: 'checked_out', checkedOutAt: d.at(-4, '10:00') });
    await end(late.id, { status: 'checked_out', checkedOutAt: d.at(-4, '11:00') });
    const week = await reportRange(d.owner, { from: addDays(d.date, -5), to: addDays(d.date, -3) });
    expect(week.days.map((x) => x.rooms.sold)).toEqual([1, 1, 0]);
    expect(week.days.map((x) => [x.arrivals, x.stayOvers])).toEqual([
      [1, 0],
      [1, 0],
      [0, 0],
    ]);
    // R5 now: a guest still in, overdue since yesterday noon, and a guest checked in at 15:00.
    const overdue = await stay(r5!.id, d.at(-3, '14:00'), d.at(-1, '12:00'));
    await end(overdue.id, { status: 'expired' });
    await stay(r5!.id, d.at(-1, '15:00'), d.at(1, '12:00'));
    const day = await dayReport(d.owner, { date: d.date });
    expect(day).toMatchObject({ rooms: { total: 5, available: 4, sold: 3 }, arrivals: 2, stayOvers: 1 });
    expect((await reportRange(d.owner, { from: d.date, to: d.date })).days[0]).toMatchObject({ rooms: { sold: 3 }, arrivals: 2, stayOvers: 1 });
  });

  it("keeps a day's ledger sums once its business date is over: read again, summed anew when an entry is posted on it, kept when the time zone moves the calendar", async () => {
    const d = await yesterday();
    const kept = () => ctx.deps.prisma.ledgerDaySum.findMany({ where: { hotelId: d.hotel.id }, orderBy: { date: 'asc' } });
    const first = await reportRange(d.owner, { from: addDays(d.date, -2), to: d.today });
    // The days that are over are kept; today is not.
    expect((await kept()).map((k) => k.date)).toEqual([addDays(d.date, -2), addDays(d.date, -1), d.date]);
    const again = await reportRange(d.owner, { from: addDays(d.date, -2), to: d.today });
    expect(again).toEqual(first);
    expect(again.days[2]).toMatchObject({ revenue: { roomCharges: 47_900 }, received: 50_000 });
    // A kept day is what is read: changed behind the ledger's back, the report shows it (and so reads no entry).
    await ctx.deps.prisma.ledgerDaySum.update({
      where: { hotelId_date: { hotelId: d.hotel.id, date: d.date } },
      data: { sums: [{ kind: 'payment', method: 'cash', corrects: null, amount: 12_345, count: 1 }], extras: { charges: 777, taxes: 0 } },
    });
    expect(await dayReport(d.owner, { date: d.date })).toMatchObject({ received: 12_345, revenue: { charges: 777 } });
    // An entry written with a date in a kept day (an import) removes that day's sums: summed anew.
    const folio = await ctx.deps.prisma.folio.findFirstOrThrow({ where: { hotelId: d.hotel.id, stayId: d.arrived.id } });
    await ctx.deps.prisma.orderEntry.create({
      data: {
        hotelId: d.hotel.id,
        currency: 'CNY',
        stayId: d.arrived.id,
        roomId: d.arrived.roomId,
        folioId: folio.id,
        kind: 'charge',
        note: 'Laundry',
        amount: -2_000,
        createdAt: d.at(-1, '21:00'),
      },
    });
    expect((await kept()).map((k) => k.date)).toEqual([addDays(d.date, -2), addDays(d.date, -1)]);
    expect((await dayReport(d.owner, { date: d.date })).revenue).toEqual({ roomCharges: 47_900, charges: 2_000, total: 49_900, taxes: 0 });
    expect((await kept()).find((k) => k.date === d.date)?.extras).toEqual({ charges: 2_000, taxes: 0 });
    // Another time zone moves the calendar's bounds, not the business dates entries were posted on:
    // the kept sums are still the day's, read rather than summed anew.
    const keptRow = await ctx.deps.prisma.ledgerDaySum.update({
      where: { hotelId_date: { hotelId: d.hotel.id, date: d.date } },
      data: { dayStart: d.at(-1, '01:00') },
    });
    expect((await dayReport(d.owner, { date: d.date })).revenue.total).toBe(49_900);
    expect((await kept()).find((k) => k.date === d.date)?.createdAt).toEqual(keptRow.createdAt);
  });

  it("sums yesterday's ledger by the install's sweep, once, unless the day is closed or the hotel has no entries", async () => {
    const d = await yesterday();
    const empty = await ledgerHotel(ctx, ['E1']);
    const now = new Date();
    expect(await sumDaysOnTime(ctx.deps, now, { hotelId: d.hotel.id })).toBe(1);
    expect(await sumDaysOnTime(ctx.deps, now, { hotelId: d.hotel.id })).toBe(0);
    expect(await ctx.deps.prisma.ledgerDaySum.findMany({ where: { hotelId: d.hotel.id }, select: { date: true } })).toEqual([{ date: d.date }]);
    expect(await sumDaysOnTime(ctx.deps, now, { hotelId: empty.hotel.id })).toBe(0);
    const closed = await yesterday();
    await closeDay(closed.owner, { date: closed.date });
    expect(await sumDaysOnTime(ctx.deps, now, { hotelId: closed.hotel.id })).toBe(0);
  });

  it('is closed once, frozen: a later payment lands on its own day; a day not over cannot close', async () => {
    const d = await yesterday();
    const closes = await Promise.all([closeDay(d.owner, { date: d.date }), closeDay(d.owner, { date: d.date })]);
    expect(closes.map((c) => c.closed)).toEqual([true, true]);
    expect(await ctx.deps.prisma.dayClose.count({ where: { hotelId: d.hotel.id } })).toBe(1);
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: d.hotel.id, action: 'order.closeDay' } })).toBe(1);
    const frozen = await dayReport(d.owner, { date: d.date });
    expect(frozen).toMatchObject({ closed: true, closedBy: { id: d.ownerId }, received: 50_000, rooms: { sold: 2 } });

    // Money taken now is today's, whatever it pays for: the closed day does not move.
    await recordPayment(d.staff, { stayId: d.arrived.id, amount: 7_000, method: 'cash' });
    expect((await dayReport(d.owner, { date: d.date })).received).toBe(50_000);
    expect((await dayReport(d.owner, { date: d.today })).received).toBe(7_000);
    // The database keeps a closed day as it is.
    await expect(ctx.deps.prisma.dayClose.updateMany({ where: { hotelId: d.hotel.id }, data: { report: {} } })).rejects.toThrow(/DayClose_is_final/);

    expect(await refusal(closeDay(d.owner, { date: d.today }))).toMatchObject({ code: 'VALIDATION', key: 'reports.validation.dayNotOver' });
    const answer = await api.mutation('order.closeDay', { date: d.today }, { token: d.ownerToken, lang: 'en' });
    expect(answer.error?.data.app?.fields).toEqual({ date: 'The day is not over yet: it can be closed once it has ended.' });
  });

  it('counts a reservation cancelled that day for a later one, and holds no deposit that was corrected (bench/reports.ts found the first)', async () => {
    const d = await yesterday();
    const later = await insertStay(ctx.deps, {
      hotelId: d.hotel.id,
      roomId: d.rooms[0]!.id,
      checkInAt: d.at(3, '14:00'),
      expectedCheckOutAt: d.at(4, '12:00'),
    });
    await ctx.deps.prisma.stay.update({ where: { id: later.id }, data: { status: 'ended', checkedOutAt: d.at(-1, '16:00') } });
    const folio = await ctx.deps.prisma.folio.findUniqueOrThrow({ where: { hotelId_stayId: { hotelId: d.hotel.id, stayId: d.arrived.id } } });
    const on = { hotelId: d.hotel.id, currency: 'CNY', stayId: d.arrived.id, roomId: d.rooms[1]!.id, folioId: folio.id };
    const deposit = await ctx.deps.prisma.orderEntry.create({ data: { ...on, kind: 'deposit', method: 'cash', amount: 9_000, createdAt: d.at(-1, '21:00') } });
    await ctx.deps.prisma.orderEntry.create({
      data: { ...on, kind: 'correction', method: 'cash', amount: -9_000, linkedEntryId: deposit.id, note: 'Entered twice', createdAt: d.at(-1, '21:30') },
    });
    expect(await dayReport(d.owner, { date: d.date })).toMatchObject({ cancellations: 2, noShows: 1, depositsHeld: 20_000 });
  });

  it('is for managers of every room; each hotel sees its own', async () => {
    const d = await yesterday();
    const other = await ledgerHotel(ctx);
    expect(await refusal(dayReport(d.staff, { date: d.date }))).toMatchObject({ code: 'FORBIDDEN' });
    expect(await refusal(dayReport(d.limitedAdmin.ctx, { date: d.date }))).toMatchObject({ code: 'FORBIDDEN' });
    expect(await refusal(closeDay(d.staff, { date: d.date }))).toMatchObject({ code: 'FORBIDDEN' });
    const theirs = await dayReport(other.owner, { date: d.date });
    expect(theirs).toMatchObject({ rooms: { sold: 0 }, received: 0, revenue: { total: 0 } });
    expect((await api.query('order.dayReport', { date: d.date }, { token: other.ownerToken })).data?.received).toBe(0);
    // A range too long is refused, translated.
    const long = await api.query('order.reportRange', { from: '2025-01-01', to: '2026-06-01' }, { token: d.ownerToken, lang: 'en' });
    expect(long.status).toBe(400);
  });
});

describe('the report as a file (GET /api/reports/export)', () => {
  const get = (token: string | undefined, query: Record<string, string>) =>
    ctx.app.inject({
      method: 'GET',
      url: `/api/reports/export?${new URLSearchParams(query).toString()}`,
      headers: token ? { cookie: `${COOKIES.session}=${token}` } : {},
    });

  it('gives the days and their sums as .csv (UTF-8, CRLF, headed in the console language) and as .xlsx with the money by way of paying', async () => {
    const d = await yesterday();
    const from = addDays(d.date, -1);
    const csv = await get(d.ownerToken, { from, to: d.date, format: 'csv', lang: 'en' });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="Report ${from} ${d.date}.csv"; filename*=UTF-8''Report%20${from}%20${d.date}.csv`);
    expect(csv.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = csv.body.slice(1).split('\r\n');
    expect(lines.pop()).toBe('');
    expect(lines[0]!.split(',').slice(0, 5)).toEqual(['Date', 'State', 'Rooms available', 'Rooms sold', 'Occupancy']);
    expect(lines[0]).toContain('Revenue (CNY)');
    const rows = lines.map((l) => l.split(','));
    const column = (name: string) => rows[0]!.indexOf(name);
    expect(rows.map((r) => r[0])).toEqual(['Date', from, d.date, 'Total']);
    const day = rows[2]!;
    expect([
      day[column('Rooms sold')],
      day[column('Occupancy')],
      day[column('Revenue (CNY)')],
      day[column('Received (CNY)')],
      day[column('Refunded (CNY)')],
    ]).toEqual(['2', '66.7', '479.00', '500.00', '50.00']);
    expect(rows[3]![column('Revenue (CNY)')]).toBe('659.00');
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: d.hotel.id, action: 'order.reportExport' } })).toBe(1);

    // Another language heads it in that language; the .xlsx has the days and the ways of paying.
    const xlsx = await get(d.ownerToken, { from: d.date, to: d.date, format: 'xlsx', lang: 'de' });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-disposition']).toContain(`filename="Bericht ${d.date}.xlsx"`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets.map((s) => s.name)).toEqual(['Tage', 'Nach Zahlungsart']);
    const [days, money] = book.worksheets as [ExcelJS.Worksheet, ExcelJS.Worksheet];
    const header = (days.getRow(1).values as ExcelJS.CellValue[]).slice(1);
    expect(header.slice(0, 2)).toEqual(['Datum', 'Status']);
    const dayRow = (days.getRow(2).values as ExcelJS.CellValue[]).slice(1);
    expect(dayRow[0]).toBe(d.date);
    expect(dayRow[header.indexOf('Umsatz (CNY)')]).toBe(479);
    expect(dayRow[header.indexOf('Auslastung')]).toBe(66.7);
    expect((days.getRow(3).values as ExcelJS.CellValue[])[1]).toBe('Summe');
    const methods = [2, 3].map((i) => (money.getRow(i).values as ExcelJS.CellValue[]).slice(1));
    expect(methods.map((r) => [r[0], r[r.length - 2]])).toEqual([
      ['Bargeld', 250],
      ['Zahlung per WeChat Pay', 200],
    ]);
  });

  it('is refused without a session (401), to a clerk and to a manager of some rooms (403), and for bad days (400, translated); another hotel gets its own', async () => {
    const d = await yesterday();
    const other = await ledgerHotel(ctx);
    const query = { from: d.date, to: d.date, format: 'csv', lang: 'en' };
    expect((await get(undefined, query)).statusCode).toBe(401);
    expect((await get(d.staffToken, query)).statusCode).toBe(403);
    expect((await get(d.limitedAdmin.token, query)).statusCode).toBe(403);
    for (const bad of [
      { ...query, from: '2026-02-30' },
      { ...query, to: addDays(d.date, -1) },
      { ...query, from: '2020-01-01' },
      { ...query, format: 'pdf' },
      { ...query, from: '1e308' },
      { lang: 'en' },
    ]) {
      const answer = await get(d.ownerToken, bad);
      expect(answer.statusCode, JSON.stringify(bad)).toBe(400);
      expect(answer.json().error.message).toMatch(/^[A-Z]/);
      expect(answer.body).not.toMatch(/at .*\.ts|ZodError/);
    }
    const theirs = await get(other.ownerToken, query);
    expect(theirs.statusCode).toBe(200);
    const sums = theirs.body.split('\r\n')[1]!.split(',');
    expect(sums[3]).toBe('0');
  });
});

describe("the day closed at the hotel's set hour (dayCloseTime)", () => {
  /** A hotel where it is `hour` o'clock now, closing its days at `at` (or by hand: null). */
  async function hotelAt(hour: number, at: string | null) {
    const h = await ledgerHotel(ctx, ['T1']);
    const timeZone = zoneAtLocalHour(hour);
    await updateHotelInfo(h.owner, { timeZone, dayCloseTime: at });
    h.owner.actor.timeZone = timeZone;
    return { ...h, timeZone, yesterday: addDays(localDate(new Date(), timeZone), -1) };
  }
  const job = () => jobContext(ctx.deps, 'stay.sweep', 'job:test');

  it('closes the day before once the hour has passed, once, as the sweep, never before the hour nor without one; a manager may close it first', async () => {
    const due = await hotelAt(5, '04:00');
    const early = await hotelAt(2, '04:00');
    const byHand = await hotelAt(5, null);
    const first = await hotelAt(5, '04:00');
    await closeDay(first.owner, { date: first.yesterday });
    const now = new Date();
    for (const h of [due, early, byHand, first]) await closeDaysOnTime(job(), now, { hotelId: h.hotel.id });

    const report = await dayReport(due.owner, { date: due.yesterday });
    expect(report).toMatchObject({ closed: true, closedAutomatically: true, closedBy: null });
    const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { hotelId: due.hotel.id, action: 'order.closeDay' } });
    expect(audit).toMatchObject({ actorType: 'job', actorAccountId: null, channel: 'job' });
    expect(audit.after).toMatchObject({ date: due.yesterday, automatic: true });
    // Once: the next sweeps close nothing more.
    expect(await closeDaysOnTime(job(), new Date(), { hotelId: due.hotel.id })).toBe(0);
    expect(await ctx.deps.prisma.dayClose.count({ where: { hotelId: due.hotel.id } })).toBe(1);

    expect(await ctx.deps.prisma.dayClose.count({ where: { hotelId: { in: [early.hotel.id, byHand.hotel.id] } } })).toBe(0);
    expect(await dayReport(first.owner, { date: first.yesterday })).toMatchObject({
      closed: true,
      closedAutomatically: false,
      closedBy: { id: first.ownerId },
    });
  });

  it('is set on the hotel as HH:mm, or emptied for a manager close; other text is refused, translated', async () => {
    const h = await ledgerHotel(ctx, ['T2']);
    expect((await updateHotelInfo(h.owner, { dayCloseTime: '03:30' })).dayCloseTime).toBe('03:30');
    const emptied = await api.mutation('hotel.update', { dayCloseTime: '' }, { token: h.ownerToken });
    expect(emptied.data?.dayCloseTime).toBeNull();
    for (const bad of ['25:00', '3', '1e308', '12:60']) {
      const answer = await api.mutation('hotel.update', { dayCloseTime: bad }, { token: h.ownerToken, lang: 'en' });
      expect(answer.status, bad).toBe(400);
    }
    expect(await refusal(updateHotelInfo(h.staff, { dayCloseTime: '04:00' }))).toMatchObject({ code: 'FORBIDDEN' });
  });
});
