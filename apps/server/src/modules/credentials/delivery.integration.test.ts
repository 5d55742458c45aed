import { randomUUID } from 'node:crypto';
import { startLockSim, type LockSim } from '@console/lock-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from '../../jobs/workers';
import { actorContext, createTestContext, testLockIdBase, type TestContext } from '../../test/harness';
import { pairSimLock, simControl } from '../../test/lock-factories';
import { createHotelWithStaff, createRooms, uniqueMobile } from '../../test/factories';
import { checkIn } from '../stays/check-in';
import { checkOut } from '../stays/check-out';
import { renewStay } from '../stays/renewal';
import { afterCredentialChange, deliveryJobId } from './delivery';
import { createPassword, limitStayPasswords, retryPassword } from './password.service';

/**
 * The delivery engine end to end: the real TTLock adapter over HTTP against apps/lock-sim, the
 * real BullMQ workers on the run's Redis, the real database.
 */
let sim: LockSim;
let ctx: TestContext;
let workers: ReturnType<typeof startWorkers>;

const control = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => simControl<T>(sim, method, path, body);

/** A simulated lock with its gateway, paired with a new room of a new hotel. */
async function pairedRoom() {
  const h = await createHotelWithStaff(ctx.deps);
  const { gateway } = await control<{ gateway: { gatewayId: number } }>('POST', '/gateways', {});
  const { lock } = await control<{ lock: { lockId: number } }>('POST', '/locks', { gatewayId: gateway.gatewayId });
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, [`D${lock.lockId}`]);
  await pairSimLock(ctx.deps, h.hotel.id, rooms[0]!.id, lock.lockId);
  const room = await ctx.deps.prisma.room.findUniqueOrThrow({ where: { id: rooms[0]!.id } });
  const staff = await actorContext(ctx.deps, h.staffToken);
  return { ...h, room, lockId: String(lock.lockId), gatewayId: String(gateway.gatewayId), staff };
}

async function waitForState(id: number, states: string[], ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const row = await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id } });
    if (states.includes(row.deliveryState)) return row;
    if (Date.now() > until) throw new Error(`password ${id} stayed ${row.deliveryState} (${row.lastError ?? 'no error'}), expected ${states.join(' or ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const use = (lockId: string, passcode: string) => control<{ opened: boolean; outcome: string }>('POST', `/locks/${lockId}/use`, { passcode });

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

describe('password delivery', () => {
  it('puts a custom password on the lock, where it opens the door, and takes it off at check-out, after which the lock refuses it', async () => {
    const d = await pairedRoom();
    const stay = await checkIn(d.staff, {
      roomId: d.room.id,
      checkInAt: new Date(Date.now() - 60_000),
      expectedCheckOutAt: new Date(Date.now() + 26 * 3_600_000),
      guests: [{ name: 'Lin Wei', mobile: uniqueMobile() }],
      idempotencyKey: randomUUID(),
    });
    const created = await createPassword(d.staff, { roomId: d.room.id, stayId: stay.id, kind: 'custom', code: '583916' });
    expect(created).toMatchObject({ deliveryState: 'pending', holderName: 'Lin Wei', code: '583916' });

    const onLock = await waitForState(created.id, ['on_lock', 'failed']);
    expect(onLock).toMatchObject({ deliveryState: 'on_lock', lastError: null });
    expect(onLock.providerRef).toBeTruthy();
    expect(await use(d.lockId, '583916')).toMatchObject({ opened: true });

    await checkOut(d.staff, { stayId: stay.id });
    const removed = await waitForState(created.id, ['removed', 'remove_failed']);
    expect(removed).toMatchObject({ deliveryState: 'removed', revokeReason: 'check_out' });
    expect(await use(d.lockId, '583916')).toMatchObject({ opened: false });
  });

  it('gets a generated password from the lock cloud, with its code, valid for whole hours', async () => {
    const d = await pairedRoom();
    const created = await createPassword(d.staff, { roomId: d.room.id, kind: 'air', holderName: 'Cleaner', validUntil: new Date(Date.now() + 5 * 3_600_000) });
    expect(created.code).toBeNull();
    const row = await waitForState(created.id, ['on_lock', 'failed']);
    expect(row.deliveryState).toBe('on_lock');
    expect(row.code).toMatch(/^\d{6,9}$/);
    expect(row.validFrom.getTime() % 3_600_000).toBe(0);
    expect(row.validUntil!.getTime() % 3_600_000).toBe(0);
  });

  it('retries an offline lock, fails with the reason when it stays offline, and delivers on a retry from the console once it is back', async () => {
    const d = await pairedRoom();
    await control('PATCH', `/locks/${d.lockId}`, { online: false });
    const created = await createPassword(d.staff, { roomId: d.room.id, kind: 'custom', code: '730194', holderName: 'Night porter' });
    const failed = await waitForState(created.id, ['failed', 'on_lock']);
    expect(failed).toMatchObject({ deliveryState: 'failed', lastError: 'lock_offline' });
    expect(failed.attempts).toBe(3);

    await control('PATCH', `/locks/${d.lockId}`, { online: true });
    const retried = await retryPassword(d.staff, { id: created.id });
    expect(retried.deliveryState).toBe('pending');
    expect(await waitForState(created.id, ['on_lock', 'failed'])).toMatchObject({ deliveryState: 'on_lock', lastError: null });
    expect(await use(d.lockId, '730194')).toMatchObject({ opened: true });
  });

  it('fails a password the lock finds too simple at once, with the reason, without retrying', async () => {
    const d = await pairedRoom();
    // The console's code policy refuses such a code before it is written (code-policy.ts); a row the
    // lock refuses all the same (a rule of the cloud the policy does not know) fails the same way.
    const created = await ctx.deps.prisma.lockPassword.create({
      data: { hotelId: d.hotel.id, roomId: d.room.id, kind: 'custom', code: '123456', holderName: 'Guest', validFrom: new Date() },
    });
    await afterCredentialChange(ctx.deps, d.hotel.id, { roomId: d.room.id });
    const row = await waitForState(created.id, ['failed', 'on_lock']);
    expect(row).toMatchObject({ deliveryState: 'failed', lastError: 'code_too_simple' });
    expect(row.attempts).toBe(1);
    const calls = await control<{ calls: { path: string; errcode: number }[] }>('GET', '/calls');
    expect(calls.calls.filter((c) => c.path.endsWith('keyboardPwd/add') && c.errcode === -2032)).toHaveLength(1);
  });

  it("records a delivery's end in the transaction that saves it: no event when that transaction fails after the state was written, one when it commits", async () => {
    const d = await pairedRoom();
    const fn = `test_refuse_on_lock_${d.hotel.id}`;
    // The outbox refuses this hotel's `credential.onLock` rows: the transaction that saves the state
    // fails after the state's write, at its event's.
    await ctx.deps.prisma.$executeRawUnsafe(
      `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
         IF NEW."hotelId" = ${d.hotel.id} AND NEW."kind" = 'credential.onLock' THEN RAISE EXCEPTION 'refused by the test'; END IF;
         RETURN NEW; END $$`,
    );
    await ctx.deps.prisma.$executeRawUnsafe(`CREATE TRIGGER ${fn} BEFORE INSERT ON "DomainEvent" FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
    const events = (id: number) =>
      ctx.deps.prisma.domainEvent.findMany({
        where: { hotelId: d.hotel.id, kind: { startsWith: 'credential.' }, ids: { path: ['credentialId'], equals: id } },
      });
    let created: Awaited<ReturnType<typeof createPassword>>;
    try {
      created = await createPassword(d.staff, { roomId: d.room.id, kind: 'custom', code: '815263', holderName: 'Night porter' });
      // The job's attempts end (the job is removed once it failed for good): the code reached the lock each time.
      const { version } = await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: created.id } });
      const jobId = deliveryJobId('password', created.id, version);
      const until = Date.now() + 30_000;
      while (await ctx.deps.queues.credential.getJob(jobId)) {
        if (Date.now() > until) throw new Error('the delivery job did not end');
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(await use(d.lockId, '815263')).toMatchObject({ opened: true });
      const row = await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: created.id } });
      const onLock = (await events(created.id)).filter((e) => e.kind === 'credential.onLock');
      // The event exists if and only if the state was committed: here neither.
      expect({ state: row.deliveryState, events: onLock.length }).toEqual({ state: 'pending', events: 0 });
    } finally {
      await ctx.deps.prisma.$executeRawUnsafe(`DROP TRIGGER IF EXISTS ${fn} ON "DomainEvent"`);
      await ctx.deps.prisma.$executeRawUnsafe(`DROP FUNCTION IF EXISTS ${fn}()`);
    }

    // The outbox takes it again: the next attempt (the sweep's) saves the state and its one event together.
    await afterCredentialChange(ctx.deps, d.hotel.id, { roomId: d.room.id });
    expect(await waitForState(created.id, ['on_lock', 'failed'])).toMatchObject({ deliveryState: 'on_lock' });
    expect((await events(created.id)).map((e) => e.kind).filter((k) => k !== 'credential.changed')).toEqual(['credential.onLock']);
  });

  it('writes to one lock one at a time: ten passwords at once all reach the lock, none answered "gateway busy"', async () => {
    const d = await pairedRoom();
    const codes = Array.from({ length: 10 }, (_, i) => String(604_913 + i * 7_919).padStart(6, '0'));
    const created = await Promise.all(codes.map((code) => createPassword(d.staff, { roomId: d.room.id, kind: 'custom', code, holderName: `Staff ${code}` })));
    const rows = await Promise.all(created.map((p) => waitForState(p.id, ['on_lock', 'failed'], 40_000)));
    expect(rows.map((r) => r.deliveryState)).toEqual(codes.map(() => 'on_lock'));
    expect(rows.every((r) => r.lastError === null)).toBe(true);
    const state = await control<{ lock: { passcodes: unknown[] } }>('GET', `/locks/${d.lockId}`);
    expect(state.lock.passcodes).toHaveLength(10);
  });

  it('changes a password already on the lock in place when its validity shortens, puts it there again when the lock lost it, and takes it off when its new end has passed', async () => {
    const d = await pairedRoom();
    const passcodes = async () =>
      (await control<{ lock: { passcodes: { keyboardPwdId: number; keyboardPwd: string; endDate: number }[] } }>('GET', `/locks/${d.lockId}`)).lock.passcodes;
    const stay = await checkIn(d.staff, {
      roomId: d.room.id,
      checkInAt: new Date(Date.now() - 60_000),
      expectedCheckOutAt: new Date(Date.now() + 26 * 3_600_000),
      guests: [{ name: 'Limit Guest', mobile: uniqueMobile() }],
      idempotencyKey: randomUUID(),
    });
    const created = await createPassword(d.staff, { roomId: d.room.id, stayId: stay.id, kind: 'custom', code: '583916' });
    const first = await waitForState(created.id, ['on_lock', 'failed']);
    expect(first.deliveryState).toBe('on_lock');

    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    const end = new Date(hour + 3 * 3_600_000);
    expect(await limitStayPasswords(d.staff, { stayId: stay.id, validUntil: end })).toMatchObject({ limited: 1, revoked: 0 });
    const changed = await waitForState(created.id, ['on_lock', 'failed']);
    // The same passcode on the lock (same id), with the new end: changed, not pushed again.
    expect(changed).toMatchObject({ deliveryState: 'on_lock', version: first.version + 1, providerRef: first.providerRef, validUntil: end });
    expect(await passcodes()).toEqual([expect.objectContaining({ keyboardPwdId: Number(first.providerRef), keyboardPwd: '583916', endDate: end.getTime() })]);

    // Someone removed it at the lock: the next change finds it gone and puts it there again.
    await control('POST', `/locks/${d.lockId}/drift`, { action: 'remove', kind: 'passcode', id: Number(first.providerRef) });
    const earlier = new Date(hour + 2 * 3_600_000);
    await limitStayPasswords(d.staff, { stayId: stay.id, validUntil: earlier });
    const again = await waitForState(created.id, ['on_lock', 'failed']);
    expect(again).toMatchObject({ deliveryState: 'on_lock', version: first.version + 2, lastError: null });
    expect(again.providerRef).not.toBe(first.providerRef);
    expect(await passcodes()).toEqual([
      expect.objectContaining({ keyboardPwdId: Number(again.providerRef), keyboardPwd: '583916', endDate: earlier.getTime() }),
    ]);
    expect(await use(d.lockId, '583916')).toMatchObject({ opened: true });

    // A new validity that has already ended by the time the job runs: the lock's copy comes off.
    await ctx.deps.prisma.lockPassword.update({
      where: { id: created.id },
      data: { validFrom: new Date(Date.now() - 2 * 3_600_000), validUntil: new Date(Date.now() - 60_000), deliveryState: 'pending', version: { increment: 1 } },
    });
    await afterCredentialChange(ctx.deps, d.hotel.id, { roomId: d.room.id });
    expect(await waitForState(created.id, ['removed', 'remove_failed'])).toMatchObject({ deliveryState: 'removed', revokeReason: 'expired' });
    expect(await passcodes()).toEqual([]);
  });

  it("keeps a stay's password working after a renewal: its end on the lock moves to the new check-out, in place; one with its own earlier end is left alone", async () => {
    const d = await pairedRoom();
    const passcodes = async () =>
      (await control<{ lock: { passcodes: { keyboardPwdId: number; keyboardPwd: string; endDate: number }[] } }>('GET', `/locks/${d.lockId}`)).lock.passcodes;
    const checkOutAt = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 26 * 3_600_000);
    const stay = await checkIn(d.staff, {
      roomId: d.room.id,
      checkInAt: new Date(Date.now() - 60_000),
      expectedCheckOutAt: checkOutAt,
      guests: [{ name: 'Renew Guest', mobile: uniqueMobile() }],
      idempotencyKey: randomUUID(),
    });
    const whole = await createPassword(d.staff, { roomId: d.room.id, stayId: stay.id, kind: 'custom', code: '617283' });
    const short = await createPassword(d.staff, {
      roomId: d.room.id,
      stayId: stay.id,
      kind: 'custom',
      code: '728394',
      validUntil: new Date(checkOutAt.getTime() - 3_600_000),
    });
    const before = await waitForState(whole.id, ['on_lock', 'failed']);
    const shortBefore = await waitForState(short.id, ['on_lock', 'failed']);
    expect([before.deliveryState, shortBefore.deliveryState]).toEqual(['on_lock', 'on_lock']);

    const newEnd = new Date(checkOutAt.getTime() + 24 * 3_600_000);
    await renewStay(d.staff, { stayId: stay.id, expectedCheckOutAt: newEnd, priceMode: 'fixed', fixedPrice: 10_000 });
    const after = await waitForState(whole.id, ['on_lock', 'failed']);
    expect(after).toMatchObject({ deliveryState: 'on_lock', version: before.version + 1, providerRef: before.providerRef, validUntil: newEnd });
    expect(await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: short.id } })).toMatchObject({
      version: shortBefore.version,
      validUntil: shortBefore.validUntil,
    });
    const onLock = Object.fromEntries((await passcodes()).map((p) => [p.keyboardPwd, p.endDate]));
    expect(onLock).toEqual({ '617283': newEnd.getTime(), '728394': shortBefore.validUntil!.getTime() });
  });
});
