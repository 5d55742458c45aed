/**
 * Changing a stay's dates or room (issue 28 §1, modules/stays/reschedule.ts): a reservation moved
 * to other dates is priced again; a room taken is refused naming the booking in the way; a stay
 * shortened gets its room charge corrected today and a closed day keeps its figures; the guest's
 * code on the simulated lock runs over the new dates (and moves to the new room's lock); another
 * hotel's or another member's rooms are "not found"; the same change twice at once is made once;
 * nonsense dates are refused. Real PostgreSQL, Redis, workers and apps/lock-sim.
 */
import { randomUUID } from 'node:crypto';
import { addDays, localDate, zonedToInstant } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor, AuthedContext } from '../../context';
import { actorContext } from '../../test/harness';
import { pairSimLock } from '../../test/lock-factories';
import { createHotelWithStaff, createRooms, insertStay, uniqueMobile, zoneAtLocalHour } from '../../test/factories';
import { createPassword } from '../credentials/password.service';
import { member } from '../../test/ledger-kit';
import { dayReport } from '../reports/day-report';
import { closeDay } from '../reports/day-close';
import { checkIn } from './check-in';
import { createReservation } from './reservation';
import { previewReschedule, rescheduleStay } from './reschedule';
import { startSimDesk, stopSimDesk, type SimDesk } from '../../test/sim-desk';

let { sim, client, ctx, workers, api } = {} as SimDesk;
beforeAll(async () => void ({ sim, client, ctx, workers, api } = await startSimDesk()));
afterAll(() => stopSimDesk({ sim, ctx, workers }));

type Staff = AuthedContext & { actor: Actor };

/** A hotel where it is noon now, with `count` rooms at 200.00 a night; the first `locks` paired with simulated locks. */
async function desk(count = 3, locks = 0) {
  const h = await createHotelWithStaff(ctx.deps);
  const timeZone = zoneAtLocalHour(12);
  await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone } });
  const { rooms } = await createRooms(
    ctx.deps,
    h.hotel.id,
    Array.from({ length: count }, (_, i) => `M${randomUUID().slice(0, 5)}-${i}`),
    { usualPrice: 20_000 },
  );
  const out: { id: number; name: string; lockId: string | null }[] = [];
  for (const [i, room] of rooms.entries()) {
    let lockId: string | null = null;
    if (i < locks) {
      const created = await client.lockWithGateway({});
      await pairSimLock(ctx.deps, h.hotel.id, room.id, created.lockId);
      lockId = String(created.lockId);
    }
    out.push({ id: room.id, name: room.name, lockId });
  }
  const today = localDate(new Date(), timeZone);
  const at = (days: number, time: string) => zonedToInstant(`${addDays(today, days)}T${time}`, timeZone)!;
  return {
    ...h,
    timeZone,
    today,
    at,
    rooms: out,
    staff: await actorContext(ctx.deps, h.staffToken),
    owner: await actorContext(ctx.deps, h.ownerToken),
  };
}

const reserve = (by: Staff, roomId: number, from: Date, to: Date, name = 'Ana Lima') =>
  createReservation(by, {
    roomId,
    checkInAt: from,
    expectedCheckOutAt: to,
    guests: [{ name, mobile: uniqueMobile() }],
    idempotencyKey: randomUUID(),
  });

async function waitFor<T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > until) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

type SimPasscode = { keyboardPwd: string; startDate: number; endDate: number };
const passcodesOn = async (lockId: string) => (await client.control<{ lock: { passcodes: SimPasscode[] } }>('GET', `/locks/${lockId}`)).lock.passcodes;
const settledPassword = (id: number) =>
  waitFor(
    `password ${id}`,
    () => ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id } }),
    (p) => !['pending', 'removing'].includes(p.deliveryState),
  );

const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (error) {
    const e = error as { code?: string; options?: { messageKey?: string } };
    return { code: e.code, key: e.options?.messageKey };
  }
  throw new Error('not refused');
};

describe('a reservation moved to other dates', () => {
  it("keeps its booked rate (nights added at today's rates) unless the clerk prices it again, as the preview said, with its no-show time and an event", async () => {
    const d = await desk(1);
    const [a] = d.rooms as [(typeof d.rooms)[0]];
    const r = await reserve(d.staff, a.id, d.at(2, '14:00'), d.at(4, '12:00'));
    expect(r.priceAmount).toBe(40_000);
    // One of the new nights costs more on that date.
    await ctx.deps.prisma.roomDatePrice.create({
      data: { hotelId: d.hotel.id, roomId: a.id, date: new Date(`${addDays(d.today, 6)}T00:00:00Z`), price: 55_000 },
    });
    const change = { stayId: r.id, checkInAt: d.at(5, '14:00'), expectedCheckOutAt: d.at(8, '12:00') };
    // Kept: the two booked nights at their booked 20,000 each, the third (added) at today's rate.
    expect(await previewReschedule(d.staff, change)).toMatchObject({
      kind: 'move',
      before: { nights: 2, price: 40_000, roomId: a.id },
      after: { nights: 3, price: 20_000 + 20_000 + 20_000, roomId: a.id },
      prices: { kept: 60_000, quoted: 95_000 },
      priceDifference: 20_000,
      roomCharge: null,
    });
    // Priced again: the three new nights at today's rates.
    const requote = { ...change, pricing: 'requote' as const };
    expect(await previewReschedule(d.staff, requote)).toMatchObject({ after: { price: 20_000 + 55_000 + 20_000 }, priceDifference: 55_000 });
    const moved = await rescheduleStay(d.staff, requote);
    expect(moved).toMatchObject({ id: r.id, kind: 'move', priceAmount: 95_000, priceDifference: 55_000, checkInAt: change.checkInAt.toISOString() });
    const row = await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: r.id } });
    expect(row.noShowAt!.getTime()).toBeGreaterThan(change.checkInAt.getTime());
    expect(await ctx.deps.prisma.domainEvent.count({ where: { hotelId: d.hotel.id, kind: 'stay.rescheduled' } })).toBe(1);
    const audit = await ctx.deps.prisma.auditLog.findMany({ where: { hotelId: d.hotel.id, action: 'stay.reschedule', entityId: String(r.id) } });
    expect(audit.map((a) => (a.after as { pricing: string }).pricing)).toEqual(['requote']);
  });

  it('to an equal room on the same dates, or to other dates of as many nights, costs what was booked (a set price too)', async () => {
    const d = await desk(2);
    const [a, b] = d.rooms as [(typeof d.rooms)[0], (typeof d.rooms)[0]];
    await ctx.deps.prisma.room.update({ where: { id: b.id }, data: { usualPrice: 55_080, weekendPrice: 55_080 } });
    const r = await createReservation(d.staff, {
      roomId: a.id,
      checkInAt: d.at(2, '14:00'),
      expectedCheckOutAt: d.at(4, '12:00'),
      guests: [{ name: 'Ana Lima', mobile: uniqueMobile() }],
      priceMode: 'fixed',
      fixedPrice: 59_800,
      idempotencyKey: randomUUID(),
    });
    expect(r.priceAmount).toBe(59_800);
    const moved = await rescheduleStay(d.staff, { stayId: r.id, roomId: b.id, expectedCheckOutAt: d.at(4, '12:00') });
    expect(moved).toMatchObject({ roomId: b.id, priceAmount: 59_800, priceDifference: 0 });
    const later = await rescheduleStay(d.staff, { stayId: moved.id, checkInAt: d.at(6, '14:00'), expectedCheckOutAt: d.at(8, '12:00') });
    expect(later).toMatchObject({ priceAmount: 59_800, priceDifference: 0 });
    // One night fewer takes its booked amount with it.
    const shorter = await rescheduleStay(d.staff, { stayId: moved.id, checkInAt: d.at(6, '14:00'), expectedCheckOutAt: d.at(7, '12:00') });
    expect(shorter.priceAmount).toBe(29_900);
    const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { hotelId: d.hotel.id, action: 'stay.reschedule', entityId: String(later.id) } });
    expect(audit.after).toMatchObject({ pricing: 'keep', priceAmount: 59_800 });
  });

  it('to another room and dates: a new stay there at the price chosen, the old one kept as moved', async () => {
    const d = await desk(2);
    const [a, b] = d.rooms as [(typeof d.rooms)[0], (typeof d.rooms)[0]];
    await ctx.deps.prisma.room.update({ where: { id: b.id }, data: { usualPrice: 30_000 } });
    const r = await reserve(d.staff, a.id, d.at(2, '14:00'), d.at(4, '12:00'));
    const change = { stayId: r.id, roomId: b.id, checkInAt: d.at(3, '14:00'), expectedCheckOutAt: d.at(4, '12:00') };
    expect(await previewReschedule(d.staff, change)).toMatchObject({ prices: { kept: 20_000, quoted: 30_000 }, after: { price: 20_000 } });
    const moved = await rescheduleStay(d.staff, { ...change, pricing: 'requote' });
    expect(moved).toMatchObject({ roomId: b.id, state: 'reserved', priceAmount: 30_000, movedFromStayId: r.id });
    expect(await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: r.id } })).toMatchObject({ status: 'moved' });
  });
});

describe('a room taken', () => {
  it('is refused naming the booking in the way and when it ends, in the preview and the change', async () => {
    const d = await desk(2);
    const [a, b] = d.rooms as [(typeof d.rooms)[0], (typeof d.rooms)[0]];
    const r = await reserve(d.staff, a.id, d.at(2, '14:00'), d.at(3, '12:00'), 'Ana Lima');
    await reserve(d.staff, a.id, d.at(4, '14:00'), d.at(6, '12:00'), 'Bo Chen');
    await reserve(d.staff, b.id, d.at(2, '14:00'), d.at(5, '12:00'), 'Cy Park');
    const written = (x: Date) => new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: d.timeZone }).format(x);
    const later = { stayId: r.id, checkInAt: d.at(3, '14:00').toISOString(), expectedCheckOutAt: d.at(5, '12:00').toISOString() };
    for (const answer of [
      await api.query('stay.reschedulePreview', later, { token: d.staffToken, lang: 'en' }),
      await api.mutation('stay.reschedule', later, { token: d.staffToken, lang: 'en' }),
    ]) {
      expect(answer.status).toBe(409);
      expect(answer.error?.data.app).toMatchObject({
        reason: 'stay.errors.roomOccupied',
        message: `The room is reserved for Bo Chen from ${written(d.at(4, '14:00'))} to ${written(d.at(6, '12:00'))}.`,
      });
    }
    const toB = await api.mutation(
      'stay.reschedule',
      { stayId: r.id, roomId: b.id, expectedCheckOutAt: d.at(3, '12:00').toISOString() },
      { token: d.staffToken, lang: 'en' },
    );
    expect(toB.error?.data.app).toMatchObject({ reason: 'stay.errors.roomOccupied', message: expect.stringContaining('Cy Park') });
    // Nothing changed.
    expect(await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: r.id } })).toMatchObject({
      roomId: a.id,
      status: 'reserved',
      expectedCheckOutAt: d.at(3, '12:00'),
    });
  });
});

describe('a stay shortened', () => {
  it('posts a correction today for the nights taken off, and the closed day keeps its figures', async () => {
    const d = await desk(1);
    const [a] = d.rooms as [(typeof d.rooms)[0]];
    // In since yesterday for four nights, its room charge posted yesterday, and yesterday closed.
    const stay = await insertStay(ctx.deps, {
      hotelId: d.hotel.id,
      roomId: a.id,
      checkInAt: d.at(-1, '14:00'),
      expectedCheckOutAt: d.at(3, '12:00'),
      guestName: 'Di Ross',
    });
    await ctx.deps.prisma.stay.update({ where: { id: stay.id }, data: { priceAmount: 80_000 } });
    const folio = await ctx.deps.prisma.folio.create({ data: { hotelId: d.hotel.id, stayId: stay.id, currency: 'CNY' } });
    const charge = await ctx.deps.prisma.orderEntry.create({
      data: {
        hotelId: d.hotel.id,
        currency: 'CNY',
        stayId: stay.id,
        roomId: a.id,
        folioId: folio.id,
        kind: 'room_charge',
        amount: -80_000,
        createdByAccountId: d.staff.actor.accountId,
        createdAt: d.at(-1, '14:05'),
      },
    });
    const yesterday = addDays(d.today, -1);
    const closed = await closeDay(d.owner, { date: yesterday });

    const change = { stayId: stay.id, expectedCheckOutAt: d.at(1, '12:00') };
    const preview = await previewReschedule(d.staff, change);
    expect(preview).toMatchObject({
      kind: 'shorten',
      before: { nights: 4, price: 80_000 },
      after: { nights: 2, price: 40_000 },
      priceDifference: -40_000,
      changedNights: [
        { date: addDays(d.today, 1), price: 20_000 },
        { date: addDays(d.today, 2), price: 20_000 },
      ],
      roomCharge: { posted: 80_000, after: 40_000 },
    });
    const done = await rescheduleStay(d.staff, change);
    expect(done).toMatchObject({ kind: 'shorten', priceAmount: 40_000, priceDifference: -40_000, expectedCheckOutAt: change.expectedCheckOutAt.toISOString() });

    const entries = await ctx.deps.prisma.orderEntry.findMany({ where: { folioId: folio.id }, orderBy: { id: 'asc' } });
    // The charge of yesterday stands as it was; it is reversed by a correction and charged again at the new price, today.
    expect(entries[0]).toMatchObject({ id: charge.id, kind: 'room_charge', amount: -80_000, createdAt: d.at(-1, '14:05') });
    const later = entries.slice(1);
    expect(later.map((e) => [e.kind, e.amount])).toEqual([
      ['correction', 80_000],
      ['room_charge', -40_000],
    ]);
    for (const e of later) expect(localDate(e.createdAt, d.timeZone)).toBe(d.today);
    expect(entries.reduce((sum, e) => sum + e.amount, 0)).toBe(-40_000);
    // Yesterday's report is the frozen one, unchanged.
    expect(await dayReport(d.owner, { date: yesterday })).toEqual(closed);
  });

  it('is refused to a check-out already past, and an extension costs the renewal price of the nights it adds', async () => {
    const d = await desk(1);
    const [a] = d.rooms as [(typeof d.rooms)[0]];
    const stay = await checkIn(d.staff, {
      roomId: a.id,
      checkInAt: new Date(Date.now() - 60_000),
      expectedCheckOutAt: d.at(2, '12:00'),
      guests: [{ name: 'Ed Vo', mobile: uniqueMobile() }],
      idempotencyKey: randomUUID(),
    });
    expect(await refusal(rescheduleStay(d.staff, { stayId: stay.id, expectedCheckOutAt: new Date(Date.now() - 30_000) }))).toMatchObject({
      code: 'VALIDATION',
      key: 'stay.errors.shortenInPast',
    });
    expect(await refusal(rescheduleStay(d.staff, { stayId: stay.id, checkInAt: d.at(1, '14:00'), expectedCheckOutAt: d.at(3, '12:00') }))).toMatchObject({
      code: 'CONFLICT',
      key: 'stay.errors.rescheduleBegun',
    });
    const longer = await rescheduleStay(d.staff, { stayId: stay.id, expectedCheckOutAt: d.at(3, '12:00') });
    expect(longer).toMatchObject({ kind: 'extend', priceAmount: stay.priceAmount + 20_000, priceDifference: 20_000 });
  });
});

describe('the guest’s code on the lock follows', () => {
  it('to the new dates, then to the new room’s lock, and ends earlier when the stay is shortened', async () => {
    const d = await desk(2, 2);
    const [a, b] = d.rooms as [(typeof d.rooms)[0], (typeof d.rooms)[0]];
    const r = await reserve(d.staff, a.id, d.at(2, '14:00'), d.at(4, '12:00'));
    const code = await createPassword(d.staff, { roomId: a.id, stayId: r.id, kind: 'custom', code: '730215' });
    expect(await settledPassword(code.id)).toMatchObject({ deliveryState: 'on_lock' });
    const onA = () => passcodesOn(a.lockId!);
    expect((await onA()).find((p) => p.keyboardPwd === '730215')).toMatchObject({ startDate: d.at(2, '14:00').getTime(), endDate: d.at(4, '12:00').getTime() });

    await rescheduleStay(d.staff, { stayId: r.id, checkInAt: d.at(6, '14:00'), expectedCheckOutAt: d.at(9, '12:00') });
    await waitFor('the code on lock A at the new dates', onA, (ps) =>
      ps.some((p) => p.keyboardPwd === '730215' && p.startDate === d.at(6, '14:00').getTime() && p.endDate === d.at(9, '12:00').getTime()),
    );

    const moved = await rescheduleStay(d.staff, { stayId: r.id, roomId: b.id, checkInAt: d.at(7, '14:00'), expectedCheckOutAt: d.at(9, '12:00') });
    expect(moved.credentialMoves).toEqual([expect.objectContaining({ kind: 'password', outcome: 'same_code', code: '730215' })]);
    await waitFor(
      'the code on lock B at the new dates',
      () => passcodesOn(b.lockId!),
      (ps) => ps.some((p) => p.keyboardPwd === '730215' && p.startDate === d.at(7, '14:00').getTime() && p.endDate === d.at(9, '12:00').getTime()),
    );
    await waitFor('the code gone from lock A', onA, (ps) => !ps.some((p) => p.keyboardPwd === '730215'));
  });

  it('of a guest in house ends at the new check-out when the stay is shortened', async () => {
    const d = await desk(1, 1);
    const [a] = d.rooms as [(typeof d.rooms)[0]];
    const stay = await checkIn(d.staff, {
      roomId: a.id,
      checkInAt: new Date(Date.now() - 60_000),
      expectedCheckOutAt: d.at(4, '12:00'),
      guests: [{ name: 'Fay Ng', mobile: uniqueMobile() }],
      idempotencyKey: randomUUID(),
    });
    const code = await createPassword(d.staff, { roomId: a.id, stayId: stay.id, kind: 'custom', code: '418207' });
    expect(await settledPassword(code.id)).toMatchObject({ deliveryState: 'on_lock' });
    const done = await rescheduleStay(d.staff, { stayId: stay.id, expectedCheckOutAt: d.at(2, '12:00') });
    expect(done.changedCredentials).toBe(1);
    await waitFor(
      'the code ending at the new check-out',
      () => passcodesOn(a.lockId!),
      (ps) => ps.some((p) => p.keyboardPwd === '418207' && p.endDate === d.at(2, '12:00').getTime()),
    );
  });
});

describe('whose stays and rooms', () => {
  it("another hotel's stay or room, and a room the member does not manage, are not found", async () => {
    const d = await desk(2);
    const other = await desk(1);
    const [a, b] = d.rooms as [(typeof d.rooms)[0], (typeof d.rooms)[0]];
    const r = await reserve(d.staff, a.id, d.at(2, '14:00'), d.at(3, '12:00'));
    const theirs = await reserve(other.staff, other.rooms[0]!.id, other.at(2, '14:00'), other.at(3, '12:00'));
    const change = { checkInAt: d.at(5, '14:00').toISOString(), expectedCheckOutAt: d.at(6, '12:00').toISOString() };
    for (const path of ['stay.reschedule', 'stay.reschedulePreview'] as const) {
      const call = (input: Record<string, unknown>) =>
        path === 'stay.reschedule' ? api.mutation(path, input as never, { token: d.staffToken }) : api.query(path, input as never, { token: d.staffToken });
      expect((await call({ stayId: theirs.id, ...change })).error?.data.app).toMatchObject({ code: 'NOT_FOUND', reason: 'stay.errors.notFound' });
      expect((await call({ stayId: r.id, roomId: other.rooms[0]!.id, ...change })).error?.data.app).toMatchObject({
        code: 'NOT_FOUND',
        reason: 'room.errors.notFound',
      });
    }
    // A clerk limited to room A may not move the stay into room B; one limited to B may not move it out of A.
    const onlyA = await member(ctx, d.hotel.id, 'staff', [a.id]);
    const onlyB = await member(ctx, d.hotel.id, 'staff', [b.id]);
    expect(await refusal(rescheduleStay(onlyA.ctx, { stayId: r.id, roomId: b.id, expectedCheckOutAt: d.at(3, '12:00') }))).toMatchObject({
      code: 'NOT_FOUND',
      key: 'room.errors.notFound',
    });
    expect(await refusal(rescheduleStay(onlyB.ctx, { stayId: r.id, roomId: b.id, expectedCheckOutAt: d.at(3, '12:00') }))).toMatchObject({
      code: 'NOT_FOUND',
      key: 'stay.errors.notFound',
    });
    expect(await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: theirs.id } })).toMatchObject({ checkInAt: other.at(2, '14:00'), status: 'reserved' });
    expect(await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: r.id } })).toMatchObject({ roomId: a.id, status: 'reserved' });
  });
});

describe('the same change twice at once', () => {
  it('is made once: one new stay, one audit entry, both answers the same stay', async () => {
    const d = await desk(2);
    const [a, b] = d.rooms as [(typeof d.rooms)[0], (typeof d.rooms)[0]];
    const r = await reserve(d.staff, a.id, d.at(2, '14:00'), d.at(3, '12:00'));
    const change = { stayId: r.id, roomId: b.id, checkInAt: d.at(4, '14:00'), expectedCheckOutAt: d.at(6, '12:00') };
    const [one, two] = await Promise.all([rescheduleStay(d.staff, change), rescheduleStay(d.staff, change)]);
    expect(one.id).toBe(two.id);
    expect([one.kind, two.kind].sort()).toEqual(['move', 'unchanged']);
    expect(await ctx.deps.prisma.stay.count({ where: { movedFromStayId: r.id } })).toBe(1);
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: d.hotel.id, action: 'stay.reschedule' } })).toBe(1);

    const s = await reserve(d.staff, a.id, d.at(10, '14:00'), d.at(11, '12:00'));
    const dates = { stayId: s.id, checkInAt: d.at(12, '14:00'), expectedCheckOutAt: d.at(14, '12:00') };
    const both = await Promise.all([rescheduleStay(d.staff, dates), rescheduleStay(d.staff, dates)]);
    expect(both.map((x) => x.priceAmount)).toEqual([40_000, 40_000]);
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: d.hotel.id, action: 'stay.reschedule', entityId: String(s.id) } })).toBe(1);
  });
});

describe('nonsense dates', () => {
  it('1e308, a check-out before the arrival and a text that is no date are refused, and nothing changes', async () => {
    const d = await desk(1);
    const r = await reserve(d.staff, d.rooms[0]!.id, d.at(2, '14:00'), d.at(3, '12:00'));
    const before = await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: r.id } });
    const send = (input: Record<string, unknown>) => api.mutation('stay.reschedule', { stayId: r.id, ...input } as never, { token: d.staffToken });
    for (const input of [
      { expectedCheckOutAt: 1e308 },
      { expectedCheckOutAt: '1e308' },
      { checkInAt: d.at(5, '14:00').toISOString(), expectedCheckOutAt: d.at(3, '12:00').toISOString() },
      // The arrival kept, the check-out sent before it: negative nights.
      { expectedCheckOutAt: d.at(1, '12:00').toISOString() },
      { expectedCheckOutAt: 'tomorrow\u0000' },
      { stayId: 1e308, expectedCheckOutAt: d.at(4, '12:00').toISOString() },
      { stayId: -1, expectedCheckOutAt: d.at(4, '12:00').toISOString() },
    ]) {
      const answer = await send(input);
      expect(answer.status, JSON.stringify(input)).toBe(400);
      expect(answer.error?.data.app?.code).toBe('VALIDATION');
    }
    expect(await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: r.id } })).toEqual(before);
  });
});
