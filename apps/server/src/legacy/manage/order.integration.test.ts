import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDate } from '@console/shared';
import { createSession } from '../../modules/auth/session.service';
import { ledgerHotel, stayIn } from '../../test/ledger-kit';
import { settleFolio } from '../../modules/orders/settlement.service';
import { createTestContext, testMeta, type TestContext } from '../../test/harness';
import { legacyClient } from '../../test/legacy-client';

/**
 * `/manage/order/setCashData`, `macMember`, `refund`, `recharge`, `orderList` and `cash` driven as an
 * old client does (crypto-js DES envelope, legacy field names, money in major units, errmsg in the
 * request's language): each action's answer, its refusals with the field named, and hotel B against
 * hotel A's stays, orders and members.
 */
let ctx: TestContext;
let ipCounter = 0;
const client = (language = 'en') => legacyClient(ctx.app, ctx.config, { language, ip: `10.82.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

async function legacyToken(accountId: number, hotelId: number) {
  return (await createSession(ctx.deps, { accountId, hotelId, kind: 'legacy', meta: testMeta() })).token;
}

async function desk() {
  const h = await ledgerHotel(ctx);
  const owner = await legacyToken(h.ownerId, h.hotel.id);
  const staff = await legacyToken(h.staffId, h.hotel.id);
  const call = <T = Record<string, unknown>>(path: string, payload: Record<string, unknown>, token = owner, language = 'en') =>
    client(language).call<T>(path, payload, { token, language });
  return { ...h, owner: h.owner, legacy: { owner, staff }, call };
}

interface LegacyOrder {
  id: number;
  type: string;
  type_text: string;
  amount: number;
  currency: string;
  pay_type: string | null;
  pay_type_text: string | null;
  note: string;
  stay_id: number | null;
  room_id: number | null;
  room_name: string | null;
  customer_id: number | null;
  related_id: number | null;
  refundable: number | null;
  corrected: number;
  operator_id: number | null;
  operator_name: string | null;
  create_time: string;
}
type Fields = { fields?: Record<string, string> } | null;

describe('order/setCashData', () => {
  it('records a payment (cash by default), a deposit, a charge and the room charge on a stay, in major units, with the folio after each', async () => {
    const d = await desk();
    const stay = await stayIn(d.staff, d.rooms[0].id);
    const paid = await d.call<{
      list: LegacyOrder[];
      folio: { balance: number; owed: number; due_back: number; deposit: number; settled: number };
      replayed: number;
    }>('order/setCashData', { stay_id: stay.id, amount: '150.5' }, d.legacy.staff, 'zh-CN');
    expect(paid.errno, paid.errmsg).toBe(0);
    expect(paid.data.list[0]).toMatchObject({
      type: 'payment',
      type_text: '收款',
      amount: 150.5,
      currency: 'CNY',
      pay_type: 'cash',
      pay_type_text: '现金',
      stay_id: stay.id,
      room_id: d.rooms[0].id,
      room_name: '101',
      refundable: 150.5,
      corrected: 0,
      operator_id: d.staffId,
    });
    expect(paid.data.list[0]!.create_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // The room charge is on the bill from check-in (the posting rule): the payment goes against it.
    const price = stay.priceAmount / 100;
    expect(paid.data.folio).toMatchObject({ balance: 150.5 - price, owed: price - 150.5, due_back: 0, deposit: 0, settled: 0 });

    const deposit = await d.call<{ list: LegacyOrder[]; folio: { deposit: number } }>('order/setCashData', {
      stay_id: stay.id,
      type: 'deposit',
      amount: 300,
      pay_type: 'wechat',
    });
    expect(deposit.data.list[0]).toMatchObject({ type: 'deposit', type_text: 'Deposit', pay_type_text: 'WeChat Pay' });
    expect(deposit.data.folio.deposit).toBe(300);
    const charge = await d.call<{ list: LegacyOrder[] }>('order/setCashData', { stay_id: stay.id, type: 'charge', amount: 20, note: 'Minibar' });
    expect(charge.data.list[0]).toMatchObject({ type: 'charge', amount: -20, pay_type: null, note: 'Minibar' });
    const room = await d.call<{ list: LegacyOrder[]; folio: { balance: number } }>('order/setCashData', { stay_id: stay.id, type: 'room_charge' });
    expect(room.errno, room.errmsg).toBe(0);
    // Already charged at check-in: nothing to bring to the price.
    expect(room.data.list).toEqual([]);
    expect(room.data.folio.balance).toBe(150.5 + 300 - 20 - price);

    // The same request id again: the same order, nothing new.
    const requestId = randomUUID();
    const once = await d.call<{ list: LegacyOrder[]; replayed: number }>('order/setCashData', { stay_id: stay.id, amount: 10, request_id: requestId });
    const twice = await d.call<{ list: LegacyOrder[]; replayed: number }>('order/setCashData', { stay_id: stay.id, amount: 10, request_id: requestId });
    expect([once.data.replayed, twice.data.replayed]).toEqual([0, 1]);
    expect(twice.data.list[0]!.id).toBe(once.data.list[0]!.id);
  });

  it("names the field it refuses, in the request's language, and refuses a settled stay's bill", async () => {
    const d = await desk();
    const stay = await stayIn(d.staff, d.rooms[0].id, { to: 'next_noon' });
    const noAmount = await d.call<Fields>('order/setCashData', { stay_id: stay.id, type: 'payment' }, d.legacy.staff, 'zh-CN');
    expect(noAmount.errno).toBe(100001);
    expect(noAmount.data?.fields?.amount).toBe('请输入金额');
    const zero = await d.call<Fields>('order/setCashData', { stay_id: stay.id, amount: 0 });
    expect(zero.data?.fields?.amount).toBe('Enter an amount greater than 0');
    const type = await d.call<Fields>('order/setCashData', { stay_id: stay.id, type: 'gift', amount: 1 });
    expect(type.data?.fields?.type).toBe('Choose a valid order type');
    const way = await d.call<Fields>('order/setCashData', { stay_id: stay.id, amount: 1, pay_type: 'shells' });
    expect(way.data?.fields?.pay_type).toBe('Choose a payment method');
    const reason = await d.call<Fields>('order/setCashData', { stay_id: stay.id, type: 'charge', amount: 1 });
    expect(reason.data?.fields?.note).toBe('Enter the reason');
    const cents = await d.call<Fields>('order/setCashData', { stay_id: stay.id, amount: '1.005' });
    expect(cents.data?.fields?.amount).toBeTruthy();

    await settleFolio(d.staff, { stayId: stay.id, checkOut: true, deposit: 'refund', payment: { amount: stay.priceAmount, method: 'cash' } });
    const closed = await d.call('order/setCashData', { stay_id: stay.id, amount: 1 }, d.legacy.staff, 'zh-CN');
    expect(closed).toMatchObject({ errno: 100006, errmsg: '该账单已结清并关闭，不能再记录任何款项。' });
  });
});

describe('pay_type balance', () => {
  it("takes a payment from a member's balance by mobile, gives its refund back to the balance, and refuses what the balance does not cover", async () => {
    const d = await desk();
    const stay = await stayIn(d.staff, d.rooms[0].id);
    const recharged = await d.call<{ balance: number }>('order/recharge', { customer_id: d.customer.id, amount: 200, pay_type: 'cash' });
    expect(recharged.errno, recharged.errmsg).toBe(0);

    const paid = await d.call<{ list: (LegacyOrder & { balance_change: number | null })[]; folio: { balance: number } }>(
      'order/setCashData',
      { stay_id: stay.id, amount: 150, pay_type: 'balance', mobile: d.customer.mobile },
      d.legacy.staff,
      'zh-CN',
    );
    expect(paid.errno, paid.errmsg).toBe(0);
    expect(paid.data.list[0]).toMatchObject({
      type: 'payment',
      amount: 150,
      pay_type: 'balance',
      pay_type_text: '客户余额',
      customer_id: d.customer.id,
      balance_change: -150,
    });
    expect(paid.data.folio.balance).toBe(150 - stay.priceAmount / 100);
    const member = await d.call<{ balance: number; list: { pay_type: string; balance_change: number | null }[] }>('order/macMember', {
      customer_id: d.customer.id,
    });
    expect(member.data.balance).toBe(50);
    expect(member.data.list[0]).toMatchObject({ pay_type: 'balance', balance_change: -150 });

    const short = await d.call('order/setCashData', { stay_id: stay.id, amount: 50.01, pay_type: 'balance', customer_id: d.customer.id }, d.legacy.staff);
    expect(short).toMatchObject({ errno: 100006, errmsg: expect.stringMatching(/balance \(.*50\.00\) does not cover/) });
    const nobody = await d.call<Fields>('order/setCashData', { stay_id: stay.id, amount: 1, pay_type: 'balance' }, d.legacy.staff, 'en');
    expect(nobody.errno).toBe(100001);
    expect(nobody.data?.fields?.customer_id).toBe('Choose a customer (ID or mobile number)');
    const wrongWay = await d.call('order/refund', { order_id: paid.data.list[0]!.id, amount: 10, reason: 'Cash', pay_type: 'cash' });
    expect(wrongWay.errno).toBe(100006);
    const refund = await d.call<{ order: LegacyOrder & { balance_change: number } }>('order/refund', {
      order_id: paid.data.list[0]!.id,
      amount: 10,
      reason: 'Breakfast',
    });
    expect(refund.data.order).toMatchObject({ pay_type: 'balance', amount: -10, balance_change: 10 });
    expect((await d.call<{ balance: number }>('order/macMember', { mobile: d.customer.mobile })).data.balance).toBe(60);
    const recharge = await d.call<Fields>('order/recharge', { customer_id: d.customer.id, amount: 1, pay_type: 'balance' });
    expect(recharge.data?.fields?.pay_type).toBe('Choose a payment method');
  });
});

describe('order/refund', () => {
  it('refunds an order in parts with a reason, never above what is left; front-desk staff may not', async () => {
    const d = await desk();
    const stay = await stayIn(d.staff, d.rooms[0].id);
    const paid = (await d.call<{ list: LegacyOrder[] }>('order/setCashData', { stay_id: stay.id, amount: 100, pay_type: 'bank_card' })).data.list[0]!;
    const refund = await d.call<{ order: LegacyOrder; refundable: number; folio: { balance: number } }>('order/refund', {
      order_id: paid.id,
      amount: 40,
      reason: 'Overcharged',
    });
    expect(refund.errno, refund.errmsg).toBe(0);
    expect(refund.data).toMatchObject({
      refundable: 60,
      folio: { balance: 60 - stay.priceAmount / 100 },
      order: { type: 'refund', amount: -40, pay_type: 'bank_card', related_id: paid.id, note: 'Overcharged', refundable: null },
    });
    const tooMuch = await d.call('order/refund', { order_id: paid.id, amount: 60.01, reason: 'More' });
    expect(tooMuch.errno).toBe(100006);
    expect(tooMuch.errmsg).toMatch(/at most .*60\.00 can be refunded/);
    const noReason = await d.call<Fields>('order/refund', { order_id: paid.id, amount: 1 }, d.legacy.owner, 'de');
    expect(noReason.data?.fields?.reason).toBe('Geben Sie den Grund ein');
    expect((await d.call('order/refund', { order_id: paid.id, amount: 1, reason: 'x' }, d.legacy.staff)).errno).toBe(100004);
    const rest = await d.call<{ refundable: number }>('order/refund', { order_id: paid.id, amount: 60, reason: 'Rest', pay_type: 'cash' });
    expect(rest.data.refundable).toBe(0);
  });
});

describe('order/recharge and order/macMember', () => {
  it('recharges a member by id or mobile and answers their balance with their newest orders', async () => {
    const d = await desk();
    const first = await d.call<{ order: LegacyOrder; balance: number }>('order/recharge', {
      customer_id: d.customer.id,
      amount: 200,
      pay_type: 'alipay',
      note: 'Top-up',
    });
    expect(first.errno, first.errmsg).toBe(0);
    expect(first.data).toMatchObject({
      balance: 200,
      order: { type: 'recharge', amount: 200, pay_type: 'alipay', customer_id: d.customer.id, note: 'Top-up' },
    });
    const second = await d.call<{ balance: number }>('order/recharge', { mobile: d.customer.mobile, amount: '50' });
    expect(second.data.balance).toBe(250);
    await d.call('order/refund', { order_id: first.data.order.id, amount: 30, reason: 'Asked back' });

    const member = await d.call<{
      customer_id: number;
      nickname: string;
      mobile: string;
      status: number;
      balance: number;
      currency: string;
      list: LegacyOrder[];
    }>('order/macMember', { mobile: d.customer.mobile }, d.legacy.staff);
    expect(member.errno, member.errmsg).toBe(0);
    expect(member.data).toMatchObject({ customer_id: d.customer.id, nickname: d.customer.nickname, status: 0, balance: 220, currency: 'CNY' });
    expect(member.data.list.map((o) => [o.type, o.amount])).toEqual([
      ['refund', -30],
      ['recharge', 50],
      ['recharge', 200],
    ]);
    const nobody = await d.call<Fields>('order/macMember', {}, d.legacy.staff, 'zh-CN');
    expect(nobody.data?.fields?.customer_id).toBe('请选择客户（ID 或手机号）');
    expect(await d.call('order/macMember', { customer_id: 2_000_000_000 })).toMatchObject({ errno: 100005, errmsg: 'The customer does not exist.' });
    expect((await d.call('order/recharge', { customer_id: d.customer.id, amount: 1 }, d.legacy.staff)).errno).toBe(100004);
  });
});

describe('order/orderList and order/cash', () => {
  it("lists orders with filters and pages, with the sum of what matches; the day's cash report per operator", async () => {
    const d = await desk();
    const stay = await stayIn(d.staff, d.rooms[0].id);
    await d.call('order/setCashData', { stay_id: stay.id, amount: 100 }, d.legacy.staff);
    await d.call('order/setCashData', { stay_id: stay.id, type: 'deposit', amount: 50, pay_type: 'wechat' }, d.legacy.staff);
    await d.call('order/setCashData', { stay_id: stay.id, type: 'charge', amount: 5, note: 'Tea' });
    await d.call('order/recharge', { customer_id: d.customer.id, amount: 80 });

    const page = await d.call<{ list: LegacyOrder[]; total: number; page: number; limit: number; sum: number; currency: string }>('order/orderList', {
      page: 1,
      limit: 3,
    });
    expect(page.errno, page.errmsg).toBe(0);
    // With the room charge posted at check-in.
    expect(page.data).toMatchObject({ total: 5, page: 1, limit: 3, sum: 225 - stay.priceAmount / 100, currency: 'CNY' });
    expect(page.data.list.map((o) => o.type)).toEqual(['recharge', 'charge', 'deposit']);
    const today = localDate(new Date(), 'Asia/Shanghai');
    const cash = await d.call<{ total: number; list: LegacyOrder[] }>('order/orderList', {
      pay_type: 'cash',
      stay_id: stay.id,
      start_date: today,
      end_date: today,
      operator_id: d.staffId,
      type: 'payment',
    });
    expect(cash.data).toMatchObject({ total: 1, sum: 100 });
    const range = await d.call<Fields>('order/orderList', { start_date: today, end_date: '2000-01-01' });
    expect(range.data?.fields?.end_date).toBeTruthy();
    expect((await d.call('order/orderList', {}, d.legacy.staff)).errno).toBe(100004);

    const report = await d.call<{
      date: string;
      time_zone: string;
      currency: string;
      total: number;
      cash: number;
      list: {
        operator_id: number;
        total: number;
        cash: number;
        count: number;
        pay_types: { pay_type: string; payment: number; deposit: number; total: number }[];
      }[];
    }>('order/cash', {});
    expect(report.errno, report.errmsg).toBe(0);
    expect(report.data).toMatchObject({ date: today, time_zone: 'Asia/Shanghai', currency: 'CNY', total: 230, cash: 180 });
    const staffRow = report.data.list.find((r) => r.operator_id === d.staffId)!;
    expect(staffRow).toMatchObject({ total: 150, cash: 100, count: 2 });
    expect(staffRow.pay_types.map((p) => [p.pay_type, p.payment, p.deposit])).toEqual([
      ['cash', 100, 0],
      ['wechat', 0, 50],
    ]);
    // Front-desk staff get their own shift.
    const own = await d.call<{ total: number; list: { operator_id: number }[] }>('order/cash', { date: today }, d.legacy.staff);
    expect(own.data.list.map((r) => r.operator_id)).toEqual([d.staffId]);
    expect((await d.call('order/cash', { operator_id: d.ownerId }, d.legacy.staff)).errno).toBe(100004);
    expect((await d.call<Fields>('order/cash', { date: '2026-02-30' })).data?.fields?.date).toBeTruthy();
  });
});

describe('hotel B', () => {
  it('gets "not found" on hotel A\'s stays, orders and members, and none of A\'s orders in its list or report', async () => {
    const a = await desk();
    const b = await desk();
    const stay = await stayIn(a.staff, a.rooms[0].id);
    const paid = (await a.call<{ list: LegacyOrder[] }>('order/setCashData', { stay_id: stay.id, amount: 100 })).data.list[0]!;
    const recharge = (await a.call<{ order: LegacyOrder }>('order/recharge', { customer_id: a.customer.id, amount: 100 })).data.order;
    for (const [path, payload] of [
      ['order/setCashData', { stay_id: stay.id, amount: 1 }],
      ['order/setCashData', { stay_id: stay.id, type: 'room_charge' }],
      ['order/refund', { order_id: paid.id, amount: 1, reason: 'x' }],
      ['order/refund', { order_id: recharge.id, amount: 1, reason: 'x' }],
      ['order/recharge', { customer_id: a.customer.id, amount: 1 }],
      ['order/recharge', { mobile: a.customer.mobile, amount: 1 }],
      ['order/macMember', { customer_id: a.customer.id }],
    ] as const) {
      expect((await b.call(path, payload)).errno, path).toBe(100005);
    }
    expect((await b.call<{ total: number }>('order/orderList', { stay_id: stay.id })).data.total).toBe(0);
    expect((await b.call<{ total: number }>('order/orderList', {})).data.total).toBe(0);
    expect((await b.call<{ total: number }>('order/cash', {})).data.total).toBe(0);
    // The room charge of check-in, the payment and the recharge.
    expect(await ctx.deps.prisma.orderEntry.count({ where: { hotelId: a.hotel.id } })).toBe(3);
  });
});

describe('room/checkOut and the bill (issue 17)', () => {
  type Bill = { state: string; owed: number; due_back: number; paid: number };
  it('posts what the stay owes and leaves the bill owing (in major units), collectable later up to what is owed, then closed', async () => {
    const d = await desk();
    const stay = await stayIn(d.staff, d.rooms[0].id, { to: 'next_noon' });
    const price = stay.priceAmount / 100;
    expect((await d.call('order/setCashData', { stay_id: stay.id, amount: 100 })).errno).toBe(0);
    const out = await d.call<{ bill: Bill; revoked_credentials: number }>('room/checkOut', { stay_id: stay.id }, d.legacy.staff);
    expect(out.errno, out.errmsg).toBe(0);
    expect(out.data.bill).toEqual({ state: 'owing', owed: price - 100, due_back: 0, paid: 0 });
    const folio = await ctx.deps.prisma.folio.findFirstOrThrow({ where: { hotelId: d.hotel.id, stayId: stay.id } });
    expect(folio).toMatchObject({ owedAmount: stay.priceAmount - 10_000, owedReason: 'legacy_check_out', settledAt: null });
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: d.hotel.id, action: 'order.leftOwing' } })).toBe(1);
    // The guest list says so too, in major units.
    const listed = await d.call<{ list: { id: number; bill: { state: string; owed: number; due_back: number } }[] }>(
      'room/tenant/list',
      { state: 'all' },
      d.legacy.staff,
    );
    expect(listed.data.list.find((s) => s.id === stay.id)!.bill).toEqual({ state: 'owing', owed: price - 100, due_back: 0 });

    // Above what is owed: refused, and the refusal's figure is in major units like every amount of the protocol.
    const tooMuch = await d.call<{ owed: number }>('order/setCashData', { stay_id: stay.id, amount: price }, d.legacy.staff);
    expect(tooMuch).toMatchObject({ errno: 100006, data: { owed: price - 100 } });
    const charge = await d.call('order/setCashData', { stay_id: stay.id, type: 'charge', amount: 5, note: 'late' }, d.legacy.staff);
    expect(charge.errno).toBe(100006);
    const paid = await d.call<{ folio: { owed: number; settled: number } }>(
      'order/setCashData',
      { stay_id: stay.id, amount: price - 100, pay_type: 'wechat' },
      d.legacy.staff,
    );
    expect(paid.data.folio).toMatchObject({ owed: 0, settled: 1 });
    expect((await d.call('order/setCashData', { stay_id: stay.id, amount: 1 }, d.legacy.staff)).errno).toBe(100006);
  });

  it('settles at once when the client says how the guest paid (pay_type), and when the bill already balances', async () => {
    const d = await desk();
    const owing = await stayIn(d.staff, d.rooms[0].id, { to: 'next_noon' });
    const out = await d.call<{ bill: Bill }>('room/checkOut', { stay_id: owing.id, pay_type: 'alipay' }, d.legacy.staff);
    expect(out.data.bill).toEqual({ state: 'settled', owed: 0, due_back: 0, paid: owing.priceAmount / 100 });
    const folio = await ctx.deps.prisma.folio.findFirstOrThrow({
      where: { hotelId: d.hotel.id, stayId: owing.id },
      include: { entries: { orderBy: { id: 'asc' } } },
    });
    expect(folio.settledAt).not.toBeNull();
    expect(folio.entries.map((e) => [e.kind, e.amount, e.method])).toEqual([
      ['room_charge', -owing.priceAmount, null],
      ['payment', owing.priceAmount, 'alipay'],
    ]);

    const even = await stayIn(d.staff, d.rooms[1].id, { to: 'next_noon' });
    await d.call('order/setCashData', { stay_id: even.id, amount: even.priceAmount / 100 });
    expect((await d.call<{ bill: Bill }>('room/checkOut', { stay_id: even.id })).data.bill).toMatchObject({ state: 'settled', paid: 0 });
    const wrongWay = await d.call<Fields>('room/checkOut', { stay_id: even.id, pay_type: 'shells' });
    expect(wrongWay.data?.fields?.pay_type).toBeTruthy();
  });

  it('leaves money due back to the desk (the bill open, saying how much)', async () => {
    const d = await desk();
    const stay = await stayIn(d.staff, d.rooms[0].id, { to: 'next_noon', deposit: 30_000 });
    await d.call('order/setCashData', { stay_id: stay.id, amount: stay.priceAmount / 100 });
    const out = await d.call<{ bill: Bill }>('room/checkOut', { stay_id: stay.id });
    expect(out.data.bill).toEqual({ state: 'open', owed: 0, due_back: 300, paid: 0 });
  });
});

describe('money in refusals (issue 17 §8)', () => {
  it('says what is left to refund and what a balance holds in major units, as the rest of the protocol', async () => {
    const d = await desk();
    const stay = await stayIn(d.staff, d.rooms[0].id);
    const paid = (await d.call<{ list: LegacyOrder[] }>('order/setCashData', { stay_id: stay.id, amount: 40, pay_type: 'cash' })).data.list[0]!;
    const refund = await d.call<{ refundable: number }>('order/refund', { order_id: paid.id, amount: 41, reason: 'More' }, d.legacy.owner, 'zh-CN');
    expect(refund).toMatchObject({ errno: 100006, data: { refundable: 40 } });
    await d.call('order/recharge', { customer_id: d.customer.id, amount: 5, pay_type: 'cash' });
    const short = await d.call<{ balance: number }>(
      'order/setCashData',
      { stay_id: stay.id, amount: 6, pay_type: 'balance', customer_id: d.customer.id },
      d.legacy.staff,
    );
    expect(short).toMatchObject({ errno: 100006, data: { balance: 5 } });
  });
});
