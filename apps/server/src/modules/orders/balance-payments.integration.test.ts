import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDate } from '@console/shared';
import { createTestContext, type TestContext } from '../../test/harness';
import { getToday } from '../today/today.service';
import { customerBalance, rechargeCustomer } from './balances';
import { recordDeposit, recordPayment } from './payments';
import { correctEntry, refundEntry } from './refunds';
import { cashReport } from './order-list';
import { ledgerHotel, refusal, stayIn, tableSum } from '../../test/ledger-kit';
import { getFolio, settleFolio } from './settlement.service';

/**
 * Paying a stay from a customer's balance (docs/orders.md, "Customers' balances"): a deposit or
 * payment with the way of paying `balance` names the customer; the folio receives it and the
 * balance gives it; its refunds and corrections go back to the balance; nothing takes the balance
 * below zero, through the services, at the same moment, or straight into the database; the cash
 * report and today's takings do not count the money twice.
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

async function balanceOf(h: Awaited<ReturnType<typeof ledgerHotel>>) {
  return (await customerBalance(h.owner, { customerId: h.customer.id })).balance;
}

describe("paying a stay from a customer's balance", () => {
  it('takes a payment and a deposit from the balance of the customer named by mobile; the folio receives what the balance gives, and it is audited', async () => {
    const h = await ledgerHotel(ctx);
    await rechargeCustomer(h.owner, { customerId: h.customer.id, amount: 50_000, method: 'cash' });
    const stay = await stayIn(h.staff, h.rooms[0].id);

    const paid = await recordPayment(h.staff, { stayId: stay.id, amount: 30_000, method: 'balance', mobile: h.customer.mobile!, note: 'From the wallet' });
    expect(paid.entry).toMatchObject({
      kind: 'payment',
      amount: 30_000,
      method: 'balance',
      customerId: h.customer.id,
      customerName: h.customer.nickname,
      roomName: '101',
      balanceChange: -30_000,
      refundable: 30_000,
    });
    // Against the room charge posted at check-in.
    expect(paid.folio).toMatchObject({ balance: 30_000 - stay.priceAmount });
    const deposit = await recordDeposit(h.staff, { stayId: stay.id, amount: 5_000, method: 'balance', customerId: h.customer.id });
    expect(deposit.entry).toMatchObject({ kind: 'deposit', method: 'balance', customerId: h.customer.id, balanceChange: -5_000 });
    expect(await balanceOf(h)).toBe(15_000);

    const seen = await customerBalance(h.staff, { mobile: h.customer.mobile! });
    expect(seen.recent.map((e) => [e.kind, e.method, e.balanceChange])).toEqual([
      ['deposit', 'balance', -5_000],
      ['payment', 'balance', -30_000],
      ['recharge', 'cash', 50_000],
    ]);
    // A customer named with another way of paying is not used: the money is the desk's.
    const cash = await recordPayment(h.staff, { stayId: stay.id, amount: 1_000, method: 'cash', customerId: h.customer.id });
    expect(cash.entry).toMatchObject({ method: 'cash', customerId: null, balanceChange: null });
    expect(await balanceOf(h)).toBe(15_000);

    const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({
      where: { hotelId: h.hotel.id, action: 'order.payment', entityId: String(paid.entry.id) },
      select: { before: true, after: true },
    });
    expect(audit.before).toMatchObject({ customerId: h.customer.id, balance: 50_000 });
    expect(audit.after).toMatchObject({ customerId: h.customer.id, balance: 20_000, method: 'balance' });
  });

  it("refuses more than the balance holds, a frozen customer, an unknown one, another hotel's, and a balance payment naming nobody; nothing is written", async () => {
    const h = await ledgerHotel(ctx);
    const b = await ledgerHotel(ctx);
    await rechargeCustomer(h.owner, { customerId: h.customer.id, amount: 10_000, method: 'cash' });
    await rechargeCustomer(b.owner, { customerId: b.customer.id, amount: 10_000, method: 'cash' });
    const stay = await stayIn(h.staff, h.rooms[0].id);
    const before = await ctx.deps.prisma.orderEntry.count({ where: { hotelId: h.hotel.id } });

    expect(await refusal(recordPayment(h.staff, { stayId: stay.id, amount: 10_001, method: 'balance', customerId: h.customer.id }))).toMatchObject({
      code: 'CONFLICT',
      key: 'orders.errors.balanceInsufficient',
      details: { balance: 10_000 },
    });
    expect(await refusal(recordPayment(h.staff, { stayId: stay.id, amount: 1, method: 'balance', mobile: '13800000001' }))).toMatchObject({
      code: 'NOT_FOUND',
      key: 'orders.errors.customerNotFound',
    });
    expect(await refusal(recordPayment(h.staff, { stayId: stay.id, amount: 1, method: 'balance', customerId: b.customer.id }))).toMatchObject({
      code: 'NOT_FOUND',
      key: 'orders.errors.customerNotFound',
    });
    expect(await refusal(recordPayment(h.staff, { stayId: stay.id, amount: 1, method: 'balance' }))).toMatchObject({ code: 'ZOD' });
    expect(await refusal(rechargeCustomer(h.owner, { customerId: h.customer.id, amount: 1, method: 'balance' as 'cash' }))).toMatchObject({ code: 'ZOD' });
    await ctx.deps.prisma.customer.update({ where: { id: h.customer.id }, data: { frozenAt: new Date() } });
    expect(await refusal(recordPayment(h.staff, { stayId: stay.id, amount: 1, method: 'balance', customerId: h.customer.id }))).toMatchObject({
      code: 'CONFLICT',
      key: 'orders.errors.balanceFrozen',
    });

    expect(await ctx.deps.prisma.orderEntry.count({ where: { hotelId: h.hotel.id } })).toBe(before);
    expect(await balanceOf(b)).toBe(10_000);
  });

  it('gives a refund or a correction of money from a balance back to the balance; another way of refunding it is refused', async () => {
    const h = await ledgerHotel(ctx);
    await rechargeCustomer(h.owner, { customerId: h.customer.id, amount: 20_000, method: 'wechat' });
    const stay = await stayIn(h.staff, h.rooms[0].id);
    const paid = await recordPayment(h.staff, { stayId: stay.id, amount: 12_000, method: 'balance', customerId: h.customer.id });
    expect(await balanceOf(h)).toBe(8_000);

    expect(await refusal(refundEntry(h.owner, { entryId: paid.entry.id, amount: 2_000, reason: 'Cash instead', method: 'cash' }))).toMatchObject({
      code: 'CONFLICT',
      key: 'orders.errors.balanceRefundsToBalance',
    });
    const refund = await refundEntry(h.owner, { entryId: paid.entry.id, amount: 2_000, reason: 'Breakfast not taken' });
    expect(refund.entry).toMatchObject({ kind: 'refund', amount: -2_000, method: 'balance', customerId: h.customer.id, balanceChange: 2_000 });
    expect(refund.refundableLeft).toBe(10_000);
    expect(await balanceOf(h)).toBe(10_000);

    const second = await recordPayment(h.staff, { stayId: stay.id, amount: 4_000, method: 'balance', customerId: h.customer.id });
    expect(await balanceOf(h)).toBe(6_000);
    const corrected = await correctEntry(h.owner, { entryId: second.entry.id, reason: 'Recorded twice' });
    expect(corrected.entry).toMatchObject({ kind: 'correction', amount: -4_000, method: 'balance', customerId: h.customer.id, balanceChange: 4_000 });
    expect(await balanceOf(h)).toBe(10_000);
    expect((await getFolio(h.staff, { stayId: stay.id })).balance).toBe(10_000 - stay.priceAmount);
  });

  it('never lets a recharge that was spent be refunded or corrected below zero', async () => {
    const h = await ledgerHotel(ctx);
    const recharge = await rechargeCustomer(h.owner, { customerId: h.customer.id, amount: 10_000, method: 'cash' });
    const stay = await stayIn(h.staff, h.rooms[0].id);
    await recordPayment(h.staff, { stayId: stay.id, amount: 8_000, method: 'balance', customerId: h.customer.id });

    expect(await refusal(refundEntry(h.owner, { entryId: recharge.entry.id, amount: 2_001, reason: 'Asked back' }))).toMatchObject({
      code: 'CONFLICT',
      key: 'orders.errors.balanceTooLow',
    });
    expect(await refusal(correctEntry(h.owner, { entryId: recharge.entry.id, reason: 'Mistake' }))).toMatchObject({
      code: 'CONFLICT',
      key: 'orders.errors.balanceTooLow',
    });
    await refundEntry(h.owner, { entryId: recharge.entry.id, amount: 2_000, reason: 'What is left' });
    expect(await balanceOf(h)).toBe(0);
  });
});

describe('settling with a balance', () => {
  it('pays what is owed at check-out from the balance, and refuses before checking out when the balance does not cover it', async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id, { to: 'next_noon' });
    const owed = stay.priceAmount;
    await rechargeCustomer(h.owner, { customerId: h.customer.id, amount: owed - 1, method: 'cash' });

    expect(
      await refusal(
        settleFolio(h.staff, { stayId: stay.id, checkOut: true, deposit: 'refund', payment: { amount: owed, method: 'balance', customerId: h.customer.id } }),
      ),
    ).toMatchObject({
      key: 'orders.errors.balanceInsufficient',
    });
    expect((await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: stay.id } })).status).toBe('in_house');
    expect(
      await refusal(settleFolio(h.staff, { stayId: stay.id, checkOut: true, deposit: 'refund', payment: { amount: owed, method: 'balance' } })),
    ).toMatchObject({
      code: 'ZOD',
    });

    await rechargeCustomer(h.owner, { customerId: h.customer.id, amount: 1, method: 'cash' });
    const settled = await settleFolio(h.staff, {
      stayId: stay.id,
      checkOut: true,
      deposit: 'refund',
      payment: { amount: owed, method: 'balance', mobile: h.customer.mobile! },
    });
    expect(settled.state).toBe('settled');
    expect(settled.entries.at(-1)).toMatchObject({ kind: 'payment', method: 'balance', amount: owed, customerId: h.customer.id });
    expect(await tableSum(ctx, settled.folioId!)).toBe(0);
    expect(await balanceOf(h)).toBe(0);
  });

  it('gives money from a balance that was paid too much back to the balance, without asking the desk for a way', async () => {
    const h = await ledgerHotel(ctx);
    await rechargeCustomer(h.owner, { customerId: h.customer.id, amount: 100_000, method: 'cash' });
    const stay = await stayIn(h.staff, h.rooms[0].id, { to: 'next_noon' });
    await recordPayment(h.staff, { stayId: stay.id, amount: stay.priceAmount + 7_000, method: 'balance', customerId: h.customer.id });
    const before = await balanceOf(h);
    // It goes back to the balance by itself: the desk is not asked for a way (nothing is handed over).
    expect((await getFolio(h.staff, { stayId: stay.id })).preview?.ifDepositRefunded).toMatchObject({ refunded: 7_000, handedBack: 0 });

    const settled = await settleFolio(h.staff, { stayId: stay.id, checkOut: true, deposit: 'refund' });
    const refund = settled.entries.find((e) => e.kind === 'refund');
    expect(refund).toMatchObject({ amount: -7_000, method: 'balance', customerId: h.customer.id });
    expect(await balanceOf(h)).toBe(before + 7_000);
    expect(await tableSum(ctx, settled.folioId!)).toBe(0);
  });
});

describe("the database's rules", () => {
  it('refuses an entry naming a folio and a customer without the way "balance", and one taking the balance below zero', async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id);
    const folio = (await recordPayment(h.staff, { stayId: stay.id, amount: 100, method: 'cash' })).entry.folioId!;
    await rechargeCustomer(h.owner, { customerId: h.customer.id, amount: 500, method: 'cash' });
    const insert = (method: string, amount: number, customerId: number | null) =>
      ctx.deps.prisma.$executeRawUnsafe(
        `INSERT INTO "OrderEntry" ("hotelId", "kind", "amount", "currency", "stayId", "folioId", "customerId", "method", "note") VALUES ($1, 'payment', $2, 'CNY', $3, $4, $5, $6::"PaymentMethod", 'raw')`,
        h.hotel.id,
        amount,
        stay.id,
        folio,
        customerId,
        method,
      );
    await expect(insert('cash', 100, h.customer.id)).rejects.toThrow(/OrderEntry_balance_method/);
    await expect(insert('balance', 100, null)).rejects.toThrow(/OrderEntry_balance_method/);
    await expect(insert('balance', 501, h.customer.id)).rejects.toThrow(/OrderEntry_balance_covers/);
    await insert('balance', 500, h.customer.id);
    expect(await balanceOf(h)).toBe(0);
  });

  it('lets only one of two payments at the same moment spend what the balance holds', async () => {
    const h = await ledgerHotel(ctx);
    await rechargeCustomer(h.owner, { customerId: h.customer.id, amount: 10_000, method: 'cash' });
    const stays = [await stayIn(h.staff, h.rooms[0].id), await stayIn(h.staff, h.rooms[1].id)];
    for (let round = 0; round < 3; round += 1) {
      const results = await Promise.allSettled(
        stays.map((s) => recordPayment(h.staff, { stayId: s.id, amount: 7_000, method: 'balance', customerId: h.customer.id })),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({
        code: 'CONFLICT',
        message: 'orders.errors.balanceInsufficient',
      });
      expect(await balanceOf(h)).toBe(3_000);
      await rechargeCustomer(h.owner, { customerId: h.customer.id, amount: 7_000, method: 'cash' });
    }
  });
});

describe('the money of the day', () => {
  it("shows money taken from balances on its own line of the cash report, not in what is handed over, nor in today's takings", async () => {
    const h = await ledgerHotel(ctx);
    await rechargeCustomer(h.owner, { customerId: h.customer.id, amount: 30_000, method: 'cash' });
    const stay = await stayIn(h.staff, h.rooms[0].id);
    await recordPayment(h.staff, { stayId: stay.id, amount: 20_000, method: 'balance', customerId: h.customer.id });
    await recordPayment(h.staff, { stayId: stay.id, amount: 1_000, method: 'cash' });

    const report = await cashReport(h.owner, { date: localDate(new Date(), h.owner.actor.timeZone) });
    expect(report.methods.map((m) => [m.method, m.net])).toEqual([
      ['cash', 31_000],
      ['balance', 20_000],
    ]);
    expect(report).toMatchObject({ net: 31_000, cash: 31_000 });
    const staffLine = report.operators.find((o) => o.operator?.id === h.staffId)!;
    expect(staffLine).toMatchObject({ net: 1_000, cash: 1_000 });
    expect(staffLine.methods.find((m) => m.method === 'balance')).toMatchObject({ payments: 20_000 });

    const today = await getToday(h.owner);
    expect(today.takings).toMatchObject({ received: 31_000, entries: 2 });
  });
});
