/**
 * Issue 36 "Taxes" (docs/journal.md "Taxes"): a rate added on top of the price, and the city tax per
 * person and night. An added rate brings a tax charge on the bill with every charge posted, whoever
 * posts (the database's trigger), corrected with its charge and never alone; the journal books it on
 * `tax_payable` under its rule; a deposit kept is not taxed. The city tax charges each night once, for
 * the stay's guests, follows a renewal and gives back the nights an early departure does not use; a
 * check-out's plan foresees both, so the bill settles to zero. The books tie throughout.
 */
import { randomUUID } from 'node:crypto';
import { addDays, localDate, zonedToInstant } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness';
import { hours, uniqueMobile } from '../../test/factories';
import { ledgerHotel, refusal, stayIn, type Ctx } from '../../test/ledger-kit';
import { trpcClient } from '../../test/trpc-client';
import { checkIn } from '../stays/check-in';
import { renewStay } from '../stays/renewal';
import { getFolio, settleFolio } from '../orders/settlement.service';
import { recordCharge } from '../orders/posting';
import { recordPayment } from '../orders/payments';
import { correctEntry } from '../orders/refunds';
import { setCityTax, setTaxRule, taxRules } from './tax-rules';
import { trialBalanceOf } from './trial-balance';

let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;
beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
});
afterAll(() => ctx?.close());

/**
 * Noon (the hotel's time) `days` after the day of `from`: counted from the check-in's own day, not from
 * the clock's, which is another day when the test crosses the hotel's midnight.
 */
const noonAfter = (by: Ctx, from: Date, days: number) => zonedToInstant(`${addDays(localDate(from, by.actor.timeZone), days)} 12:00`, by.actor.timeZone)!;

/** A guest (and `others` more) checked in a quarter of an hour ago until noon `nights` days after that day. */
function stayOf(by: Ctx, roomId: number, nights: number, others = 0) {
  const checkInAt = hours(-0.25);
  return checkIn(by, {
    roomId,
    checkInAt,
    expectedCheckOutAt: noonAfter(by, checkInAt, nights),
    guests: Array.from({ length: 1 + others }, (_, i) => ({ name: `Guest ${i} ${randomUUID().slice(0, 6)}`, mobile: uniqueMobile() })),
    depositAmount: 0,
    idempotencyKey: randomUUID(),
    acknowledge: ['room_dirty', 'guest_in_other_room'],
  });
}

async function taxLines(orderEntryId: number) {
  const rows = await ctx.deps.prisma.journalLine.findMany({
    where: { entry: { orderEntryId } },
    orderBy: { id: 'asc' },
    select: { account: true, taxRuleId: true, amount: true },
  });
  return rows.map((r) => [r.account, r.taxRuleId, Number(r.amount)]);
}

async function booksTie(h: Awaited<ReturnType<typeof ledgerHotel>>, orderEntryId: number) {
  const today = (await ctx.deps.prisma.journalEntry.findFirstOrThrow({ where: { orderEntryId } })).businessDate;
  return (await trialBalanceOf(ctx.deps.prisma, h.hotel.id, today)).ties;
}

describe('taxes added on top of the price', () => {
  it('adds a tax charge to every charge, corrects it with its charge and never alone, spares a deposit kept, and the bill settles', async () => {
    const h = await ledgerHotel(ctx);
    await setTaxRule(h.owner, { appliesTo: 'rooms', ratePercent: 10, mode: 'added' });
    const rules = await setTaxRule(h.owner, { appliesTo: 'extras', ratePercent: 5.5, mode: 'added' });
    expect(rules).toMatchObject({ rooms: { ratePercent: 10, mode: 'added' }, extras: { ratePercent: 5.5, mode: 'added' }, city: null });
    const rooms = await ctx.deps.prisma.taxRule.findFirstOrThrow({ where: { hotelId: h.hotel.id, appliesTo: 'rooms' } });
    const extras = await ctx.deps.prisma.taxRule.findFirstOrThrow({ where: { hotelId: h.hotel.id, appliesTo: 'extras' } });

    // One night at 200.00: the room charge as priced, and 20.00 of tax on the bill beside it.
    const stay = await stayIn(h.staff, h.rooms[0].id, { to: 'next_noon' });
    let bill = await getFolio(h.owner, { stayId: stay.id });
    const roomCharge = bill.entries.find((e) => e.kind === 'room_charge')!;
    const roomTax = bill.entries.find((e) => e.tax)!;
    expect([roomCharge.amount, roomTax.kind, roomTax.amount, roomTax.taxIncluded]).toEqual([-20_000, 'charge', -2_000, null]);
    expect(roomTax.note).toBe('Tax added: 10%');
    expect(bill.balance).toBe(-22_000);
    // The room charge is booked whole on revenue (nothing included in it); the tax charge on tax_payable.
    expect((await taxLines(roomCharge.id)).map(([a]) => a)).toEqual(['guest', 'revenue_rooms']);
    expect(await taxLines(roomTax.id)).toEqual([
      ['guest', null, 2_000],
      ['tax_payable', rooms.id, -2_000],
    ]);

    // A minibar at 10.01: 0.55 of tax at 5.5 % (0.55055, rounded); corrected, its tax goes with it, with the reason.
    const minibar = await recordCharge(h.staff, { stayId: stay.id, amount: 1_001, note: 'Minibar' });
    bill = await getFolio(h.owner, { stayId: stay.id });
    const minibarTax = bill.entries.find((e) => e.tax && e.id > minibar.entry.id)!;
    expect([minibarTax.amount, minibarTax.note]).toEqual([-55, 'Tax added: 5.5%']);
    expect(await taxLines(minibarTax.id)).toEqual([
      ['guest', null, 55],
      ['tax_payable', extras.id, -55],
    ]);
    // The tax alone is not corrected: it follows its charge.
    expect(await refusal(correctEntry(h.owner, { entryId: minibarTax.id, reason: 'No tax' }))).toMatchObject({
      code: 'CONFLICT',
      key: 'orders.errors.taxFollowsCharge',
    });
    await correctEntry(h.owner, { entryId: minibar.entry.id, reason: 'Not taken' });
    bill = await getFolio(h.owner, { stayId: stay.id });
    expect(bill.entries.find((e) => e.id === minibarTax.id)!.correctedById).not.toBeNull();
    expect(bill.entries.filter((e) => e.kind === 'correction').map((e) => [e.amount, e.note])).toEqual([
      [1_001, 'Not taken'],
      [55, 'Not taken'],
    ]);
    expect(bill.balance).toBe(-22_000);
    expect(await booksTie(h, roomCharge.id)).toBe(true);

    // Paid, checked out: the plan foresaw the tax, the bill is settled at zero.
    await recordPayment(h.staff, { stayId: stay.id, amount: 22_000, method: 'cash' });
    const settled = await settleFolio(h.staff, { stayId: stay.id, checkOut: true });
    expect([settled.state, settled.balance]).toEqual(['settled', 0]);

    // A deposit kept at check-out is not taxed: what the guest paid is what is kept.
    const second = await stayIn(h.staff, h.rooms[1].id, { to: 'next_noon', deposit: 30_000 });
    const before = await getFolio(h.owner, { stayId: second.id });
    expect(before.balance).toBe(30_000 - 22_000);
    const kept = await settleFolio(h.staff, {
      stayId: second.id,
      checkOut: true,
      deposit: 'keep',
      depositReason: 'Damage',
      payment: { amount: 22_000, method: 'cash' },
    });
    expect([kept.state, kept.balance]).toEqual(['settled', 0]);
    expect(kept.entries.filter((e) => e.tax).map((e) => e.amount)).toEqual([-2_000]);
  });

  it('gives the tax back with room charges an early departure reverses, foreseen by the check-out dialog', async () => {
    const h = await ledgerHotel(ctx);
    await setTaxRule(h.owner, { appliesTo: 'rooms', ratePercent: 10, mode: 'added' });
    const stay = await stayOf(h.staff, h.rooms[0].id, 3);
    let bill = await getFolio(h.owner, { stayId: stay.id });
    expect(bill.balance).toBe(-66_000);
    // Leaving now: one night used. The dialog's figure is what the check-out then asks.
    const owed = bill.preview!.ifDepositRefunded.owed;
    expect(owed).toBe(22_000);
    bill = await settleFolio(h.staff, { stayId: stay.id, checkOut: true, payment: { amount: owed, method: 'cash' } });
    expect([bill.state, bill.balance]).toEqual(['settled', 0]);
    expect(bill.entries.filter((e) => e.tax && e.correctedById === null).map((e) => e.amount)).toEqual([-2_000]);
    expect(await booksTie(h, bill.entries[0]!.id)).toBe(true);
  });
});

describe('the city tax', () => {
  it('charges each night once for the guests, follows a renewal, keeps a night charged when the amount changes, gives back nights not used', async () => {
    const h = await ledgerHotel(ctx);
    expect((await setCityTax(h.owner, { amountPerNight: 250 })).city).toMatchObject({ amountPerNight: 250 });
    const city = await ctx.deps.prisma.taxRule.findFirstOrThrow({ where: { hotelId: h.hotel.id, appliesTo: 'city', retiredAt: null } });
    // Two guests, two nights: 4 x 2.50.
    const stay = await stayOf(h.staff, h.rooms[0].id, 2, 1);
    let bill = await getFolio(h.owner, { stayId: stay.id });
    const first = bill.entries.find((e) => e.tax)!;
    expect([first.kind, first.amount, first.note]).toEqual(['charge', -1_000, 'City tax (nights: 2)']);
    expect(await taxLines(first.id)).toEqual([
      ['guest', null, 1_000],
      ['tax_payable', city.id, -1_000],
    ]);

    // The amount changes: nights charged keep theirs; a night added by a renewal is charged at the new one.
    await setCityTax(h.owner, { amountPerNight: 300 });
    await renewStay(h.staff, { stayId: stay.id, expectedCheckOutAt: noonAfter(h.staff, new Date(stay.checkInAt), 3).toISOString() });
    bill = await getFolio(h.owner, { stayId: stay.id });
    expect(bill.entries.filter((e) => e.tax).map((e) => [e.amount, e.note])).toEqual([
      [-1_000, 'City tax (nights: 2)'],
      [-600, 'City tax (nights: 1)'],
    ]);
    expect(bill.balance).toBe(-(60_000 + 1_600));

    // Leaving now: the nights not used are given back, the one used is kept as charged.
    const owed = bill.preview!.ifDepositRefunded.owed;
    expect(owed).toBe(20_000 + 500);
    bill = await settleFolio(h.staff, { stayId: stay.id, checkOut: true, payment: { amount: owed, method: 'cash' } });
    expect([bill.state, bill.balance]).toEqual(['settled', 0]);
    expect(bill.entries.filter((e) => e.tax && e.correctedById === null).map((e) => [e.amount, e.note])).toEqual([[-500, 'City tax (nights: 1)']]);
    expect(await booksTie(h, first.id)).toBe(true);

    // Removed: nothing more is charged; a hotel without one sees nothing.
    expect((await setCityTax(h.owner, { amountPerNight: null })).city).toBeNull();
    const later = await stayOf(h.staff, h.rooms[1].id, 1);
    expect((await getFolio(h.owner, { stayId: later.id })).entries.filter((e) => e.tax)).toEqual([]);
  });

  it('is set by owners and administrators only, refuses an amount that is not one, and is audited', async () => {
    const h = await ledgerHotel(ctx);
    expect(await refusal(setCityTax(h.staff, { amountPerNight: 100 }))).toMatchObject({ code: 'FORBIDDEN' });
    for (const bad of [0, -5, 2.5, 1e308, 'ten']) {
      const answer = await api.mutation('hotel.setCityTax', { amountPerNight: bad as number }, { token: h.ownerToken, lang: 'en' });
      expect(answer.status, String(bad)).toBe(400);
    }
    await Promise.all([setCityTax(h.owner, { amountPerNight: 100 }), setCityTax(h.owner, { amountPerNight: 200 })]);
    expect(await ctx.deps.prisma.taxRule.count({ where: { hotelId: h.hotel.id, appliesTo: 'city', retiredAt: null } })).toBe(1);
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: h.hotel.id, action: 'hotel.setTaxRule' } })).toBe(2);
    const other = await ledgerHotel(ctx);
    expect(await taxRules(other.owner)).toEqual({ rooms: null, extras: null, city: null });
  });
});
