/**
 * Issue 36: the night audit as a property (docs/journal.md "The business date", docs/reports.md "The
 * day close"). fast-check picks a hotel's night: it is 02:00, the audit hour is 04:00, and yesterday is
 * still open; guests are in house, reservations due yesterday have not come (some with a deposit),
 * others are due today, the no-show policy is one or the other; payments, refunds, corrections and
 * cancellations of today's reservations (their deposit refunded or kept) happen before and after the
 * manager's close of yesterday. Whatever the sequence:
 * - every journal entry balances, and each is dated yesterday before the close and today after it;
 * - the close ties (it refused nothing) and then never changes: yesterday's trial balance and report
 *   read at the end are what they were at the close;
 * - yesterday's money on the report is the journal's money of that business date;
 * - each reservation that never came is a no-show with one fee of its first night under the policy
 *   that charges, none under the one that releases;
 * - today's trial balance ties at the end.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDate, zonedToInstant, type TPaymentMethod } from '@console/shared';
import { insertStay, zoneAtLocalHour } from '../../test/factories';
import { createTestContext, type TestContext } from '../../test/harness';
import { ledgerHotel, stayIn } from '../../test/ledger-kit';
import { trialBalanceOf } from '../journal/trial-balance';
import { updateHotelInfo } from '../hotel/hotel.service';
import { recordDeposit, recordPayment } from '../orders/payments';
import { correctEntry, refundEntry } from '../orders/refunds';
import { cancelReservation } from '../stays/check-out';
import { closeDay } from './day-close';
import { dayReport } from './day-report';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

type Op =
  | { t: 'payment'; pick: number; amount: number; method: TPaymentMethod }
  | { t: 'refund'; pick: number }
  | { t: 'correct'; pick: number }
  | { t: 'cancel'; pick: number; keep: boolean }
  | { t: 'close' };

const method = fc.constantFrom<TPaymentMethod>('cash', 'bank_card', 'wechat');
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ t: fc.constant('payment' as const), pick: fc.nat(), amount: fc.integer({ min: 1, max: 40_000 }), method }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('refund' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('correct' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('cancel' as const), pick: fc.nat(), keep: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('close' as const) }) },
);
const night = fc.record({
  charge: fc.boolean(),
  // Reservations due yesterday that have not come: their price for two nights and the deposit taken.
  awaited: fc.array(fc.record({ price: fc.integer({ min: 2, max: 80_000 }), deposit: fc.integer({ min: 0, max: 30_000 }) }), { minLength: 1, maxLength: 2 }),
  // Reservations due today (which the desk may still cancel), with the deposit taken.
  upcoming: fc.array(fc.integer({ min: 0, max: 30_000 }), { minLength: 1, maxLength: 2 }),
  ops: fc.array(op, { minLength: 2, maxLength: 10 }),
});

/** What the journal holds of a hotel: entries that do not balance, and the business dates of its order entries' postings in order. */
async function journal(hotelId: number) {
  const unbalanced = await ctx.deps.prisma.$queryRaw<{ id: number }[]>`
    SELECT e."id" FROM "JournalEntry" e JOIN "JournalLine" l ON l."journalEntryId" = e."id" WHERE e."hotelId" = ${hotelId} GROUP BY e."id" HAVING sum(l."amount") <> 0`;
  const dates = await ctx.deps.prisma.journalEntry.findMany({ where: { hotelId }, orderBy: { id: 'asc' }, select: { id: true, businessDate: true } });
  return { unbalanced, dates };
}

/** The journal's money of a business date, received (positive) and refunded, as the report counts it (balance aside). */
async function moneyOf(hotelId: number, date: string) {
  const [row] = await ctx.deps.prisma.$queryRaw<{ received: bigint; refunded: bigint }[]>`
    SELECT coalesce(sum(o."amount") FILTER (WHERE o."kind" IN ('deposit', 'payment', 'recharge')), 0) AS "received",
           coalesce(-sum(o."amount") FILTER (WHERE o."kind" = 'refund'), 0) AS "refunded"
    FROM "JournalEntry" e JOIN "OrderEntry" o ON o."id" = e."orderEntryId"
    WHERE e."hotelId" = ${hotelId} AND e."businessDate" = ${date} AND o."method" IS NOT NULL AND o."method" <> 'balance'`;
  return { received: Number(row?.received ?? 0), refunded: Number(row?.refunded ?? 0) };
}

describe('the night audit (property)', () => {
  it('keeps the night on the day before until the close, closes it tied for good, and charges each no-show by the policy', async () => {
    await fc.assert(
      fc.asyncProperty(night, async ({ charge, awaited, upcoming, ops }) => {
        const h = await ledgerHotel(ctx, ['N1', 'N2', 'N3', 'N4', 'N5', 'N6']);
        const timeZone = zoneAtLocalHour(2);
        await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone, dayCloseTime: '04:00' } });
        for (const c of [h.owner, h.staff]) c.actor.timeZone = timeZone;
        if (charge) await updateHotelInfo(h.owner, { noShowPolicy: 'charge_first_night' });
        const today = localDate(new Date(), timeZone);
        const yesterday = addDays(today, -1);
        const at = (days: number, time: string) => zonedToInstant(`${addDays(today, days)}T${time}`, timeZone)!;

        // Two guests in house since yesterday evening, and the reservations that have not come.
        const guests = [await stayIn(h.staff, h.rooms[0].id, { from: -6, to: 30 }), await stayIn(h.staff, h.rooms[1].id, { from: -5, to: 30, deposit: 5_000 })];
        const reservations: number[] = [];
        for (const [i, a] of awaited.entries()) {
          const stay = await insertStay(ctx.deps, {
            hotelId: h.hotel.id,
            roomId: h.rooms[2 + i]!.id,
            checkInAt: at(-1, '14:00'),
            expectedCheckOutAt: at(1, '12:00'),
            status: 'reserved',
          });
          await ctx.deps.prisma.stay.update({ where: { id: stay.id }, data: { awaitsArrival: true, noShowAt: at(0, '00:00'), priceAmount: a.price } });
          if (a.deposit) await recordDeposit(h.staff, { stayId: stay.id, amount: a.deposit, method: 'cash' });
          reservations.push(stay.id);
        }
        const later: number[] = [];
        for (const [i, deposit] of upcoming.entries()) {
          const stay = await insertStay(ctx.deps, {
            hotelId: h.hotel.id,
            roomId: h.rooms[4 + i]!.id,
            checkInAt: at(0, '14:00'),
            expectedCheckOutAt: at(1, '12:00'),
            status: 'reserved',
          });
          await ctx.deps.prisma.stay.update({ where: { id: stay.id }, data: { awaitsArrival: true, noShowAt: at(1, '00:00'), priceAmount: 30_000 } });
          if (deposit) await recordDeposit(h.staff, { stayId: stay.id, amount: deposit, method: 'wechat' });
          later.push(stay.id);
        }
        const cancelled = new Set<number>();
        const taken: number[] = [];
        let closedAt: { books: unknown; report: unknown; lastEntry: number } | null = null;
        const close = async () => {
          await closeDay(h.owner, { date: yesterday });
          const { dates } = await journal(h.hotel.id);
          closedAt = {
            books: await trialBalanceOf(ctx.deps.prisma, h.hotel.id, yesterday),
            report: await dayReport(h.owner, { date: yesterday }),
            lastEntry: dates.at(-1)?.id ?? 0,
          };
        };

        for (const o of ops) {
          if (o.t === 'close') {
            if (!closedAt) await close();
          } else if (o.t === 'payment') {
            const stayId = guests[o.pick % guests.length]!.id;
            taken.push((await recordPayment(h.staff, { stayId, amount: o.amount, method: o.method })).entry.id);
          } else if (o.t === 'refund' || o.t === 'correct') {
            if (!taken.length) continue;
            const entryId = taken[o.pick % taken.length]!;
            // A rule may refuse it (refunded already, corrected already): nothing is written then.
            await (
              o.t === 'refund' ? refundEntry(h.owner, { entryId, amount: 1, reason: 'Property' }) : correctEntry(h.owner, { entryId, reason: 'Property' })
            ).catch(() => undefined);
          } else {
            const stayId = later[o.pick % later.length]!;
            if (cancelled.has(stayId)) continue;
            const held = upcoming[later.indexOf(stayId)]! > 0;
            await cancelReservation(h.staff, {
              stayId,
              reason: 'guest_request',
              ...(held
                ? o.keep
                  ? { deposit: 'keep' as const, depositReason: 'Late cancellation' }
                  : { deposit: 'refund' as const, refundMethod: 'cash' as const }
                : {}),
            });
            cancelled.add(stayId);
          }
        }
        if (!closedAt) await close();
        const closed = closedAt!;

        // Every entry balances; yesterday's before the close, today's after it.
        const { unbalanced, dates } = await journal(h.hotel.id);
        expect(unbalanced).toEqual([]);
        for (const d of dates) expect(d.businessDate, `entry ${d.id}`).toBe(d.id <= closed.lastEntry ? yesterday : today);
        // The closed day never changes, and its money is the journal's of that business date.
        expect(await trialBalanceOf(ctx.deps.prisma, h.hotel.id, yesterday)).toEqual(closed.books);
        const report = await dayReport(h.owner, { date: yesterday });
        expect(report).toEqual(closed.report);
        expect({ received: report.received, refunded: report.refunded }).toEqual(await moneyOf(h.hotel.id, yesterday));
        expect((await trialBalanceOf(ctx.deps.prisma, h.hotel.id, yesterday)).ties).toBe(true);
        expect((await trialBalanceOf(ctx.deps.prisma, h.hotel.id, today)).ties).toBe(true);

        // Each reservation due yesterday is a no-show, charged its first night once under the policy that
        // charges; today's are cancelled or still awaited, and never charged.
        const state = async (stayId: number) => ({
          status: (await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: stayId }, select: { status: true } })).status,
          fees: (await ctx.deps.prisma.orderEntry.findMany({ where: { stayId, noteKey: 'orders.notes.noShowFee' }, select: { amount: true } })).map(
            (f) => -f.amount,
          ),
        });
        for (const [i, stayId] of reservations.entries()) {
          // Two nights at equal rates: the first carries half, the odd unit on it.
          expect(await state(stayId)).toEqual({ status: 'no_show', fees: charge ? [Math.ceil(awaited[i]!.price / 2)] : [] });
        }
        for (const stayId of later) expect(await state(stayId)).toEqual({ status: cancelled.has(stayId) ? 'ended' : 'reserved', fees: [] });
      }),
      { numRuns: 10 },
    );
  });
});
