/**
 * Cashier shifts (issue 26 §2, docs/orders.md "Cashier shifts"): the money a clerk takes while their
 * shift is open belongs to it; the close counts it against the ledger and keeps the difference; a
 * closed shift is final; a clerk sees their own shifts, a manager every clerk's; two closes at once
 * close once; a payment at the instant of the close lands in the shift or after it, never lost from
 * both; the sum of the shifts is the ledger's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness';
import { trpcClient } from '../../test/trpc-client';
import { ledgerHotel, shiftLine as line, member, refusal, stayIn } from '../../test/ledger-kit';
import { recordDeposit, recordPayment } from './payments';
import { refundEntry } from './refunds';
import { closeShift, currentShift, getShift, listShifts, openShift } from './shifts';

let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;

beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
});
afterAll(() => ctx.close());

describe('a cashier shift', () => {
  it('takes what the clerk records while it is open, closes against what was counted, and keeps the difference', async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id);
    // Before the shift: the money belongs to none.
    const before = await recordPayment(h.staff, { stayId: stay.id, amount: 1_000, method: 'cash' });
    expect(await currentShift(h.staff)).toBeNull();

    const opened = await openShift(h.staff, { openingFloat: 50_000 });
    expect(opened).toMatchObject({ closedAt: null, openingFloat: 50_000, expected: 50_000, counted: null, difference: null, count: 0 });
    expect(opened.methods.map((l) => l.method)).toEqual(['cash']);
    // A second open is refused while one is open.
    expect(await refusal(openShift(h.staff, { openingFloat: 0 }))).toMatchObject({ code: 'CONFLICT', key: 'shifts.errors.alreadyOpen' });

    await recordDeposit(h.staff, { stayId: stay.id, amount: 20_000, method: 'cash' });
    await recordPayment(h.staff, { stayId: stay.id, amount: 30_000, method: 'wechat' });
    // The owner's refund is the owner's money (no shift of theirs is open): not in the clerk's shift.
    await refundEntry(h.owner, { entryId: before.entry.id, amount: 1_000, reason: 'Paid twice', method: 'cash' });
    const open = (await currentShift(h.staff))!;
    expect(open.id).toBe(opened.id);
    expect(line(open, 'cash')).toMatchObject({ deposits: 20_000, net: 20_000, expected: 70_000, counted: null });
    expect(line(open, 'wechat')).toMatchObject({ payments: 30_000, expected: 30_000 });
    expect(open.expected).toBe(100_000);
    expect(await ctx.deps.prisma.orderEntry.count({ where: { shiftId: opened.id } })).toBe(2);

    // Every way it took money by is counted: a missing one is asked for, never taken as zero.
    const missing = await refusal(closeShift(h.staff, { shiftId: opened.id, counted: { cash: 69_000 } }));
    expect(missing).toMatchObject({ code: 'VALIDATION', key: 'shifts.validation.countMissing', fields: { 'counted.wechat': 'validation.amountRequired' } });
    expect((await refusal(closeShift(h.staff, { shiftId: opened.id, counted: { wechat: 30_000 } }))).code).toBe('ZOD');

    const closed = await closeShift(h.staff, { shiftId: opened.id, counted: { cash: 69_000, wechat: 30_000 }, note: 'One note short' });
    expect(closed).toMatchObject({ closedBy: { id: h.staffId }, expected: 100_000, counted: 99_000, difference: -1_000, note: 'One note short' });
    expect(line(closed, 'cash')).toMatchObject({ expected: 70_000, counted: 69_000, difference: -1_000 });
    expect(line(closed, 'wechat')).toMatchObject({ expected: 30_000, counted: 30_000, difference: 0 });
    const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { hotelId: h.hotel.id, action: 'order.shiftClose' } });
    expect(audit.after).toMatchObject({ difference: -1_000, counted: { cash: 69_000, wechat: 30_000 } });

    // Closed is final: no second close, no change in the database, and money now belongs to no shift.
    expect(await refusal(closeShift(h.staff, { shiftId: opened.id, counted: { cash: 70_000, wechat: 30_000 } }))).toMatchObject({
      key: 'shifts.errors.closed',
    });
    await expect(ctx.deps.prisma.cashierShift.update({ where: { id: opened.id }, data: { note: 'rewritten' } })).rejects.toThrow(
      /CashierShift_closed_is_final/,
    );
    const after = await recordPayment(h.staff, { stayId: stay.id, amount: 500, method: 'cash' });
    expect((await ctx.deps.prisma.orderEntry.findUniqueOrThrow({ where: { id: after.entry.id } })).shiftId).toBeNull();
    expect((await getShift(h.staff, { shiftId: opened.id })).expected).toBe(100_000);
    expect(await currentShift(h.staff)).toBeNull();
  });

  it('is the clerk’s own to see; a manager sees and closes every clerk’s; another hotel finds none', async () => {
    const h = await ledgerHotel(ctx);
    const other = await ledgerHotel(ctx);
    const clerk = await member(ctx, h.hotel.id, 'staff');
    const mine = await openShift(h.staff, { openingFloat: 1_000 });
    const theirs = await openShift(clerk.ctx, { openingFloat: 2_000 });
    expect(await refusal(getShift(clerk.ctx, { shiftId: mine.id }))).toMatchObject({ code: 'NOT_FOUND', key: 'shifts.errors.notFound' });
    expect(await refusal(closeShift(clerk.ctx, { shiftId: mine.id, counted: { cash: 1_000 } }))).toMatchObject({ code: 'NOT_FOUND' });
    expect((await listShifts(clerk.ctx, {})).items.map((s) => s.id)).toEqual([theirs.id]);
    expect(await refusal(listShifts(clerk.ctx, { operatorId: h.staffId }))).toMatchObject({ code: 'FORBIDDEN' });
    expect((await listShifts(h.owner, {})).items.map((s) => s.id).sort()).toEqual([mine.id, theirs.id].sort());
    // Another hotel's manager: not found, over tRPC too.
    expect(await refusal(getShift(other.owner, { shiftId: mine.id }))).toMatchObject({ code: 'NOT_FOUND' });
    const foreign = await api.mutation('order.shiftClose', { shiftId: mine.id, counted: { cash: 0 } }, { token: other.ownerToken });
    expect(foreign.status).toBe(404);
    // The manager closes the clerk's shift (the clerk went home): recorded as closed by the manager.
    const closed = await closeShift(h.owner, { shiftId: theirs.id, counted: { cash: 2_000 } });
    expect(closed).toMatchObject({ operator: { id: clerk.id }, closedBy: { id: h.ownerId }, difference: 0 });
  });

  it('closes once when two closes come at once, and opens once when two opens come at once', async () => {
    const h = await ledgerHotel(ctx);
    const opens = await Promise.allSettled([openShift(h.staff, { openingFloat: 100 }), openShift(h.staff, { openingFloat: 100 })]);
    expect(opens.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const shift = (opens.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<Awaited<ReturnType<typeof openShift>>>).value;
    const closes = await Promise.allSettled([
      // The same count twice (a double click): a count 10 short would be refused for its missing
      // note whichever came first, and the refusal under test is the second close's.
      closeShift(h.staff, { shiftId: shift.id, counted: { cash: 100 } }),
      closeShift(h.staff, { shiftId: shift.id, counted: { cash: 100 } }),
    ]);
    expect(closes.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await refusal(Promise.reject((closes.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason))).toMatchObject({
      key: 'shifts.errors.closed',
    });
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: h.hotel.id, action: 'order.shiftClose' } })).toBe(1);
  });

  it('counts a payment made at the instant of the close in the shift or after it; the shifts add up to the ledger', async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id);
    const shift = await openShift(h.staff, { openingFloat: 0 });
    for (let i = 0; i < 5; i++) await recordPayment(h.staff, { stayId: stay.id, amount: 100, method: 'cash' });
    const [closing, paid] = await Promise.allSettled([
      closeShift(h.staff, { shiftId: shift.id, counted: { cash: 500 } }),
      recordPayment(h.staff, { stayId: stay.id, amount: 100, method: 'cash' }),
    ]);
    expect(closing.status).toBe('fulfilled');
    expect(paid.status).toBe('fulfilled');
    const closed = (closing as PromiseFulfilledResult<Awaited<ReturnType<typeof closeShift>>>).value;
    const inShift = await ctx.deps.prisma.orderEntry.aggregate({ where: { shiftId: shift.id }, _sum: { amount: true } });
    // What the close expected is exactly what the shift holds (500, or 600 when the payment came first).
    expect(line(closed, 'cash')!.expected).toBe(inShift._sum.amount);
    const outside = await ctx.deps.prisma.orderEntry.aggregate({
      where: { hotelId: h.hotel.id, method: 'cash', shiftId: null, createdByAccountId: h.staffId },
      _sum: { amount: true },
    });
    expect((inShift._sum.amount ?? 0) + (outside._sum.amount ?? 0)).toBe(600);
  });
});
