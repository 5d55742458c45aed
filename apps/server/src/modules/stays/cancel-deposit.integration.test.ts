/**
 * Issue 36 §"Deposits, rates and refunds decided by the clerk": cancelling a reservation that holds
 * money asks what becomes of it, on every face: refunded in the way the clerk names (nothing
 * assumed), or kept as a cancellation fee with the reason; never left silently on the bill. Asked
 * before anything changes; once even when asked twice at once; one hotel's reservation only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness';
import { trialBalanceOf } from '../journal/trial-balance';
import { ledgerHotel, refusal, stayIn } from '../../test/ledger-kit';
import { recordPayment } from '../orders/payments';
import { getFolio } from '../orders/settlement.service';
import { cancelReservation } from './check-out';
import { localDate } from '@console/shared';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

type Hotel = Awaited<ReturnType<typeof ledgerHotel>>;
const status = async (id: number) => (await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id }, select: { status: true } })).status;
const ties = async (h: Hotel) => (await trialBalanceOf(ctx.deps.prisma, h.hotel.id, localDate(new Date(), h.owner.actor.timeZone))).ties;

describe('a reservation cancelled with money on it', () => {
  it('asks what becomes of the deposit, and how a refund goes back, before changing anything', async () => {
    const h = await ledgerHotel(ctx);
    const reserved = await stayIn(h.staff, h.rooms[0].id, { from: 48, to: 72, deposit: 10_000 });
    expect(await refusal(cancelReservation(h.staff, { stayId: reserved.id, reason: 'guest_request' }))).toMatchObject({
      code: 'VALIDATION',
      fields: { deposit: 'validation.depositDecisionInvalid' },
    });
    expect(await refusal(cancelReservation(h.staff, { stayId: reserved.id, reason: 'guest_request', deposit: 'refund' }))).toMatchObject({ code: 'ZOD' });
    expect(await refusal(cancelReservation(h.staff, { stayId: reserved.id, reason: 'guest_request', deposit: 'keep' }))).toMatchObject({ code: 'ZOD' });
    for (const bad of ['Late\u0000', 'Late \ud800']) {
      expect(await refusal(cancelReservation(h.staff, { stayId: reserved.id, reason: 'guest_request', deposit: 'keep', depositReason: bad }))).toMatchObject({
        code: 'ZOD',
      });
    }
    expect(await status(reserved.id)).toBe('reserved');
    expect((await getFolio(h.staff, { stayId: reserved.id })).entries).toHaveLength(1);
  });

  it('refunds it the way the clerk chose, and closes the bill', async () => {
    const h = await ledgerHotel(ctx);
    const reserved = await stayIn(h.staff, h.rooms[0].id, { from: 48, to: 72, deposit: 10_000 });
    await cancelReservation(h.staff, { stayId: reserved.id, reason: 'guest_request', deposit: 'refund', refundMethod: 'wechat' });
    expect(await status(reserved.id)).toBe('ended');
    const folio = await getFolio(h.staff, { stayId: reserved.id });
    expect(folio).toMatchObject({ state: 'settled', balance: 0, depositHeld: 0 });
    expect(folio.entries.map((e) => [e.kind, e.amount, e.method])).toEqual([
      ['deposit', 10_000, 'cash'],
      ['refund', -10_000, 'wechat'],
    ]);
    expect(await ties(h)).toBe(true);
  });

  it('keeps it as a cancellation fee with the reason: revenue, nothing refunded', async () => {
    const h = await ledgerHotel(ctx);
    const reserved = await stayIn(h.staff, h.rooms[1].id, { from: 48, to: 72, deposit: 10_000 });
    await cancelReservation(h.staff, { stayId: reserved.id, reason: 'guest_request', deposit: 'keep', depositReason: 'Cancelled within 24 h' });
    const folio = await getFolio(h.staff, { stayId: reserved.id });
    expect(folio).toMatchObject({ state: 'settled', balance: 0 });
    expect(folio.entries.some((e) => e.kind === 'refund')).toBe(false);
    const tb = await trialBalanceOf(ctx.deps.prisma, h.hotel.id, localDate(new Date(), h.owner.actor.timeZone));
    expect(tb.rows.find((r) => r.account === 'revenue_extras')).toMatchObject({ closing: -10_000 });
    expect(tb.rows.find((r) => r.account === 'deposit')).toMatchObject({ closing: 0 });
    expect(tb.ties).toBe(true);
  });

  it('keeping the deposit, still asks how a payment made besides it goes back, before changing anything', async () => {
    const h = await ledgerHotel(ctx);
    const reserved = await stayIn(h.staff, h.rooms[2].id, { from: 48, to: 72, deposit: 10_000 });
    await recordPayment(h.staff, { stayId: reserved.id, amount: 5_000, method: 'alipay' });
    const keep = { stayId: reserved.id, reason: 'guest_request', deposit: 'keep', depositReason: 'Cancelled within 24 h' } as const;
    expect(await refusal(cancelReservation(h.staff, keep))).toMatchObject({ code: 'VALIDATION', fields: { refundMethod: 'validation.refundMethodRequired' } });
    expect(await status(reserved.id)).toBe('reserved');
    await cancelReservation(h.staff, { ...keep, refundMethod: 'bank_card' });
    const folio = await getFolio(h.staff, { stayId: reserved.id });
    expect(folio).toMatchObject({ state: 'settled', balance: 0 });
    expect(folio.entries.filter((e) => e.kind === 'refund').map((e) => [e.amount, e.method])).toEqual([[-5_000, 'bank_card']]);
    expect(await ties(h)).toBe(true);
  });

  it('asks nothing of a reservation without money, and settles once when cancelled twice at once', async () => {
    const h = await ledgerHotel(ctx);
    const bare = await stayIn(h.staff, h.rooms[0].id, { from: 48, to: 72 });
    await cancelReservation(h.staff, { stayId: bare.id, reason: 'duplicate' });
    expect(await status(bare.id)).toBe('ended');

    const reserved = await stayIn(h.staff, h.rooms[2].id, { from: 48, to: 72, deposit: 10_000 });
    const input = { stayId: reserved.id, reason: 'guest_request' as const, deposit: 'refund' as const, refundMethod: 'cash' as const };
    const answers = await Promise.allSettled([cancelReservation(h.staff, input), cancelReservation(h.staff, input)]);
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    const folio = await getFolio(h.staff, { stayId: reserved.id });
    expect(folio.entries.filter((e) => e.kind === 'refund')).toHaveLength(1);
    expect(await ties(h)).toBe(true);
  });

  it("does not cancel another hotel's reservation", async () => {
    const h = await ledgerHotel(ctx);
    const other = await ledgerHotel(ctx);
    const theirs = await stayIn(other.staff, other.rooms[0].id, { from: 48, to: 72, deposit: 10_000 });
    expect(await refusal(cancelReservation(h.owner, { stayId: theirs.id, reason: 'guest_request', deposit: 'refund', refundMethod: 'cash' }))).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await status(theirs.id)).toBe('reserved');
  });
});
