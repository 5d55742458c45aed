/**
 * Issue 36, the night audit of a hotel with years of books (docs/journal.md "Checkpoints", decision
 * 067): a trial balance starts from the latest checkpoint before its day instead of every line the
 * hotel ever wrote, and must say exactly what the whole journal says: on later days, with entries
 * posted after the checkpoint on its own day, with an entry imported with a past date (the journal's
 * triggers off), with an entry the journal lacks on a bill or a member's balance the checkpoint saw
 * tied. The close keeps its day (its no-shows charged) and the day before as checkpoints.
 */
import { addDays, localDate } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockLedgerDay } from '../../db/ledger-day-lock';
import { transaction } from '../../db/transaction';
import { insertStay, zoneAtLocalHour } from '../../test/factories';
import { createTestContext, type TestContext } from '../../test/harness';
import { ledgerHotel, noonHotel, stayIn } from '../../test/ledger-kit';
import { updateHotelInfo } from '../hotel/hotel.service';
import { rechargeCustomer } from '../orders/balances';
import { recordDeposit, recordPayment } from '../orders/payments';
import { recordCharge } from '../orders/posting';
import { getFolio } from '../orders/settlement.service';
import { openShift } from '../orders/shifts';
import { closeDay } from '../reports/day-close';
import { businessDateOf } from './business-date';
import { checkpointInClose } from './ledger-checkpoint';
import { ledgerBooks } from './trial-balance';
import { customersOff, foliosOff, ledgerGroups } from './trial-balance-sums';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

/** What every line of the journal says of `date`: the groups, accounts and checks with no checkpoint. */
async function fromEveryLine(hotelId: number, date: string) {
  const db = ctx.deps.prisma;
  const [groups, folios, customers] = await Promise.all([
    ledgerGroups(db, hotelId, date, null),
    foliosOff(db, hotelId, date, null),
    customersOff(db, hotelId, date, null),
  ]);
  return { groups: sorted(groups), foliosOff: folios, customersOff: customers };
}

/** The groups with a figure, in a fixed order (a checkpoint keeps no group left at zero). */
const sorted = (groups: Awaited<ReturnType<typeof ledgerGroups>>) =>
  groups
    .filter((g) => g.opening !== 0 || g.debits !== 0 || g.credits !== 0)
    .map((g) => [g.account, g.method, g.shiftId, g.opening, g.debits, g.credits])
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/** The trial balance as the product computes it (from its latest checkpoint), in the same shape. */
async function fromCheckpoint(hotelId: number, date: string) {
  const { books, groups } = await ledgerBooks(ctx.deps.prisma, hotelId, date);
  return { groups: sorted(groups), foliosOff: books.checks.foliosOff, customersOff: books.checks.customersOff, books };
}

/** Keeps the end of `date` as a checkpoint now, as the close does in its transaction. */
const checkpointAt = (hotelId: number, date: string) =>
  transaction(ctx.deps, async (tx) => {
    await lockLedgerDay(tx, hotelId);
    await checkpointInClose(tx, hotelId, date);
  });

const checkpoints = (hotelId: number) =>
  ctx.deps.prisma.ledgerCheckpoint.findMany({ where: { hotelId }, orderBy: { date: 'asc' }, select: { date: true } }).then((r) => r.map((c) => c.date));

describe('checkpoints of the books', () => {
  it('give the trial balance every line gives: later days, entries since on its day, an entry dated in the past, entries the journal lacks', async () => {
    const h = await noonHotel(ctx);
    const db = ctx.deps.prisma;
    await openShift(h.staff, { openingFloat: 10_000 });
    const first = await stayIn(h.staff, h.rooms[0].id, { to: 'next_noon', deposit: 5_000 });
    await recordCharge(h.staff, { stayId: first.id, amount: 1_500, note: 'Minibar' });
    await recordPayment(h.staff, { stayId: first.id, amount: 7_000, method: 'bank_card' });
    await rechargeCustomer(h.owner, { customerId: h.customer.id, amount: 30_000, method: 'wechat' });
    const today = await businessDateOf(db, h.hotel.id);
    const tomorrow = addDays(today, 1);

    // A checkpoint the day before everything: the day is read from its lines.
    await checkpointAt(h.hotel.id, addDays(today, -1));
    for (const date of [today, tomorrow]) {
      const kept = await fromCheckpoint(h.hotel.id, date);
      expect({ ...kept, books: undefined }).toEqual({ ...(await fromEveryLine(h.hotel.id, date)), books: undefined });
      expect(kept.books.ties).toBe(true);
    }

    // A checkpoint at the end of today, then more of today posted after it: read by their ids.
    await checkpointAt(h.hotel.id, today);
    const second = await stayIn(h.staff, h.rooms[1].id, { to: 'next_noon' });
    await recordPayment(h.staff, { stayId: second.id, amount: 20_000, method: 'cash' });
    // The member moves after it: a recharge and a stay paid from the balance (both sides of its account).
    await rechargeCustomer(h.owner, { customerId: h.customer.id, amount: 5_000, method: 'cash' });
    await recordPayment(h.staff, { stayId: second.id, amount: 3_000, method: 'balance', customerId: h.customer.id });
    const afterMore = await fromCheckpoint(h.hotel.id, tomorrow);
    expect({ ...afterMore, books: undefined }).toEqual({ ...(await fromEveryLine(h.hotel.id, tomorrow)), books: undefined });
    expect(afterMore.books.ties).toBe(true);

    // Written behind the triggers' back: a balanced entry dated three days ago (an import), an entry
    // on the first guest's bill and one on the member's balance that the journal lacks.
    const folio = await getFolio(h.owner, { stayId: first.id });
    await db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL session_replication_role = replica`);
      const [entry] = await tx.$queryRawUnsafe<{ id: number }[]>(
        `INSERT INTO "JournalEntry" ("hotelId", "source", "folioId", "businessDate") VALUES ($1, 'deposit_to_guest', $2, $3) RETURNING "id"`,
        h.hotel.id,
        folio.folioId,
        addDays(today, -3),
      );
      await tx.$executeRawUnsafe(
        `INSERT INTO "JournalLine" ("hotelId", "journalEntryId", "account", "folioId", "amount") VALUES ($1, $2, 'deposit', $3, 500), ($1, $2, 'guest', $3, -500)`,
        h.hotel.id,
        entry!.id,
        folio.folioId,
      );
      await tx.$executeRawUnsafe(
        `INSERT INTO "OrderEntry" ("hotelId", "currency", "folioId", "stayId", "roomId", "kind", "amount", "note") VALUES ($1, 'CNY', $2, $3, $4, 'charge', -1000, 'Minibar')`,
        h.hotel.id,
        folio.folioId,
        first.id,
        h.rooms[0].id,
      );
      await tx.$executeRawUnsafe(
        `INSERT INTO "OrderEntry" ("hotelId", "currency", "customerId", "kind", "method", "amount", "note") VALUES ($1, 'CNY', $2, 'recharge', 'cash', 2000, 'Import')`,
        h.hotel.id,
        h.customer.id,
      );
    });
    const behind = await fromCheckpoint(h.hotel.id, tomorrow);
    expect({ ...behind, books: undefined }).toEqual({ ...(await fromEveryLine(h.hotel.id, tomorrow)), books: undefined });
    expect(behind.foliosOff).toEqual([folio.folioId]);
    expect(behind.customersOff).toEqual([h.customer.id]);
    expect(behind.books.ties).toBe(false);
    expect(afterMore.books.rows.find((r) => r.account === 'deposit')!.opening).toBe(0);
    expect(behind.books.rows.find((r) => r.account === 'deposit')!.opening).toBe(500);
    expect(await checkpoints(h.hotel.id)).toEqual([addDays(today, -1), today]);
  });

  it('are kept by the close: its day with the no-shows it charged, and the day before; a day whose books do not tie is not kept', async () => {
    const h = await noonHotel(ctx);
    await updateHotelInfo(h.owner, { noShowPolicy: 'charge_first_night' });
    const stay = await insertStay(ctx.deps, {
      hotelId: h.hotel.id,
      roomId: h.rooms[1].id,
      checkInAt: h.at(-1, '14:00'),
      expectedCheckOutAt: h.at(1, '12:00'),
      status: 'reserved',
      guestName: 'Absent Guest',
    });
    await ctx.deps.prisma.stay.update({ where: { id: stay.id }, data: { awaitsArrival: true, noShowAt: h.at(0, '00:00'), priceAmount: 45_000 } });
    await recordDeposit(h.staff, { stayId: stay.id, amount: 10_000, method: 'cash' });
    await stayIn(h.staff, h.rooms[0].id, { from: -26, to: 22 });

    await closeDay(h.owner, { date: h.yesterday });
    expect(await checkpoints(h.hotel.id)).toEqual([addDays(h.yesterday, -1), h.yesterday]);
    // Today's books, the fee charged at the close among them, read from yesterday's checkpoint.
    const kept = await fromCheckpoint(h.hotel.id, h.today);
    expect({ ...kept, books: undefined }).toEqual({ ...(await fromEveryLine(h.hotel.id, h.today)), books: undefined });
    expect(kept.books.ties).toBe(true);
    expect(kept.books.rows.find((r) => r.account === 'revenue_extras')!.debits + kept.books.rows.find((r) => r.account === 'revenue_extras')!.credits).toBe(
      -22_500,
    );

    // A hotel whose books of yesterday do not tie: the close refuses, and keeps nothing of that day.
    const off = await noonHotel(ctx);
    const guest = await stayIn(off.staff, off.rooms[0].id, { from: -26, to: 22 });
    const bill = await getFolio(off.owner, { stayId: guest.id });
    await ctx.deps.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL session_replication_role = replica`);
      await tx.$executeRawUnsafe(
        `INSERT INTO "OrderEntry" ("hotelId", "currency", "folioId", "stayId", "roomId", "kind", "amount", "note", "createdAt") VALUES ($1, 'CNY', $2, $3, $4, 'charge', -1000, 'Minibar', $5)`,
        off.hotel.id,
        bill.folioId,
        guest.id,
        off.rooms[0].id,
        off.at(-1, '10:00'),
      );
    });
    await expect(closeDay(off.owner, { date: off.yesterday })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await checkpoints(off.hotel.id)).toEqual([addDays(off.yesterday, -1)]);
  });

  it("hold a member's recharge and a guest's payment made in the night before the audit on the day it kept, not on the next", async () => {
    // 02:00 with the audit at 04:00: the recharge is written today and dated yesterday, before the checkpoint.
    const h = await ledgerHotel(ctx);
    const timeZone = zoneAtLocalHour(2);
    await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone, dayCloseTime: '04:00' } });
    for (const c of [h.owner, h.staff]) c.actor.timeZone = timeZone;
    const today = localDate(new Date(), timeZone);
    await rechargeCustomer(h.owner, { customerId: h.customer.id, amount: 8_000, method: 'cash' });
    // And a guest who came in the evening pays at 02:00: the bill's entries, too, are yesterday's.
    const stay = await stayIn(h.staff, h.rooms[0].id, { from: -5, to: 20 });
    await recordPayment(h.staff, { stayId: stay.id, amount: 6_000, method: 'cash' });
    await checkpointAt(h.hotel.id, addDays(today, -1));
    const kept = await fromCheckpoint(h.hotel.id, today);
    expect({ ...kept, books: undefined }).toEqual({ ...(await fromEveryLine(h.hotel.id, today)), books: undefined });
    expect([kept.foliosOff, kept.customersOff]).toEqual([[], []]);
  });
});
