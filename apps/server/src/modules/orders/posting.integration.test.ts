import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, testMeta, type TestContext } from '../../test/harness';
import { hours } from '../../test/factories';
import { arriveReservation } from '../stays/arrival';
import { renewStay } from '../stays/renewal';
import { changeRoom } from '../stays/room-change';
import { findStay } from '../base/stay-dto';
import { arriveOnTime } from '../stays/transitions';
import { listRooms } from '../room/room-list';
import { getStay, listStays } from '../stays/stay-list';
import { getGuest } from '../stays/guests';
import { getToday } from '../today/today.service';
import { recordDeposit, recordPayment } from './payments';
import { recordCharge } from './posting';
import { correctEntry } from './refunds';
import { listOrders } from './order-list';
import { ledgerHotel, refusal, stayIn, tableSum } from '../../test/ledger-kit';
import { getFolio, settleFolio } from './settlement.service';

/**
 * Issue 17 §1, a bill that is always true (docs/orders.md, "The posting rule"): the room charge is on
 * the folio from the moment the stay begins and follows every change of its price; the deposit taken
 * at check-in is on it too; a guest who leaves owing leaves a bill marked owing, with why, that takes
 * only payments of what is owed and is settled by the last of them.
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

const charges = (f: Awaited<ReturnType<typeof getFolio>>) =>
  f.entries.filter((e) => e.kind === 'room_charge' || e.kind === 'correction').map((e) => [e.kind, e.amount]);

describe('the posting rule', () => {
  it("puts the stay's price and the deposit taken on the bill at check-in: the balance is what the guest owes at every moment", async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id, { to: 'next_noon', deposit: 20_000 });
    const folio = await getFolio(h.staff, { stayId: stay.id });
    expect(folio.entries.map((e) => [e.kind, e.amount, e.method])).toEqual([
      ['room_charge', -stay.priceAmount, null],
      ['deposit', 20_000, 'cash'],
    ]);
    // The deposit held is the deposit the bill holds (not a figure of its own).
    expect(folio).toMatchObject({ depositHeld: 20_000, balance: 20_000 - stay.priceAmount, owed: Math.max(0, stay.priceAmount - 20_000) });
    // Collecting exactly the room fee: nothing owed, nothing to give back but the deposit.
    const paid = await recordPayment(h.staff, { stayId: stay.id, amount: stay.priceAmount, method: 'wechat' });
    expect(paid.folio).toMatchObject({ balance: 20_000, owed: 0, dueBack: 20_000, depositHeld: 20_000 });
    const audit = await ctx.deps.prisma.auditLog.findMany({
      where: { hotelId: h.hotel.id, action: { in: ['order.roomCharge', 'order.deposit'] } },
      select: { action: true },
    });
    expect(audit.map((a) => a.action).sort()).toEqual(['order.deposit', 'order.roomCharge']);
  });

  it('follows a renewal (the added nights), a room change (the difference) and a cheaper room (reversed and charged again)', async () => {
    const h = await ledgerHotel(ctx);
    await ctx.deps.prisma.room.update({ where: { id: h.rooms[1].id }, data: { usualPrice: 30_000 } });
    await ctx.deps.prisma.room.update({ where: { id: h.rooms[2].id }, data: { usualPrice: 10_000 } });
    const stay = await stayIn(h.staff, h.rooms[0].id, { to: 'next_noon' });
    const renewed = await renewStay(h.staff, { stayId: stay.id, expectedCheckOutAt: new Date(Date.parse(stay.expectedCheckOutAt) + 86_400_000) });
    let folio = await getFolio(h.staff, { stayId: stay.id });
    expect(renewed.addedPrice).toBeGreaterThan(0);
    expect(charges(folio)).toEqual([
      ['room_charge', -stay.priceAmount],
      ['room_charge', -renewed.addedPrice],
    ]);
    expect(folio.balance).toBe(-renewed.priceAmount);

    const dearer = await changeRoom(h.staff, { stayId: renewed.id, targetRoomId: h.rooms[1].id, upgrade: 'charge' });
    folio = await getFolio(h.staff, { stayId: dearer.id });
    expect(dearer.priceDifference).toBeGreaterThan(0);
    expect(folio.balance).toBe(-dearer.priceAmount);
    expect(folio.entries.at(-1)).toMatchObject({ kind: 'room_charge', amount: -dearer.priceDifference, stayId: dearer.id, roomId: h.rooms[1].id });

    const cheaper = await changeRoom(h.staff, { stayId: dearer.id, targetRoomId: h.rooms[2].id });
    folio = await getFolio(h.staff, { stayId: cheaper.id });
    expect(cheaper.priceDifference).toBeLessThan(0);
    expect(folio.balance).toBe(-cheaper.priceAmount);
    expect(folio.entries.filter((e) => e.kind === 'correction')).toHaveLength(3);
    expect(await tableSum(ctx, folio.folioId!)).toBe(-cheaper.priceAmount);
  });

  it('charges a reservation nothing until its guest arrives, at the desk or when its time comes', async () => {
    const h = await ledgerHotel(ctx);
    const atDesk = await stayIn(h.staff, h.rooms[0].id, { from: 2, to: 30 });
    expect(atDesk.state).toBe('reserved');
    expect(await getFolio(h.staff, { stayId: atDesk.id })).toMatchObject({ folioId: null, balance: 0 });
    const arrived = await arriveReservation(h.staff, { stayId: atDesk.id, acknowledge: ['room_dirty'] });
    expect((await getFolio(h.staff, { stayId: arrived.id })).balance).toBe(-arrived.priceAmount);

    const byTime = await stayIn(h.staff, h.rooms[1].id, { from: 2, to: 30 });
    await ctx.deps.prisma.stay.update({ where: { id: byTime.id }, data: { checkInAt: hours(-0.1) } });
    const { version } = await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: byTime.id }, select: { version: true } });
    expect(await arriveOnTime({ deps: ctx.deps, meta: testMeta() }, { stayId: byTime.id, version })).toBe(true);
    const folio = await getFolio(h.staff, { stayId: byTime.id });
    expect(folio.entries).toEqual([expect.objectContaining({ kind: 'room_charge', amount: -byTime.priceAmount, operator: null })]);
  });
});

describe('leaving owing', () => {
  it('does not check a guest out owing without a reason; with one, the bill is left owing, takes only payments of what is owed, and the last settles it', async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id, { to: 'next_noon' });
    // Nothing recorded on the bill, yet the guest owes the room: check-out asks for it.
    const refused = await refusal(settleFolio(h.staff, { stayId: stay.id, checkOut: true, deposit: 'refund' }));
    expect(refused).toMatchObject({ code: 'CONFLICT', key: 'orders.errors.balanceOwed', details: { owed: stay.priceAmount } });
    expect((await findStay(h.staff, stay.id)).status).toBe('in_house');
    expect(await refusal(settleFolio(h.staff, { stayId: stay.id, checkOut: true, deposit: 'refund', leaveOwing: { reason: 'other' } }))).toMatchObject({
      code: 'ZOD',
    });

    const left = await settleFolio(h.staff, { stayId: stay.id, checkOut: true, deposit: 'refund', leaveOwing: { reason: 'company', note: 'ACME Ltd' } });
    expect(left).toMatchObject({
      state: 'owing',
      owed: stay.priceAmount,
      owing: { amount: stay.priceAmount, reason: 'company', note: 'ACME Ltd' },
      preview: null,
    });
    expect((await findStay(h.staff, stay.id)).status).toBe('checked_out');
    const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { hotelId: h.hotel.id, action: 'order.leftOwing' } });
    expect(audit.after).toMatchObject({ owed: stay.priceAmount, reason: 'company', note: 'ACME Ltd' });

    // Owing: nothing but payments, never above what is owed.
    expect(await refusal(recordCharge(h.staff, { stayId: stay.id, amount: 100, note: 'minibar' }))).toMatchObject({
      code: 'CONFLICT',
      key: 'orders.errors.folioOwing',
    });
    expect(await refusal(recordDeposit(h.staff, { stayId: stay.id, amount: 100, method: 'cash' }))).toMatchObject({
      code: 'CONFLICT',
      key: 'orders.errors.folioOwing',
    });
    expect(await refusal(recordPayment(h.staff, { stayId: stay.id, amount: stay.priceAmount + 1, method: 'cash' }))).toMatchObject({
      code: 'CONFLICT',
      key: 'orders.errors.paymentAboveOwed',
      details: { owed: stay.priceAmount },
    });
    await expect(
      ctx.deps.prisma.orderEntry.create({
        data: { hotelId: h.hotel.id, kind: 'charge', amount: -1, note: 'x', currency: 'CNY', stayId: stay.id, folioId: left.folioId },
      }),
    ).rejects.toThrow(/OrderEntry_folio_owing/);
    await expect(
      ctx.deps.prisma.orderEntry.create({
        data: { hotelId: h.hotel.id, kind: 'payment', method: 'cash', amount: stay.priceAmount + 1, currency: 'CNY', stayId: stay.id, folioId: left.folioId },
      }),
    ).rejects.toThrow(/OrderEntry_owing_overpaid/);

    const part = await recordPayment(h.staff, { stayId: stay.id, amount: 1_000, method: 'transfer' });
    expect(part.folio).toMatchObject({ owed: stay.priceAmount - 1_000, settled: false });
    const rest = await recordPayment(h.staff, { stayId: stay.id, amount: stay.priceAmount - 1_000, method: 'transfer' });
    expect(rest.folio).toMatchObject({ owed: 0, balance: 0, settled: true });
    expect(await refusal(recordPayment(h.staff, { stayId: stay.id, amount: 1, method: 'cash' }))).toMatchObject({
      code: 'CONFLICT',
      key: 'orders.errors.folioSettled',
    });
    expect((await getFolio(h.staff, { stayId: stay.id })).state).toBe('settled');
  });

  it('refuses leaving owing when nothing is owed, and a payment and leaving owing together', async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id, { to: 'next_noon' });
    await recordPayment(h.staff, { stayId: stay.id, amount: stay.priceAmount, method: 'cash' });
    expect(await refusal(settleFolio(h.staff, { stayId: stay.id, checkOut: true, deposit: 'refund', leaveOwing: { reason: 'unpaid' } }))).toMatchObject({
      code: 'CONFLICT',
      key: 'orders.errors.nothingOwed',
    });
    expect(
      await refusal(
        settleFolio(h.staff, { stayId: stay.id, checkOut: true, deposit: 'refund', payment: { amount: 1, method: 'cash' }, leaveOwing: { reason: 'unpaid' } }),
      ),
    ).toMatchObject({ code: 'ZOD' });
    expect((await findStay(h.staff, stay.id)).status).toBe('in_house');
  });

  it('re-prices an early departure on the stay itself, so every list says what the bill says', async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id, { from: -0.5, to: 24 * 4 });
    await recordPayment(h.staff, { stayId: stay.id, amount: stay.priceAmount, method: 'cash' });
    const folio = await settleFolio(h.staff, { stayId: stay.id, checkOut: true, deposit: 'refund', refundMethod: 'cash' });
    const due = (folio.settlement as { roomCharge: { due: number } }).roomCharge.due;
    expect(due).toBeLessThan(stay.priceAmount);
    expect((await findStay(h.staff, stay.id)).priceAmount).toBe(due);
  });
});

describe('one figure everywhere', () => {
  it("shows the bill's figure on the stay, the guest list, the room board's \"due\" mark and, once left owing, the today board's unpaid departures", async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id, { to: 'next_noon', deposit: 5_000 });
    await recordPayment(h.staff, { stayId: stay.id, amount: 1_000, method: 'cash' });
    const owed = stay.priceAmount - 6_000;
    const bill = { state: 'open', balance: -owed, owed, dueBack: 0, depositHeld: 5_000 };
    expect((await getFolio(h.staff, { stayId: stay.id })).owed).toBe(owed);
    expect((await getStay(h.staff, { stayId: stay.id })).bill).toEqual(bill);
    expect((await listStays(h.staff, { state: 'current' })).items.find((s) => s.id === stay.id)!.bill).toEqual(bill);
    const board = await listRooms(h.staff, {});
    expect(board.items.find((r) => r.id === h.rooms[0].id)!.currentStay).toMatchObject({ id: stay.id, owed });
    expect(board.items.find((r) => r.id === h.rooms[1].id)!.currentStay).toBeNull();

    // A room change: the bill follows the guest, the mark goes with them.
    const moved = await changeRoom(h.staff, { stayId: stay.id, targetRoomId: h.rooms[1].id });
    const movedBill = (await getFolio(h.staff, { stayId: moved.id })).owed;
    expect((await getStay(h.staff, { stayId: moved.id })).bill.owed).toBe(movedBill);
    expect((await listRooms(h.staff, {})).items.find((r) => r.id === h.rooms[1].id)!.currentStay).toMatchObject({ id: moved.id, owed: movedBill });
    // The old stay of the visit shows the visit's bill too.
    expect((await getStay(h.staff, { stayId: stay.id })).bill.owed).toBe(movedBill);
    // The guest's page says when the visit began, not the move (issue 39 §10).
    const primary = await ctx.deps.prisma.stayGuest.findFirstOrThrow({ where: { stayId: moved.id, isPrimary: true } });
    const page = await getGuest(h.staff, { guestId: primary.id });
    expect([page.stay.id, page.stay.visitCheckInAt]).toEqual([moved.id, stay.checkInAt]);
    expect(page.stay.checkInAt).not.toBe(stay.checkInAt);

    // Left owing: an unpaid departure on the today board until it is paid.
    expect((await getToday(h.staff)).unpaidDepartures).toEqual({ total: 0, owed: 0, items: [] });
    const left = await settleFolio(h.staff, { stayId: moved.id, checkOut: true, deposit: 'refund', leaveOwing: { reason: 'unpaid', note: '' } });
    const today = await getToday(h.staff);
    expect(today.unpaidDepartures).toMatchObject({
      total: 1,
      owed: left.owed,
      items: [{ stayId: moved.id, roomId: h.rooms[1].id, roomName: '102', owed: left.owed, reason: 'unpaid', guestId: moved.guests[0]!.id }],
    });
    expect((await getStay(h.staff, { stayId: moved.id })).bill).toMatchObject({ state: 'owing', owed: left.owed });
    // Staff without the room do not see it; members without payments have no such list; hotel B sees nothing.
    expect((await getToday(h.limitedStaff.ctx)).unpaidDepartures).toMatchObject({ total: 0, items: [] });
    const b = await ledgerHotel(ctx);
    expect((await getToday(b.owner)).unpaidDepartures).toMatchObject({ total: 0, items: [] });
    // Paid in part: still listed with what is left; paid in full: gone.
    await recordPayment(h.staff, { stayId: moved.id, amount: 100, method: 'cash' });
    expect((await getToday(h.staff)).unpaidDepartures).toMatchObject({ total: 1, owed: left.owed - 100 });
    await recordPayment(h.staff, { stayId: moved.id, amount: left.owed - 100, method: 'cash' });
    expect((await getToday(h.staff)).unpaidDepartures).toMatchObject({ total: 0 });
    // The deposit the list shows is the bill's own figure, whatever it is once the bill is settled.
    const { depositHeld } = await getFolio(h.staff, { stayId: moved.id });
    expect((await getStay(h.staff, { stayId: moved.id })).bill).toEqual({ state: 'settled', balance: 0, owed: 0, dueBack: 0, depositHeld });
  });

  it('takes two identical payments of what is owed at once as one settlement: the second is refused, nothing is paid twice', async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id, { to: 'next_noon' });
    const left = await settleFolio(h.staff, { stayId: stay.id, checkOut: true, deposit: 'refund', leaveOwing: { reason: 'unpaid', note: '' } });
    const results = await Promise.all([0, 1].map(() => refusal(recordPayment(h.staff, { stayId: stay.id, amount: left.owed, method: 'cash' }))));
    expect(results.map((r) => r.code).sort()).toEqual(['CONFLICT', 'NONE']);
    expect(results.find((r) => r.code === 'CONFLICT')!.key).toMatch(/^orders\.errors\.(folioSettled|paymentAboveOwed)$/);
    const folio = await getFolio(h.staff, { stayId: stay.id });
    expect(folio).toMatchObject({ state: 'settled', balance: 0 });
    expect(folio.entries.filter((e) => e.kind === 'payment')).toHaveLength(1);
  });

  it('refuses a correction of the room charge (it follows the stay), and offers no refund from a closed bill', async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id, { to: 'next_noon' });
    const paid = await recordPayment(h.staff, { stayId: stay.id, amount: stay.priceAmount + 500, method: 'cash' });
    const roomCharge = (await getFolio(h.owner, { stayId: stay.id })).entries.find((e) => e.kind === 'room_charge')!;
    expect(await refusal(correctEntry(h.owner, { entryId: roomCharge.id, reason: 'discount' }))).toMatchObject({
      code: 'CONFLICT',
      key: 'orders.errors.roomChargeFollowsStay',
    });
    expect((await listOrders(h.owner, { stayId: stay.id })).items.find((e) => e.id === paid.entry.id)!.refundable).toBe(stay.priceAmount + 500);
    await settleFolio(h.staff, { stayId: stay.id, checkOut: true, deposit: 'refund', refundMethod: 'cash' });
    // The settlement gave back the 500 paid too much; what remains of the payment paid the room: nothing to refund from a settled bill.
    const after = await listOrders(h.owner, { stayId: stay.id });
    expect(after.items.find((e) => e.id === paid.entry.id)!.refundable).toBe(0);
    expect(after.totals).toMatchObject({ received: stay.priceAmount + 500, refunded: -500, charged: -stay.priceAmount, net: stay.priceAmount });
  });

  it("gives the list's totals net of corrections: a charge reversed is no charge, a payment corrected as never received no money (issue 36 §8)", async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id, { to: 'next_noon' });
    const minibar = await recordCharge(h.staff, { stayId: stay.id, amount: 3_000, note: 'Minibar' });
    const paid = await recordPayment(h.staff, { stayId: stay.id, amount: 10_000, method: 'cash' });
    await recordPayment(h.staff, { stayId: stay.id, amount: 2_000, method: 'wechat' });
    await correctEntry(h.owner, { entryId: minibar.entry.id, reason: 'Not taken' });
    await correctEntry(h.owner, { entryId: paid.entry.id, reason: 'Never received' });
    const { totals } = await listOrders(h.owner, { stayId: stay.id });
    expect(totals).toEqual({ received: 2_000, refunded: 0, charged: -stay.priceAmount, corrected: 3_000 - 10_000, net: 2_000 });
  });
});
