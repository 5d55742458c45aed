/**
 * Issue 36 "Taxes" (docs/journal.md "Taxes"): a tax included in the price of a kind of revenue. The
 * bill does not change; the journal books each revenue line net of the tax it includes and the tax on
 * `tax_payable` under its rule (the same night for room revenue); a correction takes both back; a rate
 * set later changes nothing posted; the books tie; the reports' room revenue is net of it. A hotel with
 * no rule sees nothing change. Set by owners and administrators, one rule in force a kind, audited.
 */
import { localDate } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness';
import { ledgerHotel, refusal, stayIn } from '../../test/ledger-kit';
import { trpcClient } from '../../test/trpc-client';
import { getFolio } from '../orders/settlement.service';
import { recordCharge } from '../orders/posting';
import { correctEntry } from '../orders/refunds';
import { setTaxRule, taxRules } from './tax-rules';
import { trialBalanceOf } from './trial-balance';
import { dayReport } from '../reports/day-report';

let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;
beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
});
afterAll(() => ctx?.close());

/** The lines of the journal entry of an order entry: account, night, rule and amount. */
async function linesOf(orderEntryId: number) {
  const rows = await ctx.deps.prisma.journalLine.findMany({
    where: { entry: { orderEntryId } },
    orderBy: { id: 'asc' },
    select: { account: true, serviceDate: true, taxRuleId: true, amount: true },
  });
  return rows.map((r) => ({ ...r, amount: Number(r.amount) }));
}

describe('taxes included in the price', () => {
  it('books each revenue line net and its tax on tax_payable; a correction takes both back; the books tie', async () => {
    const h = await ledgerHotel(ctx);
    expect(await taxRules(h.owner)).toEqual({ rooms: null, extras: null, city: null });
    await setTaxRule(h.owner, { appliesTo: 'rooms', ratePercent: 6 });
    const rules = await setTaxRule(h.owner, { appliesTo: 'extras', ratePercent: 13 });
    expect(rules).toMatchObject({ rooms: { ratePercent: 6 }, extras: { ratePercent: 13 } });
    const rooms = await ctx.deps.prisma.taxRule.findFirstOrThrow({ where: { hotelId: h.hotel.id, appliesTo: 'rooms' } });
    const extras = await ctx.deps.prisma.taxRule.findFirstOrThrow({ where: { hotelId: h.hotel.id, appliesTo: 'extras' } });

    // One night at 200.00: 188.68 of room revenue and 11.32 of tax, the same night.
    const stay = await stayIn(h.staff, h.rooms[0].id, { to: 'next_noon' });
    expect(stay.priceAmount).toBe(20_000);
    const folio = await getFolio(h.owner, { stayId: stay.id });
    const roomCharge = folio.entries.find((e) => e.kind === 'room_charge')!;
    expect(roomCharge.amount).toBe(-20_000);
    const [night] = (await linesOf(roomCharge.id)).filter((l) => l.account === 'revenue_rooms');
    expect(await linesOf(roomCharge.id)).toEqual([
      { account: 'guest', serviceDate: null, taxRuleId: null, amount: 20_000 },
      { account: 'revenue_rooms', serviceDate: night!.serviceDate, taxRuleId: null, amount: -18_868 },
      { account: 'tax_payable', serviceDate: night!.serviceDate, taxRuleId: rooms.id, amount: -1_132 },
    ]);
    // A minibar at 11.30 includes 1.30 of tax at 13 %; corrected, both come back.
    const minibar = await recordCharge(h.staff, { stayId: stay.id, amount: 1_130, note: 'Minibar' });
    expect((await linesOf(minibar.entry.id)).map((l) => [l.account, l.taxRuleId, l.amount])).toEqual([
      ['guest', null, 1_130],
      ['revenue_extras', null, -1_000],
      ['tax_payable', extras.id, -130],
    ]);
    const corrected = await correctEntry(h.owner, { entryId: minibar.entry.id, reason: 'Not taken' });
    expect((await linesOf(corrected.entry.id)).map((l) => [l.account, l.amount]).sort()).toEqual(
      [
        ['guest', -1_130],
        ['revenue_extras', 1_000],
        ['tax_payable', 130],
      ].sort(),
    );
    // The bill is what the guest pays: unchanged; each charge says the tax it includes.
    const bill = await getFolio(h.owner, { stayId: stay.id });
    expect(bill.balance).toBe(-20_000);
    expect(bill.entries.map((e) => [e.kind, e.amount, e.taxIncluded]).sort()).toEqual(
      [
        ['room_charge', -20_000, 1_132],
        ['charge', -1_130, 130],
        ['correction', 1_130, -130],
      ].sort(),
    );

    // The books of the day the charges were posted on; the night is the check-in's own day (the two
    // differ when the test crosses the hotel's midnight: a night charged just after it).
    const posted = (await ctx.deps.prisma.journalEntry.findFirstOrThrow({ where: { orderEntryId: roomCharge.id } })).businessDate;
    const books = await trialBalanceOf(ctx.deps.prisma, h.hotel.id, posted);
    expect(books.ties).toBe(true);
    expect(books.rows.find((r) => r.account === 'tax_payable')).toMatchObject({ closing: -1_132 });
    expect(night!.serviceDate).toBe(localDate(new Date(stay.checkInAt), h.owner.actor.timeZone));
    expect((await trialBalanceOf(ctx.deps.prisma, h.hotel.id, night!.serviceDate!)).roomRevenueOfNight).toBe(18_868);
    // The day report: the night's room revenue net of the tax it includes; the tax owed on the day it
    // was posted (a liability dated as the journal dates it, docs/journal.md); the minibar taken back.
    const report = await dayReport(h.owner, { date: night!.serviceDate! });
    expect(report.revenue).toMatchObject({ roomCharges: 18_868, charges: 0, total: 18_868 });
    expect((await dayReport(h.owner, { date: posted })).revenue).toMatchObject({ charges: 0, taxes: 1_132 });
  });

  it('changes nothing posted when the rate changes or is removed, and nothing for a hotel with none', async () => {
    const h = await ledgerHotel(ctx);
    await setTaxRule(h.owner, { appliesTo: 'rooms', ratePercent: 10 });
    const first = await stayIn(h.staff, h.rooms[0].id, { to: 'next_noon' });
    const charge = (id: number) => getFolio(h.owner, { stayId: id }).then((f) => f.entries.find((e) => e.kind === 'room_charge')!.id);
    const firstLines = await linesOf(await charge(first.id));
    await setTaxRule(h.owner, { appliesTo: 'rooms', ratePercent: 9.5 });
    expect(await linesOf(await charge(first.id))).toEqual(firstLines);
    expect(firstLines.find((l) => l.account === 'tax_payable')?.amount).toBe(-1_818);
    const second = await stayIn(h.staff, h.rooms[1].id, { to: 'next_noon' });
    expect((await linesOf(await charge(second.id))).find((l) => l.account === 'tax_payable')?.amount).toBe(-1_735);
    await setTaxRule(h.owner, { appliesTo: 'rooms', ratePercent: null });
    const third = await stayIn(h.staff, h.rooms[2].id, { to: 'next_noon' });
    expect((await linesOf(await charge(third.id))).map((l) => l.account)).toEqual(['guest', 'revenue_rooms']);
    // Rules kept with when they were in force: three set, two retired, none in force.
    expect(await ctx.deps.prisma.taxRule.count({ where: { hotelId: h.hotel.id, retiredAt: { not: null } } })).toBe(2);
    expect(await taxRules(h.owner)).toEqual({ rooms: null, extras: null, city: null });
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: h.hotel.id, action: 'hotel.setTaxRule' } })).toBe(3);

    const none = await ledgerHotel(ctx);
    const plain = await stayIn(none.staff, none.rooms[0].id, { to: 'next_noon' });
    expect((await getFolio(none.owner, { stayId: plain.id })).entries.map((e) => e.taxIncluded)).toEqual([null]);
    expect((await linesOf(await getFolio(none.owner, { stayId: plain.id }).then((f) => f.entries[0]!.id))).map((l) => l.account)).toEqual([
      'guest',
      'revenue_rooms',
    ]);
  });

  it('is set by owners and administrators only, one rule in force even when set twice at once, and refuses a rate that is not one', async () => {
    const h = await ledgerHotel(ctx);
    expect(await refusal(setTaxRule(h.staff, { appliesTo: 'rooms', ratePercent: 6 }))).toMatchObject({ code: 'FORBIDDEN' });
    await Promise.all([setTaxRule(h.owner, { appliesTo: 'rooms', ratePercent: 6 }), setTaxRule(h.owner, { appliesTo: 'rooms', ratePercent: 7 })]);
    expect(await ctx.deps.prisma.taxRule.count({ where: { hotelId: h.hotel.id, retiredAt: null } })).toBe(1);
    for (const bad of [0, -5, 100.5, 6.125, 1e308, '6', null as unknown as number]) {
      if (bad === null) continue;
      const answer = await api.mutation('hotel.setTaxRule', { appliesTo: 'rooms', ratePercent: bad as number }, { token: h.ownerToken, lang: 'en' });
      expect(answer.status, String(bad)).toBe(400);
    }
    // Another hotel's rules are its own.
    const other = await ledgerHotel(ctx);
    expect((await api.query('hotel.taxRules', undefined, { token: other.ownerToken })).data).toEqual({ rooms: null, extras: null, city: null });
  });
});
