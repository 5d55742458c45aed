import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDate, zonedToInstant } from '@console/shared';
import { createTestContext, type TestContext } from '../../test/harness';
import { quoteStay } from '../price/price.service';
import { renewStay } from '../stays/renewal';
import { customerBalance, rechargeCustomer } from './balances';
import { recordDeposit, recordPayment } from './payments';
import { postRoomCharge, recordCharge } from './posting';
import { correctEntry, refundEntry } from './refunds';
import { cashReport, listOrders } from './order-list';
import { ledgerHotel, refusal, stayIn, tableSum } from '../../test/ledger-kit';
import { getFolio, settleFolio } from './settlement.service';

/**
 * The orders ledger's services (docs/orders.md) on the real database: a stay's folio (deposits,
 * payments, charges, the room charge from the pricing function), settling it at check-out (early
 * departure recomputed, the deposit refunded or kept with a reason, what is owed paid, the folio
 * closed in the database too), refunds and corrections with their limits, customers' balances, the
 * order list and the day's cash report per operator; hotel B and staff without the room get "not
 * found"; every change audited.
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

const tz = 'Asia/Shanghai';

describe("a stay's folio", () => {
  it('records deposits, payments, charges and the room charge; the balance is the sum of the entries, and every change is audited', async () => {
    const h = await ledgerHotel(ctx);
    // A reservation that has not begun has no bill yet.
    const reservation = await stayIn(h.staff, h.rooms[1].id, { from: 48, to: 72 });
    expect(await getFolio(h.staff, { stayId: reservation.id })).toMatchObject({
      folioId: null,
      state: 'open',
      balance: 0,
      owed: 0,
      dueBack: 0,
      entries: [],
      currency: 'CNY',
    });
    expect(await ctx.deps.prisma.folio.count({ where: { hotelId: h.hotel.id } })).toBe(0);

    // Checked in with a deposit: the stay's price and the deposit are on the bill at once (the posting rule).
    const stay = await stayIn(h.staff, h.rooms[0].id, { to: 48, deposit: 50_000 });
    expect(stay.priceAmount).toBeGreaterThan(0);
    const opened = await getFolio(h.staff, { stayId: stay.id });
    expect(opened).toMatchObject({ state: 'open', balance: 50_000 - stay.priceAmount, depositHeld: 50_000 });
    expect(opened.entries.map((e) => [e.kind, e.amount, e.method])).toEqual([
      ['room_charge', -stay.priceAmount, null],
      ['deposit', 50_000, 'cash'],
    ]);
    expect(opened.entries[1]).toMatchObject({ stayId: stay.id, roomId: h.rooms[0].id, roomName: '101', refundable: 50_000, operator: { id: h.staffId } });
    // Posting again changes nothing: the room charge already stands.
    expect((await postRoomCharge(h.staff, { stayId: stay.id })).entries).toEqual([]);

    const deposit = await recordDeposit(h.staff, { stayId: stay.id, amount: 5_000, method: 'wechat', note: 'key deposit' });
    expect(deposit.entry).toMatchObject({ kind: 'deposit', amount: 5_000, method: 'wechat', note: 'key deposit', refundable: 5_000 });
    expect(deposit.folio).toMatchObject({ balance: 55_000 - stay.priceAmount, depositHeld: 55_000, settled: false });

    await recordPayment(h.staff, { stayId: stay.id, amount: 10_000, method: 'wechat' });
    const minibar = await recordCharge(h.staff, { stayId: stay.id, amount: 3_500, note: 'Minibar' });
    expect(minibar.entry).toMatchObject({ kind: 'charge', amount: -3_500, note: 'Minibar', refundable: null });

    const folio = await getFolio(h.staff, { stayId: stay.id });
    const expected = 55_000 - stay.priceAmount + 10_000 - 3_500;
    expect(folio.balance).toBe(expected);
    expect(await tableSum(ctx, folio.folioId!)).toBe(expected);
    expect(folio.entries.map((e) => e.kind)).toEqual(['room_charge', 'deposit', 'deposit', 'payment', 'charge']);
    expect(folio.totals).toMatchObject({ deposit: 55_000, payment: 10_000, room_charge: -stay.priceAmount, charge: -3_500 });
    expect(folio.owed).toBe(Math.max(0, -expected));
    expect(folio.dueBack).toBe(Math.max(0, expected));
    expect(folio.preview).toMatchObject({ roomCharge: { full: stay.priceAmount, posted: stay.priceAmount }, depositHeld: 55_000 });

    const audit = await ctx.deps.prisma.auditLog.findMany({
      where: { hotelId: h.hotel.id, action: { startsWith: 'order.' } },
      orderBy: { id: 'asc' },
      select: { action: true, actorAccountId: true },
    });
    expect(audit.map((a) => a.action)).toEqual(['order.roomCharge', 'order.deposit', 'order.deposit', 'order.payment', 'order.charge']);
    expect(audit.every((a) => a.actorAccountId === h.staffId)).toBe(true);
  });

  it("brings the room charge to the stay's price after a renewal (the added nights) and gives each operator's request id one entry", async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id, { to: 'next_noon' });
    const renewed = await renewStay(h.staff, { stayId: stay.id, expectedCheckOutAt: new Date(new Date(stay.expectedCheckOutAt).getTime() + 48 * 3_600_000) });
    expect(renewed.priceAmount).toBeGreaterThan(stay.priceAmount);
    // The renewal itself brought the bill to the new price: the nights it added are charged.
    const folio = await getFolio(h.staff, { stayId: stay.id });
    expect(folio.entries.map((e) => [e.kind, e.amount])).toEqual([
      ['room_charge', -stay.priceAmount],
      ['room_charge', -(renewed.priceAmount - stay.priceAmount)],
    ]);
    expect(folio.totals.room_charge).toBe(-renewed.priceAmount);
    expect((await postRoomCharge(h.staff, { stayId: stay.id })).entries).toEqual([]);

    const requestId = randomUUID();
    const first = await recordPayment(h.staff, { stayId: stay.id, amount: 5_000, method: 'cash', requestId });
    const again = await recordPayment(h.staff, { stayId: stay.id, amount: 5_000, method: 'cash', requestId });
    expect(again).toMatchObject({ replayed: true, entry: { id: first.entry.id } });
    expect(first.replayed).toBe(false);
    expect(await refusal(recordPayment(h.staff, { stayId: stay.id, amount: 6_000, method: 'cash', requestId }))).toMatchObject({
      code: 'CONFLICT',
      key: 'orders.errors.requestIdReused',
    });
    // Two at the same moment: still one entry.
    const twin = randomUUID();
    const both = await Promise.all([0, 1].map(() => recordPayment(h.staff, { stayId: stay.id, amount: 700, method: 'cash', requestId: twin })));
    expect(new Set(both.map((r) => r.entry.id)).size).toBe(1);
    expect(await ctx.deps.prisma.orderEntry.count({ where: { hotelId: h.hotel.id, kind: 'payment' } })).toBe(2);
  });

  it('refuses amounts that are not positive, a charge without its reason, and an unknown way of paying', async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id);
    expect((await refusal(recordPayment(h.staff, { stayId: stay.id, amount: 0, method: 'cash' }))).code).toBe('ZOD');
    expect((await refusal(recordPayment(h.staff, { stayId: stay.id, amount: -5, method: 'cash' }))).code).toBe('ZOD');
    expect((await refusal(recordPayment(h.staff, { stayId: stay.id, amount: 5, method: 'bitcoin' as 'cash' }))).code).toBe('ZOD');
    expect((await refusal(recordCharge(h.staff, { stayId: stay.id, amount: 5, note: '  ' }))).code).toBe('ZOD');
    expect(await ctx.deps.prisma.orderEntry.count({ where: { hotelId: h.hotel.id, kind: { not: 'room_charge' } } })).toBe(0);
  });
});

describe('settling a folio at check-out', () => {
  it('checks out, refunds the deposit and what was paid too much, closes the folio; the database then refuses any entry for it', async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id, { to: 'next_noon', deposit: 30_000 });
    await recordPayment(h.staff, { stayId: stay.id, amount: stay.priceAmount + 2_000, method: 'bank_card' });
    // A stay still in house is settled only with its check-out.
    expect(await refusal(settleFolio(h.staff, { stayId: stay.id }))).toMatchObject({ code: 'CONFLICT', key: 'orders.errors.stayNotCheckedOut' });

    // Money goes back the way the clerk names, never one assumed (issue 36): without it, refused, and the guest still in house.
    expect((await getFolio(h.staff, { stayId: stay.id })).preview?.ifDepositRefunded).toMatchObject({ refunded: 32_000, handedBack: 32_000, towardBill: 0 });
    expect(await refusal(settleFolio(h.staff, { stayId: stay.id, checkOut: true, deposit: 'refund' }))).toMatchObject({
      code: 'VALIDATION',
      key: 'validation.refundMethodRequired',
      fields: { refundMethod: 'validation.refundMethodRequired' },
    });
    expect((await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: stay.id } })).status).toBe('in_house');

    const folio = await settleFolio(h.staff, { stayId: stay.id, checkOut: true, deposit: 'refund', refundMethod: 'transfer' });
    expect(folio).toMatchObject({ state: 'settled', balance: 0, owed: 0, dueBack: 0, preview: null });
    const refunds = folio.entries.filter((e) => e.kind === 'refund');
    expect(refunds.map((r) => [r.amount, r.method])).toEqual([
      [-30_000, 'transfer'],
      [-2_000, 'transfer'],
    ]);
    expect(folio.settlement).toMatchObject({
      early: false,
      roomCharge: { due: stay.priceAmount },
      deposit: { decision: 'refund', held: 30_000, refunded: 30_000, kept: 0 },
      refunded: 32_000,
      paid: 0,
    });
    expect(await tableSum(ctx, folio.folioId!)).toBe(0);
    expect((await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: stay.id } })).status).toBe('checked_out');

    // Closed: through the services ...
    expect(await refusal(recordPayment(h.owner, { stayId: stay.id, amount: 100, method: 'cash' }))).toMatchObject({
      code: 'CONFLICT',
      key: 'orders.errors.folioSettled',
    });
    expect(await refusal(recordCharge(h.owner, { stayId: stay.id, amount: 100, note: 'late' }))).toMatchObject({
      code: 'CONFLICT',
      key: 'orders.errors.folioSettled',
    });
    const payment = folio.entries.find((e) => e.kind === 'payment')!;
    expect(await refusal(refundEntry(h.owner, { entryId: payment.id, amount: 1, reason: 'x' }))).toMatchObject({
      code: 'CONFLICT',
      key: 'orders.errors.folioSettled',
    });
    expect(await refusal(correctEntry(h.owner, { entryId: payment.id, reason: 'x' }))).toMatchObject({ code: 'CONFLICT', key: 'orders.errors.folioSettled' });
    expect(await refusal(settleFolio(h.owner, { stayId: stay.id }))).toMatchObject({ code: 'CONFLICT', key: 'orders.errors.folioSettled' });
    // ... and in the database itself, whatever writes.
    await expect(
      ctx.deps.prisma.orderEntry.create({
        data: { hotelId: h.hotel.id, kind: 'payment', method: 'cash', amount: 1, currency: 'CNY', stayId: stay.id, folioId: folio.folioId },
      }),
    ).rejects.toThrow(/OrderEntry_folio_open/);
    await expect(ctx.deps.prisma.folio.update({ where: { id: folio.folioId! }, data: { settledAt: null } })).rejects.toThrow(/Folio_settled_is_final/);
    expect(await tableSum(ctx, folio.folioId!)).toBe(0);
    const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { hotelId: h.hotel.id, action: 'order.settle' } });
    expect(audit).toMatchObject({ entityType: 'Folio', entityId: String(folio.folioId), actorAccountId: h.staffId });
  });

  it('recomputes the room charge of an early departure with the pricing function, and keeps the deposit with a reason', async () => {
    const h = await ledgerHotel(ctx);
    // Arrived two days ago, due to leave in three days: leaves now.
    const stay = await stayIn(h.staff, h.rooms[0].id, { from: -48, to: 72, deposit: 20_000 });
    await recordPayment(h.staff, { stayId: stay.id, amount: stay.priceAmount, method: 'alipay' });

    const before = await getFolio(h.staff, { stayId: stay.id });
    expect(before.preview).toMatchObject({ early: true, depositHeld: 20_000, ifDepositKept: { kept: 20_000 } });
    expect(before.preview!.unusedNights.length).toBeGreaterThanOrEqual(2);

    expect(await refusal(settleFolio(h.staff, { stayId: stay.id, checkOut: true, deposit: 'keep' }))).toMatchObject({ code: 'ZOD' });
    const folio = await settleFolio(h.staff, { stayId: stay.id, checkOut: true, deposit: 'keep', depositReason: 'Broken lamp', refundMethod: 'alipay' });
    const checkedOut = await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: stay.id } });
    const used = await quoteStay(ctx.deps.prisma, h.rooms[0].id, tz, new Date(stay.checkInAt), checkedOut.checkedOutAt!);
    expect(used.total).toBeLessThan(stay.priceAmount);
    expect(folio.totals.room_charge + folio.totals.correction).toBe(-used.total);
    expect(folio.settlement).toMatchObject({
      early: true,
      roomCharge: { full: stay.priceAmount, due: used.total },
      deposit: { decision: 'keep', reason: 'Broken lamp', kept: 20_000 },
    });
    // The room charge was reversed and charged again; the deposit kept is a charge saying why; the nights not used went back the way the clerk named.
    expect(folio.entries.filter((e) => e.kind === 'correction').every((c) => c.note === 'Room charge recomputed')).toBe(true);
    expect(folio.entries.find((e) => e.kind === 'charge')).toMatchObject({ amount: -20_000, note: 'Deposit kept: Broken lamp' });
    expect(folio.entries.filter((e) => e.kind === 'refund').map((r) => [r.amount, r.method])).toEqual([[-(stay.priceAmount - used.total), 'alipay']]);
    expect(folio.balance).toBe(0);
  });

  it('asks for exactly what is owed before anything happens (the guest is not checked out by a refused settlement)', async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id, { to: 'next_noon' });
    await recordPayment(h.staff, { stayId: stay.id, amount: 1_000, method: 'cash' });
    const owed = stay.priceAmount - 1_000;
    expect(await refusal(settleFolio(h.staff, { stayId: stay.id, checkOut: true, deposit: 'refund' }))).toMatchObject({
      code: 'CONFLICT',
      key: 'orders.errors.balanceOwed',
      details: { owed },
    });
    expect(
      await refusal(settleFolio(h.staff, { stayId: stay.id, checkOut: true, deposit: 'refund', payment: { amount: owed - 1, method: 'cash' } })),
    ).toMatchObject({
      key: 'orders.errors.paymentNotOwed',
      details: { owed },
    });
    expect((await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: stay.id } })).status).toBe('in_house');
    expect(await ctx.deps.prisma.orderEntry.count({ where: { hotelId: h.hotel.id } })).toBe(2);

    const folio = await settleFolio(h.staff, { stayId: stay.id, checkOut: true, deposit: 'refund', payment: { amount: owed, method: 'wechat' } });
    expect(folio).toMatchObject({ state: 'settled', balance: 0 });
    expect(folio.entries.map((e) => [e.kind, e.amount])).toEqual([
      ['room_charge', -stay.priceAmount],
      ['payment', 1_000],
      ['payment', owed],
    ]);
    expect(await refusal(settleFolio(h.staff, { stayId: stay.id, payment: { amount: 1, method: 'cash' } }))).toMatchObject({
      key: 'orders.errors.folioSettled',
    });
  });

  it('says how much of a deposit goes toward a bill it does not cover, and asks no way back when nothing is handed back', async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id, { to: 'next_noon', deposit: 1_000 });
    const owed = stay.priceAmount - 1_000;
    expect((await getFolio(h.staff, { stayId: stay.id })).preview).toMatchObject({
      depositHeld: 1_000,
      ifDepositRefunded: { refunded: 0, handedBack: 0, towardBill: 1_000, owed },
      ifDepositKept: { kept: 1_000, handedBack: 0, owed: stay.priceAmount },
    });
    const folio = await settleFolio(h.staff, { stayId: stay.id, checkOut: true, deposit: 'refund', payment: { amount: owed, method: 'cash' } });
    expect(folio).toMatchObject({ state: 'settled', balance: 0 });
    expect(folio.entries.filter((e) => e.kind === 'refund')).toEqual([]);
  });

  it('settles a stay checked out earlier, a cancelled reservation (nothing owed for the room), and a visit that changed rooms as one folio', async () => {
    const h = await ledgerHotel(ctx);
    // A reservation with a deposit, cancelled: the deposit goes back in full.
    const reservation = await stayIn(h.staff, h.rooms[1].id, { from: 48, to: 72 });
    await recordDeposit(h.staff, { stayId: reservation.id, amount: 8_000, method: 'transfer' });
    // Not checked out (its guest never came: refused), cancelled.
    expect(await refusal(settleFolio(h.staff, { stayId: reservation.id, checkOut: true, deposit: 'refund', refundMethod: 'cash' }))).toMatchObject({
      code: 'CONFLICT',
      key: 'stay.errors.checkOutNotArrived',
    });
    const { cancelReservation } = await import('../stays/check-out');
    await cancelReservation(h.staff, { stayId: reservation.id, reason: 'guest_request', deposit: 'refund', refundMethod: 'cash' });
    const cancelled = await getFolio(h.staff, { stayId: reservation.id });
    expect(cancelled).toMatchObject({ state: 'settled', totals: { room_charge: 0, refund: -8_000 } });
    expect((await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: reservation.id } })).status).toBe('ended');

    // A guest who moved rooms: the deposit paid in the first room settles with the second.
    const { changeRoom } = await import('../stays/room-change');
    const first = await stayIn(h.staff, h.rooms[0].id, { to: 50 });
    await recordDeposit(h.staff, { stayId: first.id, amount: 5_000, method: 'cash' });
    const moved = await changeRoom(h.staff, { stayId: first.id, targetRoomId: h.rooms[2].id });
    const { checkOut } = await import('../stays/check-out');
    await checkOut(h.staff, { stayId: moved.id });
    const folio = await getFolio(h.staff, { stayId: first.id });
    expect(folio).toMatchObject({ stayId: moved.id, stayIds: [first.id, moved.id], roomName: '103', depositHeld: 5_000 });
    // Checked out at once after the move: an early departure, the nights not used taken off the visit's price.
    expect(folio.preview).toMatchObject({ early: true, roomCharge: { full: moved.priceAmount } });
    const owed = folio.preview!.ifDepositRefunded.owed;
    expect(owed).toBe(folio.preview!.roomCharge.due - 5_000);
    const settled = await settleFolio(h.staff, { stayId: moved.id, deposit: 'refund', payment: { amount: owed, method: 'cash' } });
    expect(settled).toMatchObject({ folioId: folio.folioId, state: 'settled', balance: 0 });
    // The room charges of both rooms reversed, and what the visit owes charged on the room it left from.
    const roomCharges = settled.entries.filter(
      (e) => e.kind === 'room_charge' || (e.kind === 'correction' && settled.entries.find((c) => c.id === e.linkedEntryId)?.kind === 'room_charge'),
    );
    expect(roomCharges.reduce((sum, e) => sum + e.amount, 0)).toBe(-folio.preview!.roomCharge.due);
    expect(roomCharges.at(-1)).toMatchObject({ kind: 'room_charge', stayId: moved.id, roomName: '103', amount: -folio.preview!.roomCharge.due });
  });
});

describe('refunds and corrections', () => {
  it('refunds a payment in parts with a reason, never above what is left of it; only money received is refunded', async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id);
    const paid = await recordPayment(h.staff, { stayId: stay.id, amount: 10_000, method: 'cash' });
    const first = await refundEntry(h.owner, { entryId: paid.entry.id, amount: 4_000, reason: 'Overcharged' });
    expect(first).toMatchObject({
      refundableLeft: 6_000,
      entry: { kind: 'refund', amount: -4_000, method: 'cash', note: 'Overcharged', linkedEntryId: paid.entry.id },
    });
    expect(await refusal(refundEntry(h.owner, { entryId: paid.entry.id, amount: 6_001, reason: 'Too much' }))).toMatchObject({
      code: 'CONFLICT',
      key: 'orders.errors.refundExceedsPayment',
      details: { refundable: 6_000 },
    });
    const rest = await refundEntry(h.owner, { entryId: paid.entry.id, amount: 6_000, reason: 'Rest', method: 'bank_card' });
    expect(rest).toMatchObject({ refundableLeft: 0, entry: { method: 'bank_card' } });
    expect(await refusal(refundEntry(h.owner, { entryId: paid.entry.id, amount: 1, reason: 'More' }))).toMatchObject({
      key: 'orders.errors.nothingLeftToRefund',
    });
    expect((await refusal(refundEntry(h.owner, { entryId: paid.entry.id, amount: 1, reason: '' }))).code).toBe('ZOD');
    const charge = await recordCharge(h.staff, { stayId: stay.id, amount: 100, note: 'Water' });
    expect(await refusal(refundEntry(h.owner, { entryId: charge.entry.id, amount: 100, reason: 'x' }))).toMatchObject({ key: 'orders.errors.notRefundable' });
    expect(await refusal(refundEntry(h.owner, { entryId: first.entry.id, amount: 100, reason: 'x' }))).toMatchObject({ key: 'orders.errors.notRefundable' });
    expect((await getFolio(h.owner, { stayId: stay.id })).balance).toBe(-100 - stay.priceAmount);
    // The database refuses an over-refund whatever writes it.
    const other = await recordPayment(h.staff, { stayId: stay.id, amount: 500, method: 'cash' });
    await expect(
      ctx.deps.prisma.orderEntry.create({
        data: {
          hotelId: h.hotel.id,
          kind: 'refund',
          method: 'cash',
          amount: -501,
          note: 'x',
          currency: 'CNY',
          stayId: stay.id,
          folioId: other.entry.folioId,
          linkedEntryId: other.entry.id,
        },
      }),
    ).rejects.toThrow(/OrderEntry_refund_within_payment/);
  });

  it("reverses an entry with a correction, once; a payment's refunds are corrected before it; a correction is not corrected", async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id);
    const charge = await recordCharge(h.staff, { stayId: stay.id, amount: 2_500, note: 'Laundry' });
    const corrected = await correctEntry(h.owner, { entryId: charge.entry.id, reason: 'Not this room' });
    expect(corrected.entry).toMatchObject({ kind: 'correction', amount: 2_500, linkedEntryId: charge.entry.id, note: 'Not this room' });
    expect(await refusal(correctEntry(h.owner, { entryId: charge.entry.id, reason: 'Again' }))).toMatchObject({ key: 'orders.errors.alreadyCorrected' });
    expect(await refusal(correctEntry(h.owner, { entryId: corrected.entry.id, reason: 'Undo' }))).toMatchObject({
      key: 'orders.errors.cannotCorrectCorrection',
    });

    const paid = await recordPayment(h.staff, { stayId: stay.id, amount: 9_000, method: 'cash' });
    const refund = await refundEntry(h.owner, { entryId: paid.entry.id, amount: 3_000, reason: 'Partial' });
    expect(await refusal(correctEntry(h.owner, { entryId: paid.entry.id, reason: 'Wrong stay' }))).toMatchObject({ key: 'orders.errors.correctRefundsFirst' });
    const refundCorrected = await correctEntry(h.owner, { entryId: refund.entry.id, reason: 'Refund never given' });
    expect(refundCorrected.entry).toMatchObject({ amount: 3_000, method: 'cash' });
    const paymentCorrected = await correctEntry(h.owner, { entryId: paid.entry.id, reason: 'Wrong stay' });
    expect(paymentCorrected.entry).toMatchObject({ amount: -9_000, method: 'cash' });
    // A corrected payment has nothing left to refund.
    expect(await refusal(refundEntry(h.owner, { entryId: paid.entry.id, amount: 1, reason: 'x' }))).toMatchObject({ key: 'orders.errors.nothingLeftToRefund' });
    const folio = await getFolio(h.owner, { stayId: stay.id });
    expect(folio.balance).toBe(-stay.priceAmount);
    expect(folio.entries.find((e) => e.id === paid.entry.id)).toMatchObject({ correctedById: paymentCorrected.entry.id, refundable: 0 });
    // The database keeps an entry to one correction.
    await expect(
      ctx.deps.prisma.orderEntry.create({
        data: {
          hotelId: h.hotel.id,
          kind: 'correction',
          amount: 2_500,
          note: 'x',
          currency: 'CNY',
          stayId: stay.id,
          folioId: folio.folioId,
          linkedEntryId: charge.entry.id,
        },
      }),
    ).rejects.toThrow();
    const audit = await ctx.deps.prisma.auditLog.count({ where: { hotelId: h.hotel.id, action: 'order.correct' } });
    expect(audit).toBe(3);
  });
});

describe("customers' balances", () => {
  it('recharges a customer by id or mobile; the balance is the sum of their entries; a recharge is refunded within itself; a frozen customer is not recharged', async () => {
    const h = await ledgerHotel(ctx);
    const first = await rechargeCustomer(h.owner, { customerId: h.customer.id, amount: 20_000, method: 'wechat', note: 'Top-up' });
    expect(first).toMatchObject({
      balance: 20_000,
      folio: null,
      entry: { kind: 'recharge', customerId: h.customer.id, customerName: h.customer.nickname, refundable: 20_000 },
    });
    const second = await rechargeCustomer(h.owner, { mobile: h.customer.mobile!, amount: 5_000, method: 'cash' });
    expect(second.balance).toBe(25_000);
    const refund = await refundEntry(h.owner, { entryId: first.entry.id, amount: 7_000, reason: 'Asked back' });
    expect(refund.entry).toMatchObject({ customerId: h.customer.id, amount: -7_000, method: 'wechat' });
    expect(await refusal(refundEntry(h.owner, { entryId: second.entry.id, amount: 5_001, reason: 'x' }))).toMatchObject({
      key: 'orders.errors.refundExceedsPayment',
    });

    const balance = await customerBalance(h.staff, { customerId: h.customer.id });
    expect(balance).toMatchObject({ balance: 18_000, currency: 'CNY', customer: { id: h.customer.id, frozen: false } });
    expect(balance.recent.map((e) => e.kind)).toEqual(['refund', 'recharge', 'recharge']);
    expect((await customerBalance(h.staff, { mobile: h.customer.mobile! })).balance).toBe(18_000);
    expect(await refusal(customerBalance(h.staff, { mobile: '13800000000' }))).toMatchObject({ code: 'NOT_FOUND', key: 'orders.errors.customerNotFound' });
    expect((await refusal(customerBalance(h.staff, {}))).code).toBe('ZOD');

    await ctx.deps.prisma.customer.update({ where: { id: h.customer.id }, data: { frozenAt: new Date() } });
    expect(await refusal(rechargeCustomer(h.owner, { customerId: h.customer.id, amount: 1, method: 'cash' }))).toMatchObject({
      key: 'orders.errors.customerFrozen',
    });
    // Staff do not recharge.
    await ctx.deps.prisma.customer.update({ where: { id: h.customer.id }, data: { frozenAt: null } });
    expect((await refusal(rechargeCustomer(h.staff, { customerId: h.customer.id, amount: 1, method: 'cash' }))).code).toBe('FORBIDDEN');
  });
});

describe('the order list and the cash report', () => {
  it("lists the hotel's orders newest first with filters, pages and the sum of what matches; front-desk staff have no order list", async () => {
    const h = await ledgerHotel(ctx);
    const a = await stayIn(h.staff, h.rooms[0].id);
    const b = await stayIn(h.staff, h.rooms[1].id);
    await recordDeposit(h.staff, { stayId: a.id, amount: 1_000, method: 'cash' });
    await recordPayment(h.owner, { stayId: b.id, amount: 2_000, method: 'alipay' });
    await recordCharge(h.staff, { stayId: b.id, amount: 300, note: 'Tea' });
    await rechargeCustomer(h.owner, { customerId: h.customer.id, amount: 4_000, method: 'cash' });

    // The room charges of the two check-ins (the posting rule) come first.
    const all = await listOrders(h.owner, { page: 1, pageSize: 2 });
    expect(all).toMatchObject({ total: 6, sum: 6_700 - a.priceAmount - b.priceAmount, currency: 'CNY', page: 1, pageSize: 2 });
    expect(all.items.map((e) => e.kind)).toEqual(['recharge', 'charge']);
    expect((await listOrders(h.owner, { page: 2, pageSize: 2 })).items.map((e) => e.kind)).toEqual(['payment', 'deposit']);
    expect((await listOrders(h.owner, { page: 3, pageSize: 2 })).items.map((e) => [e.kind, e.stayId])).toEqual([
      ['room_charge', b.id],
      ['room_charge', a.id],
    ]);
    expect((await listOrders(h.owner, { kinds: ['deposit', 'payment'] })).sum).toBe(3_000);
    expect((await listOrders(h.owner, { method: 'cash' })).total).toBe(2);
    expect((await listOrders(h.owner, { stayId: b.id })).sum).toBe(1_700 - b.priceAmount);
    expect((await listOrders(h.owner, { roomId: h.rooms[0].id })).items.map((e) => e.kind)).toEqual(['deposit', 'room_charge']);
    expect((await listOrders(h.owner, { customerId: h.customer.id })).items.map((e) => e.kind)).toEqual(['recharge']);
    expect((await listOrders(h.owner, { operatorId: h.staffId })).total).toBe(4);
    const today = localDate(new Date(), tz);
    expect((await listOrders(h.owner, { from: today, to: today })).total).toBe(6);
    expect((await listOrders(h.owner, { from: addDays(today, 1) })).total).toBe(0);
    expect((await listOrders(h.owner, { to: addDays(today, -1) })).total).toBe(0);
    expect((await refusal(listOrders(h.staff, {}))).code).toBe('FORBIDDEN');
  });

  it("reports a hotel day's money per operator and way of paying (the shift hand-over), in the hotel's time zone", async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id);
    const d = '2025-03-10';
    const at = (local: string) => zonedToInstant(local, tz)!;
    const folio = (await recordDeposit(h.staff, { stayId: stay.id, amount: 100, method: 'cash' })).entry.folioId!;
    const write = (by: number, kind: 'payment' | 'deposit', method: 'cash' | 'wechat', amount: number, createdAt: Date) =>
      ctx.deps.prisma.orderEntry.create({
        data: {
          hotelId: h.hotel.id,
          kind,
          method,
          amount,
          currency: 'CNY',
          stayId: stay.id,
          roomId: h.rooms[0].id,
          folioId: folio,
          createdByAccountId: by,
          createdAt,
        },
      });
    // The hotel's day is Shanghai's: 23:59 the day before and 00:00 the day after are not in it.
    await write(h.staffId, 'payment', 'cash', 111, at(`${addDays(d, -1)} 23:59`));
    const p1 = await write(h.staffId, 'payment', 'cash', 10_000, at(`${d} 00:00`));
    await write(h.staffId, 'deposit', 'wechat', 5_000, at(`${d} 09:30`));
    await write(h.ownerId, 'payment', 'cash', 7_000, at(`${d} 23:59`));
    await write(h.staffId, 'payment', 'cash', 222, at(`${addDays(d, 1)} 00:00`));
    await ctx.deps.prisma.orderEntry.create({
      data: {
        hotelId: h.hotel.id,
        kind: 'refund',
        method: 'cash',
        amount: -2_500,
        note: 'x',
        currency: 'CNY',
        stayId: stay.id,
        roomId: h.rooms[0].id,
        folioId: folio,
        linkedEntryId: p1.id,
        createdByAccountId: h.staffId,
        createdAt: at(`${d} 12:00`),
      },
    });
    await ctx.deps.prisma.orderEntry.create({
      data: {
        hotelId: h.hotel.id,
        kind: 'room_charge',
        amount: -9_999,
        currency: 'CNY',
        stayId: stay.id,
        folioId: folio,
        createdByAccountId: h.staffId,
        createdAt: at(`${d} 12:00`),
      },
    });

    const report = await cashReport(h.owner, { date: d });
    expect(report).toMatchObject({
      date: d,
      timeZone: tz,
      currency: 'CNY',
      from: at(`${d} 00:00`).toISOString(),
      to: at(`${addDays(d, 1)} 00:00`).toISOString(),
      net: 19_500,
      cash: 14_500,
    });
    const staffRow = report.operators.find((o) => o.operator?.id === h.staffId)!;
    expect(staffRow).toMatchObject({ net: 12_500, cash: 7_500, count: 3 });
    expect(staffRow.methods).toEqual([
      { method: 'cash', deposits: 0, payments: 10_000, recharges: 0, refunds: -2_500, corrections: 0, net: 7_500, count: 2 },
      { method: 'wechat', deposits: 5_000, payments: 0, recharges: 0, refunds: 0, corrections: 0, net: 5_000, count: 1 },
    ]);
    expect(report.operators.find((o) => o.operator?.id === h.ownerId)).toMatchObject({ net: 7_000, cash: 7_000 });
    // Front-desk staff see their own shift only.
    const own = await cashReport(h.staff, { date: d });
    expect(own.operators.map((o) => o.operator?.id)).toEqual([h.staffId]);
    expect(own.net).toBe(12_500);
    expect((await refusal(cashReport(h.staff, { date: d, operatorId: h.ownerId }))).code).toBe('FORBIDDEN');
    expect((await cashReport(h.owner, { date: d, operatorId: h.staffId })).net).toBe(12_500);
  });
});

describe('tenancy and rooms', () => {
  it('gives hotel B "not found" on hotel A\'s stays, entries and customers, and nothing of A in its list or report', async () => {
    const a = await ledgerHotel(ctx);
    const b = await ledgerHotel(ctx);
    const stay = await stayIn(a.staff, a.rooms[0].id);
    const paid = await recordPayment(a.staff, { stayId: stay.id, amount: 3_000, method: 'cash' });
    const recharge = await rechargeCustomer(a.owner, { customerId: a.customer.id, amount: 1_000, method: 'cash' });
    const notFound = (p: Promise<unknown>) => refusal(p).then((r) => r.code);
    expect(await notFound(getFolio(b.owner, { stayId: stay.id }))).toBe('NOT_FOUND');
    expect(await notFound(recordPayment(b.owner, { stayId: stay.id, amount: 1, method: 'cash' }))).toBe('NOT_FOUND');
    expect(await notFound(recordDeposit(b.owner, { stayId: stay.id, amount: 1, method: 'cash' }))).toBe('NOT_FOUND');
    expect(await notFound(recordCharge(b.owner, { stayId: stay.id, amount: 1, note: 'x' }))).toBe('NOT_FOUND');
    expect(await notFound(postRoomCharge(b.owner, { stayId: stay.id }))).toBe('NOT_FOUND');
    expect(await notFound(settleFolio(b.owner, { stayId: stay.id, checkOut: true, deposit: 'refund' }))).toBe('NOT_FOUND');
    expect(await notFound(refundEntry(b.owner, { entryId: paid.entry.id, amount: 1, reason: 'x' }))).toBe('NOT_FOUND');
    expect(await notFound(correctEntry(b.owner, { entryId: paid.entry.id, reason: 'x' }))).toBe('NOT_FOUND');
    expect(await notFound(refundEntry(b.owner, { entryId: recharge.entry.id, amount: 1, reason: 'x' }))).toBe('NOT_FOUND');
    expect(await notFound(rechargeCustomer(b.owner, { customerId: a.customer.id, amount: 1, method: 'cash' }))).toBe('NOT_FOUND');
    expect(await notFound(customerBalance(b.owner, { customerId: a.customer.id }))).toBe('NOT_FOUND');
    expect(await notFound(customerBalance(b.owner, { mobile: a.customer.mobile! }))).toBe('NOT_FOUND');
    expect((await listOrders(b.owner, { stayId: stay.id })).total).toBe(0);
    expect((await listOrders(b.owner, {})).total).toBe(0);
    expect((await cashReport(b.owner, { date: localDate(new Date(), tz) })).net).toBe(0);
    // The database keeps A's entry off B's folios: the folio, the stay and the entry refunded are A's.
    await expect(
      ctx.deps.prisma.orderEntry.create({
        data: { hotelId: b.hotel.id, kind: 'refund', method: 'cash', amount: -1, note: 'x', currency: 'CNY', linkedEntryId: paid.entry.id },
      }),
    ).rejects.toThrow();
    // The room charge of the check-in, the payment and the recharge.
    expect(await ctx.deps.prisma.orderEntry.count({ where: { hotelId: a.hotel.id } })).toBe(3);
  });

  it('gives staff and an administrator without the room "not found" on its folio and entries, and leaves its orders out of their lists', async () => {
    const h = await ledgerHotel(ctx);
    const mine = await stayIn(h.staff, h.rooms[0].id);
    const other = await stayIn(h.staff, h.rooms[1].id);
    const otherPaid = await recordPayment(h.staff, { stayId: other.id, amount: 4_000, method: 'cash' });
    const minePaid = await recordPayment(h.limitedStaff.ctx, { stayId: mine.id, amount: 1_500, method: 'cash' });
    const code = (p: Promise<unknown>) => refusal(p).then((r) => r.code);

    expect(await code(getFolio(h.limitedStaff.ctx, { stayId: other.id }))).toBe('NOT_FOUND');
    expect(await code(recordPayment(h.limitedStaff.ctx, { stayId: other.id, amount: 1, method: 'cash' }))).toBe('NOT_FOUND');
    expect(await code(recordCharge(h.limitedStaff.ctx, { stayId: other.id, amount: 1, note: 'x' }))).toBe('NOT_FOUND');
    expect(await code(postRoomCharge(h.limitedStaff.ctx, { stayId: other.id }))).toBe('NOT_FOUND');
    expect(await code(settleFolio(h.limitedStaff.ctx, { stayId: other.id, checkOut: true, deposit: 'refund' }))).toBe('NOT_FOUND');
    expect((await getFolio(h.limitedStaff.ctx, { stayId: mine.id })).balance).toBe(1_500 - mine.priceAmount);
    // Refunds, corrections and the list need order management, and then only within the rooms.
    expect(await code(refundEntry(h.limitedStaff.ctx, { entryId: minePaid.entry.id, amount: 1, reason: 'x' }))).toBe('FORBIDDEN');
    expect(await code(correctEntry(h.limitedStaff.ctx, { entryId: minePaid.entry.id, reason: 'x' }))).toBe('FORBIDDEN');
    expect(await code(refundEntry(h.limitedAdmin.ctx, { entryId: otherPaid.entry.id, amount: 1, reason: 'x' }))).toBe('NOT_FOUND');
    expect(await code(correctEntry(h.limitedAdmin.ctx, { entryId: otherPaid.entry.id, reason: 'x' }))).toBe('NOT_FOUND');
    expect((await refundEntry(h.limitedAdmin.ctx, { entryId: minePaid.entry.id, amount: 500, reason: 'Discount' })).refundableLeft).toBe(1_000);
    const list = await listOrders(h.limitedAdmin.ctx, {});
    expect(list.items.map((e) => [e.kind, e.roomId])).toEqual([
      ['refund', h.rooms[0].id],
      ['payment', h.rooms[0].id],
      ['room_charge', h.rooms[0].id],
    ]);
    expect(list.sum).toBe(1_000 - mine.priceAmount);
    expect((await listOrders(h.limitedAdmin.ctx, { roomId: h.rooms[1].id })).total).toBe(0);
    const report = await cashReport(h.limitedAdmin.ctx, { date: localDate(new Date(), tz) });
    expect(report.net).toBe(1_000);
    expect((await cashReport(h.owner, { date: localDate(new Date(), tz) })).net).toBe(5_000);
  });
});

describe('at the same moment', () => {
  it('never lets two refunds of one payment exceed it, through the service or straight into the database', async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id);
    for (let round = 0; round < 4; round += 1) {
      const paid = await recordPayment(h.staff, { stayId: stay.id, amount: 10_000, method: 'cash' });
      const results = await Promise.allSettled([0, 1, 2].map(() => refundEntry(h.owner, { entryId: paid.entry.id, amount: 6_000, reason: 'Twice' })));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results.filter((x) => x.status === 'rejected'))
        expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'CONFLICT', message: 'orders.errors.refundExceedsPayment' });
      const refunded = await ctx.deps.prisma.orderEntry.aggregate({ where: { linkedEntryId: paid.entry.id, kind: 'refund' }, _sum: { amount: true } });
      expect(refunded._sum.amount).toBe(-6_000);
    }
    // Past the service: two transactions insert refunds of one payment at once; the database's rule lets one through.
    const paid = await recordPayment(h.staff, { stayId: stay.id, amount: 10_000, method: 'cash' });
    const insert = () =>
      ctx.deps.prisma.$transaction(async (tx) => {
        await tx.orderEntry.create({
          data: {
            hotelId: h.hotel.id,
            kind: 'refund',
            method: 'cash',
            amount: -7_000,
            note: 'raw',
            currency: 'CNY',
            stayId: stay.id,
            folioId: paid.entry.folioId,
            linkedEntryId: paid.entry.id,
          },
        });
        await new Promise((r) => setTimeout(r, 50));
      });
    const raw = await Promise.allSettled([insert(), insert()]);
    expect(raw.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(String((raw.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason)).toMatch(/OrderEntry_refund_within_payment/);
  });

  it('settles a folio and records on it at the same moment: the entry is either on the bill before it is settled, or refused', async () => {
    const h = await ledgerHotel(ctx);
    for (let round = 0; round < 4; round += 1) {
      const stay = await stayIn(h.staff, h.rooms[round % 3]!.id, { to: 30 });
      await recordPayment(h.staff, { stayId: stay.id, amount: stay.priceAmount, method: 'cash' });
      const [settled, charged] = await Promise.allSettled([
        // Near midnight the room charge due may be less than paid: the money goes back in cash.
        settleFolio(h.staff, { stayId: stay.id, checkOut: true, deposit: 'refund', refundMethod: 'cash' }),
        recordCharge(h.staff, { stayId: stay.id, amount: 1_000, note: 'Late' }),
      ]);
      const folio = await getFolio(h.owner, { stayId: stay.id });
      if (settled.status === 'fulfilled') {
        expect(folio.state).toBe('settled');
        expect(await tableSum(ctx, folio.folioId!)).toBe(0);
        // The charge came first and the settlement asked for it, or it came after and was refused.
        if (charged.status === 'fulfilled') expect(folio.entries.some((e) => e.kind === 'charge')).toBe(true);
        else expect(charged.reason).toMatchObject({ message: 'orders.errors.folioSettled' });
      } else {
        expect(settled.reason).toMatchObject({ message: 'orders.errors.balanceOwed' });
        expect(folio.state).toBe('open');
        expect(charged.status).toBe('fulfilled');
        await settleFolio(h.staff, { stayId: stay.id, checkOut: true, deposit: 'refund', payment: { amount: 1_000, method: 'cash' } }).catch(async () =>
          settleFolio(h.staff, { stayId: stay.id, payment: { amount: 1_000, method: 'cash' } }),
        );
      }
    }
  });
});
