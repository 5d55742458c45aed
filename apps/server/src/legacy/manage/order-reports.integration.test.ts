import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDate } from '@console/shared';
import { createSession } from '../../modules/auth/session.service';
import { ledgerHotel, stayIn } from '../../test/ledger-kit';
import { createTestContext, testMeta, type TestContext } from '../../test/harness';
import { legacyClient } from '../../test/legacy-client';

/**
 * `/manage/order/shift*`, `dayReport`, `closeDay` and `report` driven as an old client does
 * (crypto-js DES envelope, legacy field names, money in major units, errmsg in the request's
 * language): a clerk's shift opened, taking what the clerk records, closed by what was counted with
 * the difference kept; a manager's day report, its close (once, even twice at once) and a range;
 * who may see what; hotel B against hotel A's shifts and days.
 */
let ctx: TestContext;
let ipCounter = 0;
const client = () => legacyClient(ctx.app, ctx.config, { ip: `10.83.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

async function desk() {
  const h = await ledgerHotel(ctx);
  const token = async (accountId: number) => (await createSession(ctx.deps, { accountId, hotelId: h.hotel.id, kind: 'legacy', meta: testMeta() })).token;
  const legacy = { owner: await token(h.ownerId), staff: await token(h.staffId), limited: await token(h.limitedAdmin.id) };
  const call = <T = Record<string, unknown>>(path: string, payload: Record<string, unknown>, as = legacy.owner, language = 'en') =>
    client().call<T>(path, payload, { token: as, language });
  return { ...h, legacy, call };
}

interface PayTypeLine {
  pay_type: string;
  pay_type_text: string;
  deposit: number;
  payment: number;
  refund: number;
  total: number;
  count: number;
  expected?: number;
  counted?: number | null;
  difference?: number | null;
}
interface LegacyShift {
  shift_id: number;
  status: number;
  operator_id: number;
  operator_name: string;
  open_time: string;
  close_time: string | null;
  closed_by_id: number | null;
  opening_float: number;
  currency: string;
  pay_types: PayTypeLine[];
  expected: number;
  counted: number | null;
  difference: number | null;
  count: number;
  note: string;
}
type Fields = { fields?: Record<string, string> } | null;
const TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('order/shift*', () => {
  it("opens a clerk's shift with the float counted, takes what the clerk records, and closes it by what was counted, the difference kept", async () => {
    const d = await desk();
    const stay = await stayIn(d.staff, d.rooms[0].id);
    // The float is the clerk's to count: no default.
    const noFloat = await d.call<Fields>('order/shiftOpen', {}, d.legacy.staff);
    expect(noFloat.errno).toBe(100001);
    expect(noFloat.data?.fields?.opening_float).toBeTruthy();
    for (const bad of [-1, '1e308', 1e308, '12.345', 'ten']) {
      expect((await d.call<Fields>('order/shiftOpen', { opening_float: bad }, d.legacy.staff)).data?.fields?.opening_float, String(bad)).toBeTruthy();
    }
    expect((await d.call('order/shiftCurrent', {}, d.legacy.staff)).data).toBeNull();

    const opened = await d.call<LegacyShift>('order/shiftOpen', { opening_float: '500.00' }, d.legacy.staff);
    expect(opened.errno, opened.errmsg).toBe(0);
    expect(opened.data).toMatchObject({
      status: 0,
      operator_id: d.staffId,
      opening_float: 500,
      currency: 'CNY',
      expected: 500,
      counted: null,
      close_time: null,
    });
    expect(opened.data.open_time).toMatch(TIME);
    // One open at a time, in the request's language.
    const again = await d.call('order/shiftOpen', { opening_float: 0 }, d.legacy.staff, 'zh-CN');
    expect(again.errno).toBe(100006);
    expect(again.errmsg).toMatch(/[\u4e00-\u9fff]/);

    await d.call('order/setCashData', { stay_id: stay.id, amount: 100, pay_type: 'cash' }, d.legacy.staff);
    await d.call('order/setCashData', { stay_id: stay.id, type: 'deposit', amount: 30, pay_type: 'wechat' }, d.legacy.staff);
    // The owner's payment is not in the clerk's shift.
    await d.call('order/setCashData', { stay_id: stay.id, amount: 7, pay_type: 'cash' });
    const current = await d.call<LegacyShift>('order/shiftCurrent', {}, d.legacy.staff);
    expect(current.data).toMatchObject({ shift_id: opened.data.shift_id, expected: 630, count: 2 });
    expect(current.data.pay_types.map((l) => [l.pay_type, l.payment, l.deposit, l.expected])).toEqual([
      ['cash', 100, 0, 600],
      ['wechat', 0, 30, 30],
    ]);
    expect(current.data.pay_types[0]!.pay_type_text).toBe('Cash');

    // Every way it took money by is counted; a missing one is named, never taken as zero.
    const missing = await d.call<Fields>('order/shiftClose', { shift_id: opened.data.shift_id, counted: { cash: 599 } }, d.legacy.staff);
    expect(missing.errno).toBe(100001);
    expect(missing.data?.fields?.['counted.wechat']).toBeTruthy();
    const badWay = await d.call<Fields>('order/shiftClose', { shift_id: opened.data.shift_id, counted: { cash: 599, gold: 1 } }, d.legacy.staff);
    expect(badWay.errno).toBe(100001);
    const negativeCash = await d.call<Fields>('order/shiftClose', { shift_id: opened.data.shift_id, counted: { cash: -1, wechat: 30 } }, d.legacy.staff);
    expect(negativeCash.data?.fields?.['counted.cash']).toBeTruthy();

    const closed = await d.call<LegacyShift>(
      'order/shiftClose',
      { shift_id: opened.data.shift_id, counted: { cash: '599', wechat: 30 }, note: 'One short' },
      d.legacy.staff,
    );
    expect(closed.errno, closed.errmsg).toBe(0);
    expect(closed.data).toMatchObject({ status: 1, closed_by_id: d.staffId, expected: 630, counted: 629, difference: -1, note: 'One short' });
    expect(closed.data.close_time).toMatch(TIME);
    expect(closed.data.pay_types.find((l) => l.pay_type === 'cash')).toMatchObject({ expected: 600, counted: 599, difference: -1 });
    // Closed is final.
    expect((await d.call('order/shiftClose', { shift_id: opened.data.shift_id, counted: { cash: 600, wechat: 30 } }, d.legacy.staff)).errno).toBe(100006);
    expect((await d.call<LegacyShift>('order/shiftInfo', { shift_id: opened.data.shift_id }, d.legacy.staff)).data.difference).toBe(-1);
    const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { hotelId: d.hotel.id, action: 'order.shiftClose' } });
    expect(audit.after).toMatchObject({ difference: -100, counted: { cash: 59_900, wechat: 3_000 } });
  });

  it("closes twice at once once; a clerk sees their own shifts, a manager every clerk's; hotel B finds none of A's", async () => {
    const d = await desk();
    const b = await desk();
    const staffShift = (await d.call<LegacyShift>('order/shiftOpen', { opening_float: 100 }, d.legacy.staff)).data;
    const ownerShift = (await d.call<LegacyShift>('order/shiftOpen', { opening_float: 50 })).data;

    const mine = await d.call<{ list: LegacyShift[]; total: number; page: number; limit: number }>('order/shiftList', {}, d.legacy.staff);
    expect(mine.data).toMatchObject({ total: 1, page: 1, limit: 20 });
    expect(mine.data.list.map((s) => s.shift_id)).toEqual([staffShift.shift_id]);
    expect((await d.call('order/shiftInfo', { shift_id: ownerShift.shift_id }, d.legacy.staff)).errno).toBe(100005);
    expect((await d.call('order/shiftList', { operator_id: d.ownerId }, d.legacy.staff)).errno).toBe(100004);
    const all = await d.call<{ list: LegacyShift[]; total: number }>('order/shiftList', { limit: 1 });
    expect(all.data.total).toBe(2);
    expect(all.data.list).toHaveLength(1);
    const today = localDate(new Date(), 'Asia/Shanghai');
    const range = await d.call<Fields>('order/shiftList', { start_date: today, end_date: addDays(today, -1) });
    expect(range.data?.fields?.end_date).toBeTruthy();

    // Hotel B: A's shifts are not found, its lists hold none of them.
    for (const [path, payload] of [
      ['order/shiftInfo', { shift_id: staffShift.shift_id }],
      ['order/shiftClose', { shift_id: staffShift.shift_id, counted: { cash: 100 } }],
    ] as const) {
      expect((await b.call(path, payload)).errno, path).toBe(100005);
    }
    expect((await b.call<{ total: number }>('order/shiftList', {})).data.total).toBe(0);

    // The manager closes the clerk's shift; two closes at once close it once.
    const closes = await Promise.all([0, 1].map(() => d.call<LegacyShift>('order/shiftClose', { shift_id: staffShift.shift_id, counted: { cash: 100 } })));
    expect(closes.map((c) => c.errno).sort()).toEqual([0, 100006]);
    expect(closes.find((c) => c.errno === 0)!.data).toMatchObject({ closed_by_id: d.ownerId, difference: 0 });
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: d.hotel.id, action: 'order.shiftClose' } })).toBe(1);
  });
});

interface LegacyDay {
  date: string;
  time_zone: string;
  currency: string;
  closed: number;
  close_time: string | null;
  closed_by_id: number | null;
  closed_automatically: number;
  rooms_total: number;
  rooms_available: number;
  rooms_sold: number;
  occupancy: number;
  adr: number;
  revpar: number;
  arrivals: number;
  room_revenue: number;
  revenue: number;
  pay_types: PayTypeLine[];
  received: number;
  deposits_held: number;
}

describe('order/dayReport, order/closeDay and order/report', () => {
  it("gives the day's figures in major units, the same as the web's; closes a day that is over once, even twice at once; sums a range", async () => {
    const d = await desk();
    const stay = await stayIn(d.staff, d.rooms[0].id, { deposit: 5_000 });
    await d.call('order/setCashData', { stay_id: stay.id, amount: 120, pay_type: 'bank_card' }, d.legacy.staff);
    const today = localDate(new Date(), 'Asia/Shanghai');

    const day = await d.call<LegacyDay>('order/dayReport', {});
    expect(day.errno, day.errmsg).toBe(0);
    expect(day.data).toMatchObject({
      date: today,
      time_zone: 'Asia/Shanghai',
      currency: 'CNY',
      closed: 0,
      close_time: null,
      rooms_total: 3,
      rooms_available: 3,
      received: 170,
      deposits_held: 50,
    });
    // Room revenue is tonight's (by the night it is for): one night at the room's 200.00 of the stay's nights.
    expect(day.data.room_revenue).toBe(200);
    expect(stay.priceAmount).toBeGreaterThan(20_000);
    expect(day.data.pay_types.map((l) => [l.pay_type, l.deposit, l.payment])).toEqual([
      ['cash', 50, 0],
      ['bank_card', 0, 120],
    ]);
    // The same figures as the web console's procedure, in major units.
    const { dayReport } = await import('../../modules/reports/day-report');
    const web = await dayReport(d.owner, { date: today });
    expect(day.data).toMatchObject({
      rooms_sold: web.rooms.sold,
      occupancy: web.occupancy,
      adr: web.adr / 100,
      revpar: web.revpar / 100,
      arrivals: web.arrivals,
    });

    // Today is not over: refused, naming the field, in the request's language.
    const early = await d.call<Fields>('order/closeDay', { date: today }, d.legacy.owner, 'zh-CN');
    expect(early.errno).toBe(100001);
    expect(early.data?.fields?.date).toMatch(/[\u4e00-\u9fff]/);
    // Closing is never assumed: the date is required.
    expect((await d.call<Fields>('order/closeDay', {})).data?.fields?.date).toBeTruthy();
    expect((await d.call<Fields>('order/dayReport', { date: '2026-02-30' })).data?.fields?.date).toBeTruthy();

    const yesterday = addDays(today, -1);
    const closes = await Promise.all([0, 1].map(() => d.call<LegacyDay>('order/closeDay', { date: yesterday })));
    for (const c of closes) expect(c.errno, c.errmsg).toBe(0);
    expect(closes.map((c) => c.data)).toEqual([closes[0]!.data, closes[0]!.data]);
    expect(closes[0]!.data).toMatchObject({ date: yesterday, closed: 1, closed_by_id: d.ownerId, closed_automatically: 0 });
    expect(closes[0]!.data.close_time).toMatch(TIME);
    expect(await ctx.deps.prisma.dayClose.count({ where: { hotelId: d.hotel.id } })).toBe(1);

    const range = await d.call<{ start_date: string; end_date: string; currency: string; list: LegacyDay[]; total: { received: number; revenue: number } }>(
      'order/report',
      { start_date: yesterday, end_date: today },
    );
    expect(range.errno, range.errmsg).toBe(0);
    expect(range.data).toMatchObject({ start_date: yesterday, end_date: today, currency: 'CNY' });
    expect(range.data.list.map((x) => [x.date, x.closed])).toEqual([
      [yesterday, 1],
      [today, 0],
    ]);
    expect(range.data.total.received).toBe(170);
    const tooLong = await d.call<Fields>('order/report', { start_date: addDays(today, -400), end_date: today });
    expect(tooLong.data?.fields?.end_date).toBeTruthy();
    const reversed = await d.call<Fields>('order/report', { start_date: today, end_date: yesterday });
    expect(reversed.data?.fields?.end_date).toBeTruthy();
  });

  it('is for managers of every room: a clerk and a manager of some rooms get no permission; hotel B gets its own figures', async () => {
    const d = await desk();
    const b = await desk();
    const stay = await stayIn(d.staff, d.rooms[0].id);
    await d.call('order/setCashData', { stay_id: stay.id, amount: 100 }, d.legacy.staff);
    const yesterday = addDays(localDate(new Date(), 'Asia/Shanghai'), -1);
    for (const as of [d.legacy.staff, d.legacy.limited]) {
      for (const [path, payload] of [
        ['order/dayReport', {}],
        ['order/closeDay', { date: yesterday }],
        ['order/report', { start_date: yesterday, end_date: yesterday }],
        ['order/auditChecks', { date: yesterday }],
      ] as const) {
        expect((await d.call(path, payload, as)).errno, path).toBe(100004);
      }
    }
    expect(await ctx.deps.prisma.dayClose.count({ where: { hotelId: d.hotel.id } })).toBe(0);
    const theirs = await b.call<LegacyDay>('order/dayReport', {});
    expect(theirs.data).toMatchObject({ received: 0, rooms_sold: 0, revenue: 0 });
  });

  it("order/auditChecks says what the night audit will find, with the hotel's no-show policy set through room/setHotelData", async () => {
    const d = await desk();
    const b = await desk();
    const today = localDate(new Date(), 'Asia/Shanghai');
    const set = await d.call<{ no_show_policy: string }>('room/setHotelData', { no_show_policy: 'charge_first_night' });
    expect(set.errno, set.errmsg).toBe(0);
    expect(set.data.no_show_policy).toBe('charge_first_night');
    const bad = await d.call<Fields>('room/setHotelData', { no_show_policy: 'all' });
    expect(bad.data?.fields?.no_show_policy).toBeTruthy();
    await d.call('order/shiftOpen', { opening_float: 50 }, d.legacy.staff);
    const checks = await d.call<{
      date: string;
      closed: number;
      no_show_policy: string;
      ties: number;
      open_shifts: { opening_float: number }[];
      arrivals: unknown[];
    }>('order/auditChecks', { date: today });
    expect(checks.errno, checks.errmsg).toBe(0);
    expect(checks.data).toMatchObject({ date: today, closed: 0, no_show_policy: 'charge_first_night', ties: 1, arrivals: [] });
    expect(checks.data.open_shifts.map((s) => s.opening_float)).toEqual([50]);
    expect((await b.call<{ open_shifts: unknown[] }>('order/auditChecks', { date: today })).data.open_shifts).toEqual([]);
    expect((await d.call<Fields>('order/auditChecks', {})).data?.fields?.date).toBeTruthy();
  });
});
