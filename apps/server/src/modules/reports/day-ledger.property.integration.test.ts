import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDate, type TPaymentMethod } from '@console/shared';
import type { TCashLine } from '@console/shared/dto';
import { checkIn } from '../stays/check-in';
import { hours, uniqueMobile, zoneAtLocalHour } from '../../test/factories';
import { createTestContext, type TestContext } from '../../test/harness';
import { rechargeCustomer } from '../orders/balances';
import { ledgerHotel, member } from '../../test/ledger-kit';
import { recordDeposit, recordPayment } from '../orders/payments';
import { correctEntry, refundEntry } from '../orders/refunds';
import { closeShift, getShift, openShift } from '../orders/shifts';
import { dayReport } from './day-report';
import { closeDay } from './day-close';

/**
 * Issue 26 "Faces and numbers": the sum of the shift reports is the day report is the ledger.
 * Whatever sequence of shifts opened and closed (by three clerks, counted right or wrong) and of
 * payments, deposits, top-ups, refunds and corrections (some taken while the clerk has no shift
 * open), through the services against the real database:
 * - per way of paying, what the day's shifts moved plus what was taken outside any shift is what the
 *   day report says moved, which is what the ledger's rows of the day sum to;
 * - the day's money received and refunded are the ledger's;
 * - once the day is over and closed, its frozen report says the same; a payment made afterwards lands
 *   on the day it is made, and the closed day does not move.
 * The day is made "over" by moving this hotel's rows of the run two days back (triggers off for that
 * statement only: the ledger is otherwise append-only), since a day can be closed only once it ended.
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

type Op =
  | { t: 'open'; clerk: number; float: number }
  | { t: 'close'; clerk: number; off: number }
  | { t: 'payment' | 'deposit'; clerk: number; amount: number; method: TPaymentMethod }
  | { t: 'recharge'; clerk: number; amount: number; method: Exclude<TPaymentMethod, 'balance'> }
  | { t: 'refund'; clerk: number; pick: number }
  | { t: 'correct'; clerk: number; pick: number };

const clerk = fc.integer({ min: 0, max: 2 });
const amount = fc.integer({ min: 1, max: 40_000 });
const method = fc.constantFrom<TPaymentMethod>('cash', 'bank_card', 'wechat', 'balance');
const handed = fc.constantFrom<Exclude<TPaymentMethod, 'balance'>>('cash', 'alipay', 'transfer');
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ t: fc.constant('open' as const), clerk, float: fc.integer({ min: 0, max: 50_000 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('close' as const), clerk, off: fc.integer({ min: -500, max: 500 }) }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constantFrom('payment' as const, 'deposit' as const), clerk, amount, method }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('recharge' as const), clerk, amount, method: handed }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('refund' as const), clerk, pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('correct' as const), clerk, pick: fc.nat() }) },
);

type Net = Partial<Record<TPaymentMethod, number>>;
const addNet = (into: Net, lines: { method: TPaymentMethod; net: number }[]) => {
  for (const l of lines) if (l.net !== 0) into[l.method] = (into[l.method] ?? 0) + l.net;
};
const nonZero = (net: Net) => Object.fromEntries(Object.entries(net).filter(([, v]) => v !== 0));
const linesNet = (lines: TCashLine[]) => {
  const net: Net = {};
  addNet(net, lines);
  return nonZero(net);
};

/** The ledger's own sums of the hotel's rows in [from, to): net per way of paying, received and refunded (balance aside). */
async function ledger(hotelId: number, from: Date, to: Date) {
  const rows = await ctx.deps.prisma.$queryRaw<{ method: TPaymentMethod; kind: string; amount: bigint }[]>`
    SELECT "method", "kind", sum("amount")::bigint AS amount FROM "OrderEntry"
    WHERE "hotelId" = ${hotelId} AND "method" IS NOT NULL AND "createdAt" >= ${from} AND "createdAt" < ${to}
    GROUP BY "method", "kind"`;
  const net: Net = {};
  let received = 0;
  let refunded = 0;
  for (const r of rows) {
    const a = Number(r.amount);
    net[r.method] = (net[r.method] ?? 0) + a;
    if (r.method === 'balance') continue;
    if (['deposit', 'payment', 'recharge'].includes(r.kind)) received += a;
    if (r.kind === 'refund') refunded -= a;
  }
  return { net: nonZero(net), received, refunded };
}

describe('the day and its shifts against the ledger (property)', () => {
  it('the shifts plus what was taken outside them make the day report, which is the ledger, before and after the close', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 14 }), async (ops) => {
        // A hotel of its own per run, where it is midday: the whole run is on the hotel's today.
        const h = await ledgerHotel(ctx, ['D1', 'D2']);
        const timeZone = zoneAtLocalHour(12);
        await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone } });
        const admin = await member(ctx, h.hotel.id, 'admin');
        // A manager, a second manager and a clerk; top-ups, refunds and corrections need a manager.
        const clerks = [h.owner, admin.ctx, h.staff];
        const manager = (i: number) => clerks[i % 2]!;
        for (const c of clerks) c.actor.timeZone = timeZone;
        const today = localDate(new Date(), timeZone);
        await rechargeCustomer(h.owner, { customerId: h.customer.id, amount: 10_000_000, method: 'cash' });
        const stays = [];
        for (const room of h.rooms) {
          stays.push(
            await checkIn(h.owner, {
              roomId: room.id,
              checkInAt: hours(-1),
              expectedCheckOutAt: hours(20),
              guests: [{ name: 'Day', mobile: uniqueMobile() }],
              idempotencyKey: randomUUID(),
              acknowledge: ['room_dirty', 'guest_in_other_room'],
            }),
          );
        }
        const open = new Map<number, number>();
        const shiftIds: number[] = [];
        const taken: number[] = [];
        for (const [i, o] of ops.entries()) {
          const by = clerks[o.clerk]!;
          if (o.t === 'open') {
            if (open.has(o.clerk)) continue;
            const shift = await openShift(by, { openingFloat: o.float });
            open.set(o.clerk, shift.id);
            shiftIds.push(shift.id);
          } else if (o.t === 'close') {
            const id = open.get(o.clerk);
            if (id === undefined) continue;
            const shift = await getShift(by, { shiftId: id });
            // Cash counted is never below zero (the close refuses it); another way may count short.
            const counted = Object.fromEntries(
              shift.methods
                .filter((l) => l.method !== 'balance')
                .map((l) => [l.method, l.method === 'cash' ? Math.max(0, l.expected + o.off) : l.expected + o.off]),
            );
            await closeShift(by, { shiftId: id, counted, note: 'Counted at the close' });
            open.delete(o.clerk);
          } else if (o.t === 'payment' || o.t === 'deposit') {
            const r = await (o.t === 'payment' ? recordPayment : recordDeposit)(by, {
              stayId: stays[i % stays.length]!.id,
              amount: o.amount,
              method: o.method,
              customerId: h.customer.id,
            });
            taken.push(r.entry.id);
          } else if (o.t === 'recharge') {
            await rechargeCustomer(manager(o.clerk), { customerId: h.customer.id, amount: o.amount, method: o.method });
          } else if (o.t === 'refund' || o.t === 'correct') {
            if (!taken.length) continue;
            const entryId = taken[o.pick % taken.length]!;
            // A rule may refuse it (refunded already, corrected already): nothing is written then.
            const m = manager(o.clerk);
            await (o.t === 'refund' ? refundEntry(m, { entryId, amount: 1, reason: 'Property' }) : correctEntry(m, { entryId, reason: 'Property' })).catch(
              () => undefined,
            );
          }
        }

        // The shifts' nets plus what no shift took are the day's, and the day's are the ledger's.
        const shiftsNet: Net = {};
        for (const id of shiftIds) addNet(shiftsNet, (await getShift(h.owner, { shiftId: id })).methods);
        const outside = await ctx.deps.prisma.orderEntry.groupBy({
          by: ['method'],
          where: { hotelId: h.hotel.id, shiftId: null, method: { not: null } },
          _sum: { amount: true },
        });
        addNet(
          shiftsNet,
          outside.map((g) => ({ method: g.method!, net: g._sum.amount ?? 0 })),
        );
        const report = await dayReport(h.owner, { date: today });
        const dayStart = new Date(Date.now() - 36 * 3_600_000);
        const truth = await ledger(h.hotel.id, dayStart, new Date(Date.now() + 60_000));
        expect(nonZero(shiftsNet)).toEqual(truth.net);
        expect(linesNet(report.methods)).toEqual(truth.net);
        expect([report.received, report.refunded]).toEqual([truth.received, truth.refunded]);

        // Two days back, over: closed, frozen, the same; a payment made now is today's.
        await ctx.deps.prisma.$transaction(async (tx) => {
          await tx.$executeRaw`SET LOCAL session_replication_role = replica`;
          await tx.$executeRaw`UPDATE "OrderEntry" SET "createdAt" = "createdAt" - interval '2 days' WHERE "hotelId" = ${h.hotel.id}`;
          // The journal's business dates with them: the day's money is its business date's.
          await tx.$executeRaw`UPDATE "JournalEntry" SET "postedAt" = "postedAt" - interval '2 days', "businessDate" = to_char("businessDate"::date - 2, 'YYYY-MM-DD') WHERE "hotelId" = ${h.hotel.id}`;
          await tx.$executeRaw`UPDATE "CashierShift" SET "openedAt" = "openedAt" - interval '2 days', "closedAt" = "closedAt" - interval '2 days' WHERE "hotelId" = ${h.hotel.id}`;
        });
        const day = addDays(today, -2);
        const before = await dayReport(h.owner, { date: day });
        const closed = await closeDay(h.owner, { date: day });
        expect(closed.closed).toBe(true);
        for (const r of [before, closed]) {
          expect(linesNet(r.methods)).toEqual(truth.net);
          expect([r.received, r.refunded]).toEqual([truth.received, truth.refunded]);
        }
        await recordPayment(h.staff, { stayId: stays[0]!.id, amount: 777, method: 'cash' });
        const after = await dayReport(h.owner, { date: day });
        expect(linesNet(after.methods)).toEqual(truth.net);
        expect(after.received).toBe(truth.received);
        expect((await dayReport(h.owner, { date: today })).received).toBe(777);
      }),
      { numRuns: 12 },
    );
  });
});
