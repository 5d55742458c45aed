import { addDays, localDate } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness';
import { cancelReservation } from '../stays/check-out';
import { arriveReservation } from '../stays/arrival';
import { renewStay } from '../stays/renewal';
import { rechargeCustomer } from '../orders/balances';
import { recordPayment } from '../orders/payments';
import { recordCharge } from '../orders/posting';
import { correctEntry, refundEntry } from '../orders/refunds';
import { getFolio, settleFolio } from '../orders/settlement.service';
import { ledgerHotel, refusal, stayIn } from '../../test/ledger-kit';
import { trialBalance, trialBalanceOf } from './trial-balance';

/**
 * Issue 36, the journal (docs/journal.md): every order entry is a balanced journal entry over
 * accounts; room revenue is booked by the night it is for; a deposit taken before arrival sits in
 * the deposit ledger until the visit begins; a bill left owing moves to receivables; the trial
 * balance ties; the database refuses an entry that does not balance and any change to one posted.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

type Hotel = Awaited<ReturnType<typeof ledgerHotel>>;
const num = (v: bigint | number | null | undefined) => Number(v ?? 0);

/** A folio's journal: its ledgers' balances (debit positive) and the room revenue booked per night (positive). */
async function journalOf(hotelId: number, folioId: number) {
  const ledgers = await ctx.deps.prisma.$queryRaw<{ account: string; amount: bigint }[]>`
    SELECT "account"::text, sum("amount") AS "amount" FROM "JournalLine" WHERE "hotelId" = ${hotelId} AND "folioId" = ${folioId} GROUP BY 1`;
  const nights = await ctx.deps.prisma.$queryRaw<{ date: string; amount: bigint }[]>`
    SELECT l."serviceDate" AS "date", -sum(l."amount") AS "amount" FROM "JournalLine" l JOIN "JournalEntry" e ON e."id" = l."journalEntryId"
    WHERE e."hotelId" = ${hotelId} AND e."folioId" = ${folioId} AND l."account" = 'revenue_rooms' GROUP BY 1 HAVING sum(l."amount") <> 0 ORDER BY 1`;
  const sources = await ctx.deps.prisma.journalEntry.findMany({ where: { hotelId, folioId }, select: { source: true }, orderBy: { id: 'asc' } });
  return {
    ledger: Object.fromEntries(ledgers.filter((l) => num(l.amount) !== 0).map((l) => [l.account, num(l.amount)])),
    nights: nights.map((n) => [n.date, num(n.amount)]),
    sources: sources.map((s) => s.source),
  };
}

/** The hotel's trial balance of the latest business date it has entries on: it ties. */
async function expectTies(h: Hotel) {
  const [{ date } = { date: localDate(new Date(), h.owner.actor.timeZone) }] = await ctx.deps.prisma.$queryRaw<{ date: string }[]>`
    SELECT max("businessDate") AS "date" FROM "JournalEntry" WHERE "hotelId" = ${h.hotel.id}`;
  const tb = await trialBalanceOf(ctx.deps.prisma, h.hotel.id, date);
  expect(tb.checks).toEqual({ balanced: true, foliosOff: [], customersOff: [] });
  expect(tb.ties).toBe(true);
  for (const row of tb.rows) expect(row.opening + row.debits + row.credits).toBe(row.closing);
  return tb;
}

describe('the journal', () => {
  it('books room revenue by the night it is for: a dearer second night, and a night added later on its own date', async () => {
    const h = await ledgerHotel(ctx);
    const zone = h.owner.actor.timeZone;
    const stay = await stayIn(h.staff, h.rooms[0].id, { to: 'next_noon' });
    // The nights by the stay's own check-in, not by a clock read before it (a test begun at 23:59 in
    // the hotel's zone checked in on the next day).
    const today = localDate(new Date(stay.checkInAt), zone);
    const [tomorrow, dayAfter] = [addDays(today, 1), addDays(today, 2)];
    // The night the renewal adds is dearer.
    await ctx.deps.prisma.roomDatePrice.create({
      data: { hotelId: h.hotel.id, roomId: h.rooms[0].id, date: new Date(`${tomorrow}T00:00:00Z`), price: 35_000 },
    });
    const renewed = await renewStay(h.staff, { stayId: stay.id, expectedCheckOutAt: new Date(Date.parse(stay.expectedCheckOutAt) + 86_400_000) });
    expect(renewed.priceAmount).toBe(20_000 + 35_000);
    const folio = await getFolio(h.staff, { stayId: stay.id });
    // The renewal's charge says what it is: added for a change to the stay, not "recomputed".
    expect(folio.entries.filter((e) => e.kind === 'room_charge').map((e) => e.note)).toEqual(['', 'Room charge added for a change to the stay']);
    const j = await journalOf(h.hotel.id, folio.folioId!);
    // Both charges were posted today; the revenue is the nights'.
    expect(j.nights).toEqual([
      [today, 20_000],
      [tomorrow, 35_000],
    ]);
    expect(j.ledger).toEqual({ guest: 55_000 });
    const tb = await expectTies(h);
    expect(tb.rows.find((r) => r.account === 'revenue_rooms')).toMatchObject({ credits: -55_000 });
    expect((await trialBalanceOf(ctx.deps.prisma, h.hotel.id, tomorrow)).roomRevenueOfNight).toBe(35_000);
    expect((await trialBalanceOf(ctx.deps.prisma, h.hotel.id, dayAfter)).roomRevenueOfNight).toBe(0);

    // A minibar charge, the whole bill paid by card: the guest ledger is back at zero, the money is in its account.
    await recordCharge(h.staff, { stayId: stay.id, amount: 1_500, note: 'Minibar' });
    const paid = await recordPayment(h.staff, { stayId: renewed.id, amount: 56_500, method: 'bank_card' });
    expect(paid.folio).toMatchObject({ balance: 0 });
    const after = await journalOf(h.hotel.id, folio.folioId!);
    expect(after.ledger).toEqual({});
    const end = await expectTies(h);
    expect(end.rows.find((r) => r.account === 'revenue_extras')).toMatchObject({ closing: -1_500 });
    expect(end.rows.find((r) => r.account === 'money')).toMatchObject({ closing: 56_500 });
  });

  it('keeps a deposit taken before arrival in the deposit ledger, and moves it to the guest ledger when the guest arrives', async () => {
    const h = await ledgerHotel(ctx);
    const reserved = await stayIn(h.staff, h.rooms[0].id, { from: 2, to: 30, deposit: 10_000 });
    const folio = await getFolio(h.staff, { stayId: reserved.id });
    expect((await journalOf(h.hotel.id, folio.folioId!)).ledger).toEqual({ deposit: -10_000 });
    expect((await expectTies(h)).rows.find((r) => r.account === 'deposit')).toMatchObject({ closing: -10_000 });

    const arrived = await arriveReservation(h.staff, { stayId: reserved.id, acknowledge: ['room_dirty'] });
    const j = await journalOf(h.hotel.id, folio.folioId!);
    expect(j.sources).toEqual(['order', 'deposit_to_guest', 'order']);
    expect(j.ledger).toEqual({ guest: arrived.priceAmount - 10_000 });
    await expectTies(h);
  });

  it('refunds a cancelled reservation’s deposit out of the deposit ledger', async () => {
    const h = await ledgerHotel(ctx);
    const reserved = await stayIn(h.staff, h.rooms[1].id, { from: 30, to: 60, deposit: 8_000 });
    await cancelReservation(h.staff, { stayId: reserved.id, reason: 'guest_request', deposit: 'refund', refundMethod: 'cash' });
    const folio = await getFolio(h.owner, { stayId: reserved.id });
    expect(folio.entries.map((e) => [e.kind, e.amount, e.method])).toEqual([
      ['deposit', 8_000, 'cash'],
      ['refund', -8_000, 'cash'],
    ]);
    const j = await journalOf(h.hotel.id, folio.folioId!);
    expect(j.ledger).toEqual({});
    expect(j.sources).toEqual(['order', 'order']);
    await expectTies(h);
  });

  it('moves a bill left owing to receivables, which its later payments settle', async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[2].id, { to: 'next_noon' });
    const owing = await settleFolio(h.owner, { stayId: stay.id, checkOut: true, leaveOwing: { reason: 'company', note: '' } });
    expect(owing.state).toBe('owing');
    let j = await journalOf(h.hotel.id, owing.folioId!);
    expect(j.ledger).toEqual({ receivable: stay.priceAmount });
    expect(j.sources).toEqual(['order', 'guest_to_receivable']);
    expect((await expectTies(h)).rows.find((r) => r.account === 'receivable')).toMatchObject({ closing: stay.priceAmount });
    await recordPayment(h.staff, { stayId: stay.id, amount: stay.priceAmount, method: 'transfer' });
    j = await journalOf(h.hotel.id, owing.folioId!);
    expect(j.ledger).toEqual({});
    await expectTies(h);
  });

  it("ties a customer's balance, spent on a stay, refunded and corrected", async () => {
    const h = await ledgerHotel(ctx);
    const recharge = await rechargeCustomer(h.owner, { customerId: h.customer.id, amount: 50_000, method: 'alipay' });
    const stay = await stayIn(h.staff, h.rooms[0].id, { to: 'next_noon' });
    const paid = await recordPayment(h.staff, { stayId: stay.id, amount: 5_000, method: 'balance', customerId: h.customer.id });
    await correctEntry(h.owner, { entryId: paid.entry.id, reason: 'Wrong guest' });
    await refundEntry(h.owner, { entryId: recharge.entry.id, amount: 20_000, reason: 'Asked back' });
    const tb = await expectTies(h);
    expect(tb.rows.find((r) => r.account === 'customer_balance')).toMatchObject({ closing: -30_000 });
    expect(tb.rows.find((r) => r.account === 'money')).toMatchObject({ closing: 30_000 });
  });

  it('is for managers of the whole hotel, and reads one hotel only', async () => {
    const h = await ledgerHotel(ctx);
    const other = await ledgerHotel(ctx);
    await stayIn(other.staff, other.rooms[0].id, { to: 'next_noon', deposit: 30_000 });
    const today = localDate(new Date(), h.owner.actor.timeZone);
    expect(await refusal(trialBalance(h.staff, { date: today }))).toMatchObject({ code: 'FORBIDDEN' });
    expect(await refusal(trialBalance(h.limitedAdmin.ctx, { date: today }))).toMatchObject({ code: 'FORBIDDEN' });
    const tb = await trialBalance(h.owner, { date: today });
    expect(tb.rows.every((r) => r.closing === 0)).toBe(true);
    expect(tb.ties).toBe(true);
    expect(await refusal(trialBalance(h.owner, { date: '2026-02-30' }))).toMatchObject({ code: 'ZOD' });
  });
});

describe('the database', () => {
  it('refuses an entry whose lines do not sum to zero, any change to one posted, and a room charge whose nights are not its amount', async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id, { to: 'next_noon' });
    const folio = await getFolio(h.staff, { stayId: stay.id });
    const message = (p: Promise<unknown>) =>
      p.then(
        () => 'no error',
        (e: { meta?: { driverAdapterError?: { cause?: { originalMessage?: string } } } }) => e.meta?.driverAdapterError?.cause?.originalMessage ?? String(e),
      );
    const prisma = ctx.deps.prisma;
    expect(
      await message(
        prisma.$transaction(async (tx) => {
          const entry = await tx.journalEntry.create({
            data: { hotelId: h.hotel.id, source: 'deposit_to_guest', businessDate: '2026-11-26', folioId: folio.folioId },
          });
          await tx.journalLine.createMany({
            data: [
              { hotelId: h.hotel.id, journalEntryId: entry.id, account: 'guest', folioId: folio.folioId, amount: 100n },
              { hotelId: h.hotel.id, journalEntryId: entry.id, account: 'deposit', folioId: folio.folioId, amount: -99n },
            ],
          });
        }),
      ),
    ).toMatch(/does not balance/);
    const line = await prisma.journalLine.findFirstOrThrow({ where: { hotelId: h.hotel.id, folioId: folio.folioId } });
    // A line added later to an entry already posted (by the posting trigger, balanced at its commit) is checked at this commit.
    expect(
      await message(
        prisma.journalLine.create({
          data: { hotelId: h.hotel.id, journalEntryId: line.journalEntryId, account: 'guest', folioId: folio.folioId, amount: 1n },
        }),
      ),
    ).toMatch(/does not balance/);
    expect(await message(prisma.journalLine.update({ where: { id: line.id }, data: { amount: 1n } }))).toMatch(/append-only/);
    expect(await message(prisma.journalLine.delete({ where: { id: line.id } }))).toMatch(/append-only/);
    expect(await message(prisma.journalEntry.delete({ where: { id: line.journalEntryId } }))).toMatch(/append-only/);
    expect(
      await message(
        prisma.orderEntry.create({
          data: {
            hotelId: h.hotel.id,
            kind: 'room_charge',
            amount: -1_000,
            currency: 'CNY',
            stayId: stay.id,
            folioId: folio.folioId,
            nights: [{ date: '2026-11-26', amount: 999 }],
          },
        }),
      ),
    ).toMatch(/nights of room charge \d+ sum to 999, not 1000/);
    await expectTies(h);
  });
});
