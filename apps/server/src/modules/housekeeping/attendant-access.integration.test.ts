import { startLockSim, type LockSim } from '@console/lock-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobContext } from '../../context';
import { transaction } from '../../db/transaction';
import { startWorkers } from '../../jobs/workers';
import { actorContext, createTestContext, testLockIdBase, testMeta, type TestContext } from '../../test/harness';
import { createSession } from '../auth/session.service';
import { pairSimLock, simControl } from '../../test/lock-factories';
import { createAccount, createHotelWithStaff, createRooms } from '../../test/factories';
import { refreshLockStatus } from '../locks/lock-status';
import { pollLockRecords } from '../locks/records';
import { listUnlockRecords } from '../unlock-records/unlock-record.service';
import { noteRotaChange, sweepAttendantAccess, syncAttendantAccess } from './attendant-access';
import { enteredAtOfTasks } from './task-entries';
import { assignRooms, myRooms } from './tasks';
import { setShift } from './housekeeping-settings';
import { localDate } from '@console/shared';

/**
 * Keys that follow the rota (docs/housekeeping-keys.md): an attendant's code is on the locks of the
 * rooms of their tasks, valid for their shift's hours, and nowhere else. End to end: the real
 * TTLock adapter against apps/lock-sim (which decides at the door by the code's period), the real
 * BullMQ workers, Redis and database.
 */
let sim: LockSim;
let ctx: TestContext;
let workers: ReturnType<typeof startWorkers>;

const HOUR = 3_600_000;
const DAY = '2026-12-09';

const control = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => simControl<T>(sim, method, path, body);

const use = (lockId: string, passcode: string) => control<{ opened: boolean; outcome: string }>('POST', `/locks/${lockId}/use`, { passcode });
/** The door tried at another moment: the lock's clock moved by `offsetMs`, then back. */
async function useAt(lockId: string, passcode: string, offsetMs: number) {
  await control('PATCH', `/locks/${lockId}`, { clockOffsetMs: offsetMs });
  try {
    return await use(lockId, passcode);
  } finally {
    await control('PATCH', `/locks/${lockId}`, { clockOffsetMs: 0 });
  }
}

/** A hotel with rooms on simulated locks (one gateway), two attendants, and a shift of the first from an hour ago for three hours. */
async function world(roomCount = 3) {
  const h = await createHotelWithStaff(ctx.deps);
  const { gateway } = await control<{ gateway: { gatewayId: number } }>('POST', '/gateways', {});
  const rooms: { id: number; name: string; lockId: string }[] = [];
  const names = Array.from({ length: roomCount }, (_, i) => `H${Date.now() % 100_000}-${i}`);
  const { rooms: created } = await createRooms(ctx.deps, h.hotel.id, names);
  for (const room of created) {
    const { lock } = await control<{ lock: { lockId: number } }>('POST', '/locks', { gatewayId: gateway.gatewayId });
    await pairSimLock(ctx.deps, h.hotel.id, room.id, lock.lockId);
    rooms.push({ id: room.id, name: room.name, lockId: String(lock.lockId) });
  }
  const member = async () => {
    const account = await createAccount(ctx.deps, { hotelId: h.hotel.id, role: 'housekeeping' });
    const m = await ctx.deps.prisma.membership.findFirstOrThrow({ where: { hotelId: h.hotel.id, accountId: account.id } });
    return { membershipId: m.id, name: account.nickname };
  };
  const ann = await member();
  const bea = await member();
  const now = Date.now();
  const shift = (membershipId: number, startsAt = new Date(now - HOUR), endsAt = new Date(now + 3 * HOUR)) =>
    ctx.deps.prisma.attendantShift.create({ data: { hotelId: h.hotel.id, membershipId, day: new Date(`${DAY}T00:00:00Z`), startsAt, endsAt } });
  const task = (roomId: number, assigneeId: number | null) =>
    ctx.deps.prisma.housekeepingTask.create({ data: { hotelId: h.hotel.id, roomId, day: new Date(`${DAY}T00:00:00Z`), kind: 'departure', assigneeId } });
  const job = jobContext(ctx.deps, 'housekeeping.keys', 'test');
  return { ...h, rooms, ann, bea, shift, task, job, staff: await actorContext(ctx.deps, h.staffToken) };
}

type World = Awaited<ReturnType<typeof world>>;

/** A signed-in session of a member (an attendant's phone). */
async function createSessionFor(hotelId: number, membershipId: number) {
  const m = await ctx.deps.prisma.membership.findUniqueOrThrow({ where: { id: membershipId } });
  return createSession(ctx.deps, { accountId: m.accountId, hotelId, kind: 'web', meta: testMeta() });
}

/** The attendant's passwords of the day, once every one of them has reached a final state. */
async function settled(w: World, membershipId: number, ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const rows = await ctx.deps.prisma.lockPassword.findMany({
      where: { hotelId: w.hotel.id, attendantId: membershipId },
      orderBy: { id: 'asc' },
    });
    if (rows.every((r) => !['pending', 'removing'].includes(r.deliveryState))) return rows;
    if (Date.now() > until) throw new Error(`attendant ${membershipId}'s passwords stayed ${rows.map((r) => `${r.id}:${r.deliveryState}`).join(', ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const live = (rows: { deliveryState: string }[]) => rows.filter((r) => r.deliveryState === 'on_lock');

beforeAll(async () => {
  sim = await startLockSim({ latencyMs: [5, 20], lockIdBase: testLockIdBase() });
  ctx = await createTestContext({ sim, env: { LOCK_DELIVERY_ATTEMPTS: '3', LOCK_DELIVERY_BACKOFF_MS: '100' } });
  workers = startWorkers(ctx.deps, { sweep: false });
});

afterAll(async () => {
  await workers?.close();
  await ctx?.close();
  await sim?.close();
});

describe('keys that follow the rota', () => {
  it("opens only the attendant's rooms, only in the shift's hours; each opening is on the room's records in the attendant's name and on the task", async () => {
    const w = await world(3);
    const [a, b, c] = w.rooms as [World['rooms'][number], World['rooms'][number], World['rooms'][number]];
    const shift = await w.shift(w.ann.membershipId);
    const taskA = await w.task(a.id, w.ann.membershipId);
    await w.task(b.id, w.ann.membershipId);
    await w.task(c.id, w.bea.membershipId);

    expect(await syncAttendantAccess(w.job, w.hotel.id, w.ann.membershipId, DAY)).toEqual({ issued: 2, withdrawn: 0, changed: 0 });
    const rows = await settled(w, w.ann.membershipId);
    expect(rows.map((r) => [r.roomId, r.deliveryState, r.kind])).toEqual([
      [a.id, 'on_lock', 'custom'],
      [b.id, 'on_lock', 'custom'],
    ]);
    // One code for the round: the same digits on both locks, valid for the shift's hours (to the minute).
    const code = rows[0]!.code!;
    expect(rows[1]!.code).toBe(code);
    expect(rows[0]!.holderName).toBe(w.ann.name);
    expect(rows[0]!.validFrom.getTime()).toBe(Math.floor(shift.startsAt.getTime() / 60_000) * 60_000);
    expect(rows[0]!.validUntil!.getTime()).toBe(Math.floor(shift.endsAt.getTime() / 60_000) * 60_000);

    expect(await use(a.lockId, code)).toMatchObject({ opened: true });
    expect(await use(b.lockId, code)).toMatchObject({ opened: true });
    // Another attendant's room: the lock does not know the code.
    expect(await use(c.lockId, code)).toMatchObject({ opened: false, outcome: 'unknown' });
    // Before the shift and after it, the lock refuses the same code at the assigned door.
    expect(await useAt(a.lockId, code, -2 * HOUR)).toMatchObject({ opened: false, outcome: 'not_yet_valid' });
    expect(await useAt(a.lockId, code, 3 * HOUR)).toMatchObject({ opened: false, outcome: 'expired' });

    // The openings reach the room's unlock records, in the attendant's name, and the task says when she entered.
    await refreshLockStatus(ctx.deps, { hotelId: w.hotel.id });
    await pollLockRecords(ctx.deps, { hotelId: w.hotel.id, all: true });
    const records = (await listUnlockRecords(w.staff, { roomId: a.id })).items;
    expect(records.filter((r) => r.success)).toEqual([
      expect.objectContaining({ style: 'password', operator: w.ann.name, credential: `password:${rows[0]!.id}` }),
    ]);
    const entered = await enteredAtOfTasks(ctx.deps.prisma, w.hotel.id, [taskA.id]);
    expect(entered.get(taskA.id)?.toISOString()).toBe(records.find((r) => r.success)!.occurredAt);
    // Another hotel asking about this task finds nothing.
    const other = await createHotelWithStaff(ctx.deps);
    expect((await enteredAtOfTasks(ctx.deps.prisma, other.hotel.id, [taskA.id])).size).toBe(0);
  });

  it("a reassigned room's code leaves the old attendant's lock and the new attendant's arrives, after the commit of the reassignment", async () => {
    const w = await world(2);
    const [a, b] = w.rooms as [World['rooms'][number], World['rooms'][number]];
    await w.shift(w.ann.membershipId);
    await w.shift(w.bea.membershipId);
    const taskA = await w.task(a.id, w.ann.membershipId);
    await w.task(b.id, w.ann.membershipId);
    await syncAttendantAccess(w.job, w.hotel.id, w.ann.membershipId, DAY);
    const annCode = (await settled(w, w.ann.membershipId))[0]!.code!;
    expect(await use(a.lockId, annCode)).toMatchObject({ opened: true });

    // The supervisor gives room A to Bea: the change's transaction notes it; the keys follow once it committed.
    await transaction(ctx.deps, async (tx) => {
      await tx.housekeepingTask.update({ where: { id: taskA.id }, data: { assigneeId: w.bea.membershipId } });
      noteRotaChange(tx, w.job, { hotelId: w.hotel.id, day: DAY, membershipIds: [w.ann.membershipId, w.bea.membershipId] });
    });
    const ann = await settled(w, w.ann.membershipId);
    expect(ann.map((r) => [r.roomId, r.deliveryState, r.revokeReason])).toEqual([
      [a.id, 'removed', 'reassigned'],
      [b.id, 'on_lock', null],
    ]);
    const bea = await settled(w, w.bea.membershipId);
    expect(bea.map((r) => [r.roomId, r.deliveryState])).toEqual([[a.id, 'on_lock']]);
    expect(await use(a.lockId, annCode)).toMatchObject({ opened: false });
    expect(await use(b.lockId, annCode)).toMatchObject({ opened: true });
    expect(await use(a.lockId, bea[0]!.code!)).toMatchObject({ opened: true });
    // The keys' change was published for the live feed, naming the room.
    const events = await ctx.deps.prisma.domainEvent.findMany({ where: { hotelId: w.hotel.id, kind: 'credential.changed' }, orderBy: { id: 'asc' } });
    expect(events.at(-1)!.roomIds).toContain(a.id);
  });

  it("a shift's end withdraws its codes (the job queued for that moment), and a moved shift moves the codes' hours", async () => {
    const w = await world(1);
    const [a] = w.rooms as [World['rooms'][number]];
    const shift = await w.shift(w.ann.membershipId);
    await w.task(a.id, w.ann.membershipId);
    await syncAttendantAccess(w.job, w.hotel.id, w.ann.membershipId, DAY);
    const [row] = await settled(w, w.ann.membershipId);
    // The shift is moved an hour later: the same code, its hours changed in place on the lock.
    const later = { startsAt: new Date(shift.startsAt.getTime() + HOUR), endsAt: new Date(shift.endsAt.getTime() + HOUR) };
    await transaction(ctx.deps, async (tx) => {
      await tx.attendantShift.update({ where: { id: shift.id }, data: later });
      noteRotaChange(tx, w.job, { hotelId: w.hotel.id, day: DAY, membershipIds: [w.ann.membershipId] });
    });
    const [moved] = await settled(w, w.ann.membershipId);
    expect(moved).toMatchObject({ id: row!.id, code: row!.code, deliveryState: 'on_lock' });
    expect(moved!.validUntil!.getTime()).toBe(Math.floor(later.endsAt.getTime() / 60_000) * 60_000);
    expect(await useAt(a.lockId, row!.code!, 3 * HOUR + 60_000)).toMatchObject({ opened: true });

    // The job of the shift's end is queued for that moment.
    const endJob = await ctx.deps.queues.rotaKeys.getJob(`rota-${w.hotel.id}-${w.ann.membershipId}-${DAY}-${later.endsAt.getTime()}`);
    expect(endJob).toBeTruthy();
    expect(Math.abs(endJob!.timestamp + endJob!.opts.delay! - later.endsAt.getTime())).toBeLessThan(5_000);
    // The shift ends (its end is brought to now) and its job runs: the code leaves the lock.
    await ctx.deps.prisma.attendantShift.update({
      where: { id: shift.id },
      data: { startsAt: new Date(Date.now() - 2 * HOUR), endsAt: new Date(Date.now() - 1_000) },
    });
    await endJob!.promote();
    const until = Date.now() + 20_000;
    let ended = await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: row!.id } });
    while (ended.deliveryState !== 'removed' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
      ended = await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: row!.id } });
    }
    expect(ended).toMatchObject({ deliveryState: 'removed', revokeReason: 'shift_ended' });
    expect(await use(a.lockId, row!.code!)).toMatchObject({ opened: false, outcome: 'unknown' });
  });

  it("refuses another hotel's membership, and never reaches another hotel's room", async () => {
    const w = await world(1);
    const v = await world(1);
    const [a] = w.rooms as [World['rooms'][number]];
    await w.shift(w.ann.membershipId);
    await v.shift(v.ann.membershipId);
    // A task of hotel W written (wrongly) with hotel V's attendant.
    await w.task(a.id, v.ann.membershipId);
    await expect(syncAttendantAccess(w.job, w.hotel.id, v.ann.membershipId, DAY)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await syncAttendantAccess(v.job, v.hotel.id, v.ann.membershipId, DAY)).toEqual({ issued: 0, withdrawn: 0, changed: 0 });
    expect(await ctx.deps.prisma.lockPassword.count({ where: { roomId: a.id } })).toBe(0);
    await expect(syncAttendantAccess(w.job, w.hotel.id, 0, DAY)).rejects.toMatchObject({ code: 'VALIDATION' });
    await expect(syncAttendantAccess(w.job, w.hotel.id, w.ann.membershipId, '2026-02-30')).rejects.toMatchObject({ code: 'VALIDATION' });
  });

  it('two syncs of one attendant at once issue each code once', async () => {
    const w = await world(2);
    await w.shift(w.ann.membershipId);
    for (const room of w.rooms) await w.task(room.id, w.ann.membershipId);
    const results = await Promise.all([
      syncAttendantAccess(w.job, w.hotel.id, w.ann.membershipId, DAY),
      syncAttendantAccess(w.job, w.hotel.id, w.ann.membershipId, DAY),
    ]);
    expect(results.map((r) => r.issued).sort()).toEqual([0, 2]);
    const rows = await settled(w, w.ann.membershipId);
    expect(live(rows)).toHaveLength(2);
    expect(rows).toHaveLength(2);
  });

  it("follows housekeeping's own services: a shift set and rooms assigned by the supervisor, a room given to another attendant; the attendant's phone says when she entered", async () => {
    const w = await world(2);
    const [a, b] = w.rooms as [World['rooms'][number], World['rooms'][number]];
    const owner = await actorContext(ctx.deps, w.ownerToken);
    const zone = owner.actor.timeZone;
    const from = new Date(Date.now() - HOUR);
    const clock = (d: Date) => new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(d);
    const day = localDate(from, zone);
    const shiftOf = (membershipId: number) => setShift(owner, { membershipId, day, start: clock(from), end: clock(new Date(Date.now() + 2 * HOUR)) });
    const dayDate = new Date(`${day}T00:00:00Z`);
    const taskA = await ctx.deps.prisma.housekeepingTask.create({ data: { hotelId: w.hotel.id, roomId: a.id, day: dayDate, kind: 'departure' } });
    await ctx.deps.prisma.housekeepingTask.create({ data: { hotelId: w.hotel.id, roomId: b.id, day: dayDate, kind: 'stayover' } });

    await shiftOf(w.ann.membershipId);
    await assignRooms(owner, { day, membershipId: w.ann.membershipId, roomIds: [a.id] });
    const [annA] = await settled(w, w.ann.membershipId);
    expect(annA).toMatchObject({ roomId: a.id, deliveryState: 'on_lock' });
    expect(await use(a.lockId, annA!.code!)).toMatchObject({ opened: true });
    expect(await use(b.lockId, annA!.code!)).toMatchObject({ opened: false });

    // Her phone shows when she entered room A.
    await refreshLockStatus(ctx.deps, { hotelId: w.hotel.id });
    await pollLockRecords(ctx.deps, { hotelId: w.hotel.id, all: true });
    const annCtx = await actorContext(ctx.deps, (await createSessionFor(w.hotel.id, w.ann.membershipId)).token);
    const mine = await myRooms(annCtx, { day });
    expect(mine.tasks.find((t) => t.id === taskA.id)?.enteredAt).toEqual(expect.any(String));
    // ... and her code for the round (hers only: room B is nobody's key of hers).
    expect(mine.keys).toEqual([expect.objectContaining({ roomId: a.id, code: annA!.code, deliveryState: 'on_lock' })]);

    // Room A goes to Bea, who has a shift too: Ann's code leaves A's lock, Bea's arrives.
    await shiftOf(w.bea.membershipId);
    await assignRooms(owner, { day, membershipId: w.bea.membershipId, roomIds: [a.id] });
    expect((await settled(w, w.ann.membershipId)).map((r) => [r.roomId, r.deliveryState, r.revokeReason])).toEqual([[a.id, 'removed', 'reassigned']]);
    const [beaA] = await settled(w, w.bea.membershipId);
    expect(beaA).toMatchObject({ roomId: a.id, deliveryState: 'on_lock' });
    expect(await use(a.lockId, annA!.code!)).toMatchObject({ opened: false });
    expect(await use(a.lockId, beaA!.code!)).toMatchObject({ opened: true });
  });

  it("the rota's sweep withdraws the codes of a member removed from the hotel (her shifts gone with her), and issues those of a shift nobody synced", async () => {
    const w = await world(2);
    const [a, b] = w.rooms as [World['rooms'][number], World['rooms'][number]];
    await w.shift(w.ann.membershipId);
    await w.task(a.id, w.ann.membershipId);
    await syncAttendantAccess(w.job, w.hotel.id, w.ann.membershipId, DAY);
    const [annA] = await settled(w, w.ann.membershipId);
    expect(annA).toMatchObject({ deliveryState: 'on_lock' });
    // Bea's shift and room written without a sync (a sync lost after its commit).
    await w.shift(w.bea.membershipId);
    await w.task(b.id, w.bea.membershipId);
    await ctx.deps.prisma.membership.delete({ where: { id: w.ann.membershipId } });

    expect(await sweepAttendantAccess(w.job, new Date(), { hotelId: w.hotel.id })).toBe(2);
    expect((await settled(w, w.ann.membershipId)).map((r) => [r.roomId, r.deliveryState, r.revokeReason])).toEqual([[a.id, 'removed', 'shift_ended']]);
    expect(await use(a.lockId, annA!.code!)).toMatchObject({ opened: false });
    const [beaB] = await settled(w, w.bea.membershipId);
    expect(beaB).toMatchObject({ roomId: b.id, deliveryState: 'on_lock' });
    expect(await use(b.lockId, beaB!.code!)).toMatchObject({ opened: true });
    // Once in line, the sweep changes nothing.
    await sweepAttendantAccess(w.job, new Date(), { hotelId: w.hotel.id });
    expect(await ctx.deps.prisma.lockPassword.count({ where: { hotelId: w.hotel.id } })).toBe(2);
  });
});
