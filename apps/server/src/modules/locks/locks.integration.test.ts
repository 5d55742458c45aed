import { randomUUID } from 'node:crypto';
import { startLockSim, type LockSim } from '@console/lock-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, describeAppError } from '../../errors';
import { lockCallbackPath } from '../../infra/locks';
import { startWorkers } from '../../jobs/workers';
import { actorContext, createTestContext, testLockIdBase, type TestContext } from '../../test/harness';
import { pairSimLock, simControl } from '../../test/lock-factories';
import { createHotelWithStaff, createRooms, uniqueMobile } from '../../test/factories';
import { createPassword, revokePassword } from '../credentials/password.service';
import { reconcileAllLocks } from '../credentials/reconcile';
import { checkIn } from '../stays/check-in';
import { listRecordsByPerson, listUnlockRecords } from '../unlock-records/unlock-record.service';
import { refreshLockStatus } from './lock-status';
import { getRoomLock, readRoomLock, remoteUnlock, removeUnmanaged } from './lock.service';
import { addLockManager, deleteLockManager, listLockManagers } from './manager.service';
import { deleteLockMessages, listLockMessages, markLockMessagesRead, unreadLockMessages } from './message.service';
import { ingestLockRecords, pollLockRecords } from './records';

/**
 * Locks beyond delivery, against apps/lock-sim over HTTP: status, records by callback and by
 * polling, reconciliation of drift, remote unlock, lock messages; and hotel B sees none of A's.
 */
let sim: LockSim;
let ctx: TestContext;
let workers: ReturnType<typeof startWorkers>;
let serverUrl: string;

const control = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => simControl<T>(sim, method, path, body);

async function pairedRoom() {
  const h = await createHotelWithStaff(ctx.deps);
  const { gateway } = await control<{ gateway: { gatewayId: number } }>('POST', '/gateways', {});
  const { lock } = await control<{ lock: { lockId: number } }>('POST', '/locks', { gatewayId: gateway.gatewayId, battery: 80 });
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, [`L${lock.lockId}`]);
  await pairSimLock(ctx.deps, h.hotel.id, rooms[0]!.id, lock.lockId);
  const room = await ctx.deps.prisma.room.findUniqueOrThrow({ where: { id: rooms[0]!.id } });
  const staff = await actorContext(ctx.deps, h.staffToken);
  const owner = await actorContext(ctx.deps, h.ownerToken);
  return { ...h, room, lockId: String(lock.lockId), gatewayId: gateway.gatewayId, staff, owner };
}

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const passwordState = (id: number, states: string[]) =>
  until(`password ${id} in ${states.join('/')}`, async () => {
    const row = await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id } });
    return states.includes(row.deliveryState) ? row : null;
  });

async function stayWithPassword(d: Awaited<ReturnType<typeof pairedRoom>>, code: string, guest = 'Mei Chen') {
  const stay = await checkIn(d.staff, {
    roomId: d.room.id,
    checkInAt: new Date(Date.now() - 60_000),
    expectedCheckOutAt: new Date(Date.now() + 26 * 3_600_000),
    guests: [{ name: guest, mobile: uniqueMobile() }],
    idempotencyKey: randomUUID(),
  });
  const password = await createPassword(d.staff, { roomId: d.room.id, stayId: stay.id, kind: 'custom', code });
  await passwordState(password.id, ['on_lock']);
  return { stay, password };
}

async function appError(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

beforeAll(async () => {
  sim = await startLockSim({ latencyMs: [5, 15], callbackRetryDelaysMs: [100, 300], lockIdBase: testLockIdBase() });
  ctx = await createTestContext({ sim, env: { LOCK_DELIVERY_ATTEMPTS: '3', LOCK_DELIVERY_BACKOFF_MS: '100' } });
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  const address = ctx.app.server.address();
  serverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  workers = startWorkers(ctx.deps, { sweep: false });
});

afterAll(async () => {
  await workers?.close();
  await ctx?.close();
  await sim?.close();
});

describe('lock status', () => {
  it('keeps what the lock reports (online, gateway, battery, last seen) and raises messages when it goes offline or runs low', async () => {
    const d = await pairedRoom();
    // What the import read of the lock (its account's lock list and gateways).
    expect(await getRoomLock(d.staff, { roomId: d.room.id })).toMatchObject({ lockId: d.lockId, online: true, battery: 80, account: { state: 'connected' } });
    await control('PATCH', `/locks/${d.lockId}`, { battery: 79 });
    const fresh = await getRoomLock(d.staff, { roomId: d.room.id, refresh: true });
    expect(fresh).toMatchObject({ lockId: d.lockId, simulated: true, online: true, battery: 79, lowBattery: false, statusError: null });
    expect(fresh.gateway).toMatchObject({ id: String(d.gatewayId), online: true });
    expect(fresh.lastSeenAt).not.toBeNull();

    await control('PATCH', `/gateways/${d.gatewayId}`, { online: false });
    await control('PATCH', `/locks/${d.lockId}`, { battery: 12 });
    await refreshLockStatus(ctx.deps, { hotelId: d.hotel.id });
    expect(await getRoomLock(d.staff, { roomId: d.room.id })).toMatchObject({ online: false, battery: 12, lowBattery: true, gateway: { online: false } });
    const messages = await listLockMessages(d.staff, { roomId: d.room.id });
    expect(messages.items.map((m) => m.kind).sort()).toEqual(['lock_offline', 'low_battery']);
    expect(messages.items.find((m) => m.kind === 'low_battery')?.content).toBe('12');
    // Read again with nothing changed: no new messages.
    await refreshLockStatus(ctx.deps, { hotelId: d.hotel.id });
    expect((await listLockMessages(d.staff, { roomId: d.room.id })).total).toBe(2);
  });

  it('says why when the lock cloud does not know the lock', async () => {
    const d = await pairedRoom();
    // The lock was reset and added again in the TTLock app: the cloud no longer knows the id imported.
    await ctx.deps.prisma.lock.updateMany({ where: { hotelId: d.hotel.id, providerLockId: d.lockId }, data: { providerLockId: '999999999' } });
    expect(await getRoomLock(d.staff, { roomId: d.room.id, refresh: true })).toMatchObject({ lockId: '999999999', statusError: 'lock_not_found' });
  });
});

describe('unlock records', () => {
  it('arrive by the callback with the credential and the guest it was issued to, once each, for the right room', async () => {
    const d = await pairedRoom();
    await control('PUT', '/config', { callbackUrl: `${serverUrl}${lockCallbackPath(ctx.config)}` });
    const { password } = await stayWithPassword(d, '604271', 'Amal Haddad');
    expect(await control('POST', `/locks/${d.lockId}/use`, { passcode: '604271' })).toMatchObject({ opened: true });
    expect(await control('POST', `/locks/${d.lockId}/use`, { passcode: '111111' })).toMatchObject({ opened: false });
    const records = await until('two records', async () => {
      const r = await listUnlockRecords(d.staff, { roomId: d.room.id });
      return r.total >= 2 ? r : null;
    });
    expect(records.total).toBe(2);
    const opened = records.items.find((r) => r.success)!;
    expect(opened).toMatchObject({ style: 'password', event: 'opened', operator: 'Amal Haddad' });
    expect(records.items.find((r) => !r.success)).toMatchObject({ style: 'password', event: 'open_refused' });
    const stored = await ctx.deps.prisma.unlockRecord.findFirstOrThrow({ where: { roomId: d.room.id, success: true } });
    expect(stored.credential).toBe(`password:${password.id}`);

    // TTLock pushes again when it did not hear "success": stored once.
    const { deliveries } = await control<{ deliveries: { lockId: number; fields: Record<string, string> }[] }>('GET', '/callbacks');
    const delivery = deliveries.filter((x) => String(x.lockId) === d.lockId).at(-1)!;
    const again = await fetch(`${serverUrl}${lockCallbackPath(ctx.config)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(delivery.fields).toString(),
    });
    expect(await again.text()).toBe('success');
    expect((await listUnlockRecords(d.staff, { roomId: d.room.id })).total).toBe(2);
    await control('PUT', '/config', { callbackUrl: null });

    // By person: the guest's name (literally), or the credential.
    const byName = await listRecordsByPerson(d.staff, { person: 'amal had' });
    expect(byName.items).toEqual([
      expect.objectContaining({ operator: 'Amal Haddad', roomName: d.room.name, success: true, credential: `password:${password.id}` }),
    ]);
    expect((await listRecordsByPerson(d.staff, { credential: `password:${password.id}` })).total).toBe(1);
    expect((await listRecordsByPerson(d.staff, { person: '%' })).total).toBe(0);
    const other = await pairedRoom();
    expect((await listRecordsByPerson(other.staff, { person: 'Amal' })).total).toBe(0);
    expect((await appError(listRecordsByPerson(other.staff, { roomId: d.room.id }))).code).toBe('NOT_FOUND');
  });

  it('refuses a callback with a wrong secret; answers `success` to anything else, as TTLock waits for', async () => {
    const wrong = await fetch(`${serverUrl}/api/locks/callback/not-the-secret-at-all`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'notifyType=1&lockId=1&records=[]',
    });
    expect(wrong.status).toBe(404);
    for (const body of ['notifyType=1&lockId=1&records=nope', 'notifyType=4&lockId=1&errcode=-3036', 'notifyType=12&whatever=1', 'not a form at all', '']) {
      const res = await fetch(`${serverUrl}${lockCallbackPath(ctx.config)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      expect({ body, status: res.status, text: await res.text() }).toEqual({ body, status: 200, text: 'success' });
    }
  });

  it('from a callback batch with hostile records: the bad ones refused, the good ones of the same batch kept, `success` answered', async () => {
    const d = await pairedRoom();
    const at = Date.now() - 60_000;
    const records = [
      { recordType: 4, success: 1, lockDate: at, keyboardPwd: '135790', username: 'Good\u0000 one \ud800' },
      { recordType: 4, success: 1, lockDate: 1e308, keyboardPwd: '1' },
      { recordType: 4, success: 1, lockDate: -1e308, keyboardPwd: '2' },
      { recordType: 1e308, success: 1, lockDate: at + 1000, keyboardPwd: '3' },
      { recordType: -1e308, success: 1, lockDate: at + 2000, keyboardPwd: '4' },
      { recordType: 4, success: 1, lockDate: at + 3000, keyboardPwd: '5', electricQuantity: 1e308, serverDate: -1e308 },
      { recordType: 4, success: 0, lockDate: at + 4000, keyboardPwd: '246802', username: 'Also good' },
    ];
    const body = new URLSearchParams({ notifyType: '1', lockId: d.lockId, records: JSON.stringify(records).replace(/1e\+308/g, '1e308') }).toString();
    const res = await fetch(`${serverUrl}${lockCallbackPath(ctx.config)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect({ status: res.status, text: await res.text() }).toEqual({ status: 200, text: 'success' });
    const stored = await ctx.deps.prisma.unlockRecord.findMany({ where: { roomId: d.room.id }, orderBy: { occurredAt: 'asc' } });
    expect(stored.map((r) => [r.occurredAt.getTime(), r.success])).toEqual([
      [at, true],
      [at + 3000, true],
      [at + 4000, false],
    ]);
  });

  it('are read by polling for locks without callbacks, from a cursor, without duplicates', async () => {
    const d = await pairedRoom();
    await stayWithPassword(d, '730452', 'Sofia Rossi');
    await refreshLockStatus(ctx.deps, { hotelId: d.hotel.id });
    await control('POST', `/locks/${d.lockId}/use`, { passcode: '730452' });
    const first = await pollLockRecords(ctx.deps, { hotelId: d.hotel.id });
    expect(first.stored).toBeGreaterThanOrEqual(1);
    const records = await listUnlockRecords(d.staff, { roomId: d.room.id });
    expect(records.items).toEqual([expect.objectContaining({ operator: 'Sofia Rossi', style: 'password', success: true })]);
    const lock = await ctx.deps.prisma.lock.findFirstOrThrow({ where: { providerLockId: d.lockId } });
    expect(lock.recordsReadUntil).not.toBeNull();
    await pollLockRecords(ctx.deps, { hotelId: d.hotel.id });
    expect((await listUnlockRecords(d.staff, { roomId: d.room.id })).total).toBe(1);
  });
});

describe('reconciliation', () => {
  it('pushes again a password the lock lost, removes a revoked one still there, and shows a code we did not put there as unmanaged, removable', async () => {
    const d = await pairedRoom();
    const { password: kept } = await stayWithPassword(d, '815263');
    const gone = await createPassword(d.staff, { roomId: d.room.id, holderName: 'Night porter', kind: 'custom', code: '927341' });
    const goneOnLock = await passwordState(gone.id, ['on_lock']);
    await revokePassword(d.staff, { id: gone.id });
    await passwordState(gone.id, ['removed']);

    // Drift: the lock lost our password; our revoked one came back; someone added a code by hand.
    await control('POST', `/locks/${d.lockId}/drift`, { kind: 'passcode', action: 'remove', code: '815263', cloud: true });
    await control('POST', `/locks/${d.lockId}/drift`, { kind: 'passcode', action: 'plant', code: '927341', name: `Night porter #P${gone.id}`, cloud: true });
    await control('POST', `/locks/${d.lockId}/drift`, { kind: 'passcode', action: 'plant', code: '246813', name: 'installer', cloud: true });
    expect(goneOnLock.providerRef).not.toBeNull();

    const contents = await readRoomLock(d.staff, { roomId: d.room.id });
    const drift = Object.fromEntries(contents.items.map((i) => [i.code, i.drift]));
    expect(drift).toEqual({ '815263': 'missing', '927341': 'should_be_removed', '246813': 'unmanaged' });

    const result = await reconcileAllLocks(ctx.deps, { hotelId: d.hotel.id });
    expect(result).toMatchObject({ repushed: expect.any(Number), removed: expect.any(Number) });
    expect(result.repushed).toBeGreaterThanOrEqual(1);
    await passwordState(kept.id, ['on_lock']);
    await until('the revoked code off the lock', async () => {
      const items = (await readRoomLock(d.staff, { roomId: d.room.id })).items;
      return items.every((i) => i.code !== '927341') && items.some((i) => i.code === '815263' && i.drift === 'ok') ? items : null;
    });
    expect(await control('POST', `/locks/${d.lockId}/use`, { passcode: '815263' })).toMatchObject({ opened: true });
    expect(await control('POST', `/locks/${d.lockId}/use`, { passcode: '927341' })).toMatchObject({ opened: false });

    // Unmanaged: shown, removable by hand; our own credentials are not removable this way.
    const unmanaged = (await readRoomLock(d.staff, { roomId: d.room.id })).items.find((i) => i.drift === 'unmanaged')!;
    const ours = (await readRoomLock(d.staff, { roomId: d.room.id })).items.find((i) => i.drift === 'ok')!;
    expect((await appError(removeUnmanaged(d.staff, { roomId: d.room.id, kind: 'password', ref: ours.ref! }))).code).toBe('CONFLICT');
    await removeUnmanaged(d.staff, { roomId: d.room.id, kind: 'password', ref: unmanaged.ref! });
    expect((await readRoomLock(d.staff, { roomId: d.room.id })).items.map((i) => i.code)).toEqual(['815263']);
    expect(await control('POST', `/locks/${d.lockId}/use`, { passcode: '246813' })).toMatchObject({ opened: false });
  });
});

describe('remote unlock', () => {
  it('opens the lock through its gateway and audits it; an offline lock gives "open failed" with the reason, and is shown offline', async () => {
    const d = await pairedRoom();
    await refreshLockStatus(ctx.deps, { hotelId: d.hotel.id });
    expect(await remoteUnlock(d.staff, { roomId: d.room.id })).toEqual({ opened: true });
    await until(
      'the unlock record',
      async () =>
        (await listUnlockRecords(d.staff, { roomId: d.room.id })).total === 1 || (await pollLockRecords(ctx.deps, { hotelId: d.hotel.id })).stored > 0,
    );
    expect((await listUnlockRecords(d.staff, { roomId: d.room.id })).items[0]).toMatchObject({ style: 'remote', success: true, source: 'gateway' });

    const heardBefore = new Date();
    await control('PATCH', `/locks/${d.lockId}`, { online: false });
    const error = await appError(remoteUnlock(d.staff, { roomId: d.room.id }));
    expect(error.code).toBe('LOCK_FAILED');
    expect(error.options.details).toEqual({ reason: 'lock_offline' });
    expect(describeAppError(error, 'en', ctx.deps.i18n).message).toBe('Open failed: The lock is offline');
    expect(describeAppError(error, 'zh-CN', ctx.deps.i18n).message).toMatch(/开门失败/);
    expect(await getRoomLock(d.staff, { roomId: d.room.id })).toMatchObject({ online: false });
    expect((await listLockMessages(d.staff, { roomId: d.room.id })).items.map((m) => m.kind)).toEqual(['lock_offline']);
    // The status cycle does not show it online again on its gateway's word (TTLock keeps a lock linked
    // 30 minutes after it last heard it), with the links read again or not: only a newer hearing does.
    const cycle = async (links: 'kept' | 'read again') => {
      if (links === 'read again') await ctx.deps.prisma.lockAccount.updateMany({ where: { hotelId: d.hotel.id }, data: { linksReadAt: null } });
      await refreshLockStatus(ctx.deps, { hotelId: d.hotel.id });
      return getRoomLock(d.staff, { roomId: d.room.id });
    };
    // Nor does a record the lock made before the failure and the cloud sent late; a newer one does (below).
    const record = (serverDate: Date) => ({
      recordId: randomUUID(),
      lockId: d.lockId,
      recordType: 12,
      success: true,
      username: '',
      credential: '',
      lockDate: serverDate,
      serverDate,
      battery: null,
    });
    await ingestLockRecords(ctx.deps, [record(heardBefore)], { callback: true });
    expect(await getRoomLock(d.staff, { roomId: d.room.id })).toMatchObject({ online: false, statusError: 'lock_offline' });
    expect(await cycle('kept')).toMatchObject({ online: false, statusError: 'lock_offline' });
    expect(await cycle('read again')).toMatchObject({ online: false, statusError: 'lock_offline' });
    await control('PATCH', `/locks/${d.lockId}`, { online: true });
    expect(await cycle('read again')).toMatchObject({ online: true, statusError: null });
    const audits = await ctx.deps.prisma.auditLog.findMany({ where: { hotelId: d.hotel.id, action: 'lock.unlock' }, orderBy: { id: 'asc' } });
    expect(audits.map((a) => (a.after as { opened: boolean }).opened)).toEqual([true, false]);
  });
});

describe('a lock that does not open from afar', () => {
  it('is not asked to open: refused naming the room, before any call; its room says so', async () => {
    const d = await pairedRoom();
    const room = await ctx.deps.prisma.room.findUniqueOrThrow({ where: { id: d.room.id }, select: { lockId: true } });
    // As an import leaves a lock whose platform says it cannot be unlocked remotely (no bridge).
    await ctx.deps.prisma.lock.update({ where: { id: room.lockId! }, data: { remoteUnlock: false } });
    expect(await getRoomLock(d.staff, { roomId: d.room.id })).toMatchObject({ remoteUnlock: false });
    const error = await appError(remoteUnlock(d.staff, { roomId: d.room.id }));
    expect(error.code).toBe('CONFLICT');
    expect(describeAppError(error, 'en', ctx.deps.i18n).message).toBe(
      `The lock of room ${d.room.name} cannot be opened from the console: no gateway or bridge reaches it`,
    );
    // Nothing was sent: the simulator's lock was not opened, and no attempt is in the audit.
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: d.hotel.id, action: 'lock.unlock' } })).toBe(0);
  });
});

describe('lock managers', () => {
  it('are members of the hotel or people named with a phone, once each; staff may see them, not change them; another hotel gets "not found"', async () => {
    const d = await pairedRoom();
    const smith = await addLockManager(d.owner, { roomId: d.room.id, name: 'Locksmith Wang', mobile: '13912345678' });
    const member = await addLockManager(d.owner, { roomId: d.room.id, accountId: d.staff.actor.accountId });
    expect(member.accountId).toBe(d.staff.actor.accountId);
    expect((await appError(addLockManager(d.owner, { roomId: d.room.id, accountId: d.staff.actor.accountId }))).code).toBe('CONFLICT');
    expect((await appError(addLockManager(d.owner, { roomId: d.room.id, name: 'Locksmith Wang', mobile: '13912345678' }))).code).toBe('CONFLICT');
    expect((await appError(addLockManager(d.staff, { roomId: d.room.id, name: 'Someone' }))).code).toBe('FORBIDDEN');
    expect((await listLockManagers(d.staff, { roomId: d.room.id })).items.map((m) => m.id)).toEqual([smith.id, member.id]);

    const b = await pairedRoom();
    expect((await appError(listLockManagers(b.staff, { roomId: d.room.id }))).code).toBe('NOT_FOUND');
    expect((await appError(addLockManager(b.owner, { roomId: d.room.id, name: 'Intruder' }))).code).toBe('NOT_FOUND');
    expect((await appError(addLockManager(b.owner, { roomId: b.room.id, accountId: d.staff.actor.accountId }))).code).toBe('NOT_FOUND');
    expect((await appError(deleteLockManager(b.owner, { id: smith.id }))).code).toBe('NOT_FOUND');
    await deleteLockManager(d.owner, { id: smith.id });
    expect((await listLockManagers(d.staff, { roomId: d.room.id })).items.map((m) => m.id)).toEqual([member.id]);
  });
});

describe('another hotel', () => {
  it('gets "not found" on the locks, contents, messages and unlocks of hotel A, and changes nothing', async () => {
    const a = await pairedRoom();
    const b = await pairedRoom();
    await control('PATCH', `/locks/${a.lockId}`, { battery: 5 });
    await refreshLockStatus(ctx.deps, { hotelId: a.hotel.id });
    const aMessages = await listLockMessages(a.staff, {});
    expect(aMessages.unread).toBe(1);
    for (const call of [
      () => getRoomLock(b.staff, { roomId: a.room.id }),
      () => remoteUnlock(b.owner, { roomId: a.room.id }),
      () => readRoomLock(b.owner, { roomId: a.room.id }),
      () => removeUnmanaged(b.owner, { roomId: a.room.id, kind: 'password', ref: '1' }),
      () => listLockMessages(b.staff, { roomId: a.room.id }),
      () => deleteLockMessages(b.owner, { ids: aMessages.items.map((m) => m.id) }),
    ]) {
      expect((await appError(call())).code).toBe('NOT_FOUND');
    }
    expect(await markLockMessagesRead(b.owner, { ids: aMessages.items.map((m) => m.id) })).toEqual({ updated: 0 });
    expect((await listLockMessages(b.staff, {})).total).toBe(0);
    expect(await unreadLockMessages(a.staff)).toEqual({ unread: 1 });
    await markLockMessagesRead(a.staff, { ids: aMessages.items.map((m) => m.id) });
    expect(await unreadLockMessages(a.staff)).toEqual({ unread: 0 });
    await deleteLockMessages(a.staff, { ids: aMessages.items.map((m) => m.id) });
    expect((await listLockMessages(a.staff, {})).total).toBe(0);
  });
});
