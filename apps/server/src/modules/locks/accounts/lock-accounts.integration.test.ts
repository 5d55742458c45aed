import { randomUUID } from 'node:crypto';
import { SimClient, startLockSim, type LockSim } from '@console/lock-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockCallbackPath } from '../../../infra/locks';
import { startWorkers } from '../../../jobs/workers';
import { createHotelWithStaff, createRooms, uniqueMobile } from '../../../test/factories';
import { actorContext, createTestContext, testLockIdBase, type TestContext } from '../../../test/harness';
import { legacyClient } from '../../../test/legacy-client';
import { legacyTime } from '../../../legacy/manage/format';
import { trpcClient } from '../../../test/trpc-client';
import { TEST_PASSWORD } from '../../../test/factories';
import { createPassword, revokePassword } from '../../credentials/password.service';
import { checkIn } from '../../stays/check-in';
import { renewStay } from '../../stays/renewal';
import { listUnlockRecords } from '../../unlock-records/unlock-record.service';
import { refreshLockStatus } from '../lock-status';
import { getRoomLock, remoteUnlock } from '../lock.service';
import { listLockMessages } from '../message.service';
import { countLockCall, lockCallCounts } from '../../lock-cloud/call-budget';

/**
 * Issue 16: locks belong to their hotel, connected the way a hotel connects them. Against
 * apps/lock-sim over HTTP (the real TTLock adapter), the real database, Redis and workers, on every
 * face: tRPC as the web console calls it, the legacy protocol as an old client (crypto-js), and the
 * lock cloud's callback.
 */
let sim: LockSim;
let sc: SimClient;
let ctx: TestContext;
let workers: ReturnType<typeof startWorkers>;
let serverUrl: string;
let api: ReturnType<typeof trpcClient>;
let legacy: ReturnType<typeof legacyClient>;

beforeAll(async () => {
  sim = await startLockSim({ latencyMs: [5, 15], callbackRetryDelaysMs: [100, 300], lockIdBase: testLockIdBase() });
  sc = new SimClient(sim.url);
  ctx = await createTestContext({ sim, env: { LOCK_DELIVERY_ATTEMPTS: '3', LOCK_DELIVERY_BACKOFF_MS: '100' } });
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  const address = ctx.app.server.address();
  serverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  await sc.control('PUT', '/config', { callbackUrl: `${serverUrl}${lockCallbackPath(ctx.config)}` });
  workers = startWorkers(ctx.deps, { sweep: false });
  api = trpcClient(ctx.app);
  legacy = legacyClient(ctx.app, ctx.config);
});

afterAll(async () => {
  await workers?.close();
  await ctx?.close();
  await sim?.close();
});

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const passwordRow = (id: number) => ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id } });
const passwordIn = (id: number, states: string[]) =>
  until(`password ${id} in ${states.join('/')}`, async () => {
    const row = await passwordRow(id);
    return states.includes(row.deliveryState) ? row : null;
  });

/** A hotel with an owner and staff, rooms, and a TTLock account of its own in the simulator. */
async function hotel(roomNames: string[] = []) {
  const h = await createHotelWithStaff(ctx.deps);
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, roomNames);
  const account = { username: `acct-${randomUUID().slice(0, 8)}`, password: `pw-${randomUUID().slice(0, 8)}` };
  await sc.createAccount(account);
  const owner = await actorContext(ctx.deps, h.ownerToken);
  const staff = await actorContext(ctx.deps, h.staffToken);
  const legacyLogin = await legacy.call<{ token: string }>('login', { mobile: h.owner.mobile, password: TEST_PASSWORD });
  return { ...h, rooms, account, owner, staff, legacyToken: legacyLogin.data.token };
}

type Hotel = Awaited<ReturnType<typeof hotel>>;

/** Locks named `names` in the hotel's TTLock account, on one gateway of the account. */
async function simLocks(h: Hotel, names: string[], lock: Record<string, unknown> = {}) {
  const { gateway } = await sc.control<{ gateway: { gatewayId: number } }>('POST', '/gateways', { account: h.account.username });
  const ids: string[] = [];
  for (const name of names)
    ids.push(
      String(
        (await sc.control<{ lock: { lockId: number } }>('POST', '/locks', { account: h.account.username, gatewayId: gateway.gatewayId, name, ...lock })).lock
          .lockId,
      ),
    );
  return { ids, gatewayId: gateway.gatewayId };
}

/** The hotel's owner connects its account on the console (tRPC, as the web console does). */
async function connect(h: Hotel) {
  const res = await api.mutation(
    'lockAccount.connect',
    { username: h.account.username, password: h.account.password, kind: 'ttlock', label: 'Front desk' },
    { token: h.ownerToken },
  );
  expect(res.error, JSON.stringify(res.error)).toBeUndefined();
  return res.data!.id;
}

async function importAndPairAll(h: Hotel, accountId: number) {
  const imported = await api.mutation('lockAccount.importLocks', { accountId }, { token: h.ownerToken });
  expect(imported.error, JSON.stringify(imported.error)).toBeUndefined();
  const { data } = await api.query('lock.suggestedPairs', undefined, { token: h.ownerToken });
  if (data!.pairs.length) expect((await api.mutation('lock.pair', { pairs: data!.pairs }, { token: h.ownerToken })).error).toBeUndefined();
  return imported.data!;
}

describe('connecting a lock account', () => {
  it('connects with the password sent once as TTLock wants it, and keeps only sealed tokens', async () => {
    const h = await hotel();
    const accountId = await connect(h);
    const row = await ctx.deps.prisma.lockAccount.findUniqueOrThrow({ where: { id: accountId } });
    expect(row).toMatchObject({ hotelId: h.hotel.id, username: h.account.username, state: 'connected', lastError: null });
    // Sealed: neither the password nor anything the cloud gave is readable in the row.
    expect(row.tokensSealed).toMatch(/^v1\./);
    const accessTokens = Object.keys(sim.cloud.state.tokens);
    for (const secret of [h.account.password, ...accessTokens]) expect(JSON.stringify(row)).not.toContain(secret);
    const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { hotelId: h.hotel.id, action: 'lockAccount.connect' } });
    expect(JSON.stringify(audit)).not.toContain(h.account.password);
    const list = await api.query('lockAccount.list', undefined, { token: h.ownerToken });
    expect(list.data).toMatchObject({
      simulated: true,
      region: 'eu',
      items: [{ id: accountId, username: h.account.username, state: 'connected', kind: 'ttlock', label: 'Front desk' }],
    });
  });

  it('says what is wrong, on the field, in the language of the request; the same account twice at once is connected once', async () => {
    const h = await hotel();
    const wrong = await api.mutation(
      'lockAccount.connect',
      { username: h.account.username, password: 'not-it', kind: 'ttlock', label: '' },
      { token: h.ownerToken, lang: 'zh-CN' },
    );
    expect(wrong.error?.data.app).toMatchObject({ code: 'VALIDATION', fields: { password: '门锁云中没有这个账户和密码' } });
    await sc.createAccount({ username: `${h.account.username}-cn`, password: 'pw-cn', region: 'cn' });
    const region = await api.mutation(
      'lockAccount.connect',
      { username: `${h.account.username}-cn`, password: 'pw-cn', kind: 'ttlock', label: '' },
      { token: h.ownerToken },
    );
    expect(region.error?.message).toBe('This account belongs to the other TTLock region (this console uses the eu region)');
    const blank = await api.mutation('lockAccount.connect', { username: '  ', password: '', kind: 'ttlock', label: '' }, { token: h.ownerToken });
    expect(blank.error?.data.app?.fields).toMatchObject({ username: 'Enter the TTLock account', password: expect.any(String) });

    const both = await Promise.all(
      [connect, connect].map(() =>
        api.mutation('lockAccount.connect', { username: h.account.username, password: h.account.password, kind: 'ttlock', label: '' }, { token: h.ownerToken }),
      ),
    );
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.status === 409)?.error?.message).toBe(`The account ${h.account.username} is already connected to this hotel`);
    expect(await ctx.deps.prisma.lockAccount.count({ where: { hotelId: h.hotel.id } })).toBe(1);
    // Connected already: refused before the password goes anywhere.
    const grants = async () => (await sc.control<{ grants: { password: number } }>('GET', '/tokens')).grants.password;
    const before = await grants();
    expect(
      (
        await api.mutation(
          'lockAccount.connect',
          { username: h.account.username, password: h.account.password, kind: 'ttlock', label: '' },
          { token: h.ownerToken },
        )
      ).status,
    ).toBe(409);
    expect(await grants()).toBe(before);
  });

  it('is for owners and administrators signed in: staff are refused', async () => {
    const h = await hotel();
    const res = await api.mutation(
      'lockAccount.connect',
      { username: h.account.username, password: h.account.password, kind: 'ttlock', label: '' },
      { token: h.staffToken },
    );
    expect(res.status).toBe(403);
    expect((await api.query('lockAccount.list', undefined, { token: h.staffToken })).status).toBe(403);
  });

  it('a refused refresh token makes the account need its password: work waits without failing, and goes on once it is connected again', async () => {
    const h = await hotel(['A1']);
    const { ids } = await simLocks(h, ['Room A1']);
    const accountId = await connect(h);
    await importAndPairAll(h, accountId);
    // TTLock revokes the account's tokens (its password was changed in the app).
    await sc.revoke(h.account.username);
    await sim.cloud.expireTokens();
    const created = await createPassword(h.staff, { roomId: h.rooms[0]!.id, kind: 'custom', code: '730195', holderName: 'Cleaner' });
    const waiting = await until('the password to wait for the account', async () => {
      const row = await passwordRow(created.id);
      return row.lastError === 'auth_failed' ? row : null;
    });
    expect(waiting).toMatchObject({ deliveryState: 'pending', attempts: 0 });
    expect(await ctx.deps.prisma.lockAccount.findUniqueOrThrow({ where: { id: accountId } })).toMatchObject({
      state: 'needs_password',
      lastError: 'auth_failed',
      tokensSealed: null,
    });
    // What the clerk is told at the door, and the room's lock panel.
    const unlock = await api.mutation('lock.unlock', { roomId: h.rooms[0]!.id }, { token: h.ownerToken });
    expect(unlock.error?.message).toBe('Open failed: The lock account needs its password again');
    expect(await getRoomLock(h.owner, { roomId: h.rooms[0]!.id })).toMatchObject({ account: { id: accountId, state: 'needs_password' } });

    expect((await api.mutation('lockAccount.reconnect', { accountId, password: h.account.password }, { token: h.ownerToken })).error).toBeUndefined();
    expect(await passwordIn(created.id, ['on_lock', 'failed'])).toMatchObject({ deliveryState: 'on_lock', lastError: null });
    expect(await sc.control('POST', `/locks/${ids[0]}/use`, { passcode: '730195' })).toMatchObject({ opened: true });
  });

  it('disconnects: the tokens go, rooms keep their locks, their work waits; removing needs the locks unpaired', async () => {
    const h = await hotel(['D1']);
    await simLocks(h, ['Room D1']);
    const accountId = await connect(h);
    await importAndPairAll(h, accountId);
    expect((await api.mutation('lockAccount.remove', { accountId }, { token: h.ownerToken })).error?.message).toBe('Disconnect the account before removing it');
    expect((await api.mutation('lockAccount.disconnect', { accountId }, { token: h.ownerToken })).error).toBeUndefined();
    expect(await ctx.deps.prisma.lockAccount.findUniqueOrThrow({ where: { id: accountId } })).toMatchObject({ state: 'disconnected', tokensSealed: null });
    const unlock = await api.mutation('lock.unlock', { roomId: h.rooms[0]!.id }, { token: h.ownerToken });
    expect(unlock.error?.message).toBe("Open failed: The lock's lock account is not connected");
    expect((await api.mutation('lockAccount.remove', { accountId }, { token: h.ownerToken })).error?.message).toMatch(
      /^Rooms are still paired with locks of this account \(1\)/,
    );
    expect((await api.mutation('lock.pair', { pairs: [{ roomId: h.rooms[0]!.id, lockId: null }] }, { token: h.ownerToken })).error).toBeUndefined();
    expect((await api.mutation('lockAccount.remove', { accountId }, { token: h.ownerToken })).error).toBeUndefined();
    expect(await ctx.deps.prisma.lock.count({ where: { hotelId: h.hotel.id } })).toBe(0);
  });
});

describe('getting locks and pairing them with rooms', () => {
  it("reads the account's locks with what they can take, proposes rooms by name, pairs them in bulk", async () => {
    const h = await hotel(['101', '102', '103']);
    const { ids, gatewayId } = await simLocks(h, ['Room 101', 'Room 102', 'Lobby door']);
    await sc.control('PATCH', `/locks/${ids[2]}`, { keypad: true, cardReader: false, faceModule: false });
    const accountId = await connect(h);
    const imported = await api.mutation('lockAccount.importLocks', { accountId }, { token: h.ownerToken });
    expect(imported.data).toEqual({ total: 3, added: 3, updated: 0, gone: 0, elsewhere: 0 });

    const list = await api.query('lock.list', { filter: 'unpaired' }, { token: h.ownerToken });
    expect(list.data).toMatchObject({ total: 3, unpaired: 3, suggestions: 2 });
    const byId = new Map(list.data!.items.map((l) => [l.lockId, l]));
    expect(byId.get(ids[0]!)).toMatchObject({
      alias: 'SIM Room 101',
      suggestedRoom: { id: h.rooms[0]!.id, name: '101' },
      account: { id: accountId },
      gateway: expect.any(String),
      online: true,
      capabilities: { keypad: true, cardReader: true, faceModule: true },
    });
    expect(byId.get(ids[2]!)).toMatchObject({ suggestedRoom: null, capabilities: { keypad: true, cardReader: false, faceModule: false } });

    const { data } = await api.query('lock.suggestedPairs', undefined, { token: h.ownerToken });
    expect(new Set(data!.pairs.map((p) => p.roomId))).toEqual(new Set([h.rooms[0]!.id, h.rooms[1]!.id]));
    expect((await api.mutation('lock.pair', { pairs: data!.pairs }, { token: h.ownerToken })).error).toBeUndefined();
    expect(await getRoomLock(h.owner, { roomId: h.rooms[0]!.id })).toMatchObject({
      lockId: ids[0],
      name: 'SIM Room 101',
      online: true,
      gateway: { id: String(gatewayId) },
    });
    expect((await api.query('lock.list', { filter: 'unpaired' }, { token: h.ownerToken })).data?.items.map((l) => l.lockId)).toEqual([ids[2]]);
    // A search is literal: `%` finds nothing here, `oom 1` finds the two rooms' locks.
    expect((await api.query('lock.list', { search: '%' }, { token: h.ownerToken })).data?.total).toBe(0);
    expect((await api.query('lock.list', { search: 'oom 10' }, { token: h.ownerToken })).data?.total).toBe(2);

    // The room picker: the hotel's rooms by a literal search, with the lock each has and how many match.
    const pickable = await api.query('lock.pairableRooms', { search: '10' }, { token: h.ownerToken });
    expect(pickable.data).toMatchObject({ total: 3 });
    expect(pickable.data?.items.map((r) => [r.name, r.lock?.name ?? null])).toEqual([
      ['101', 'SIM Room 101'],
      ['102', 'SIM Room 102'],
      ['103', null],
    ]);
    expect((await api.query('lock.pairableRooms', { search: '%' }, { token: h.ownerToken })).data).toEqual({ items: [], total: 0 });

    // Get locks again: nothing added; a lock deleted in the TTLock app is marked gone, its room warned.
    await sc.control('DELETE', `/locks/${ids[0]}`);
    const again = await api.mutation('lockAccount.importLocks', { accountId }, { token: h.ownerToken });
    expect(again.data).toEqual({ total: 2, added: 0, updated: 2, gone: 1, elsewhere: 0 });
    expect(await getRoomLock(h.owner, { roomId: h.rooms[0]!.id })).toMatchObject({ lockId: ids[0], gone: true });
    expect((await listLockMessages(h.owner, { roomId: h.rooms[0]!.id })).items.map((m) => m.kind)).toContain('lock_gone');
    // A gone lock is paired with nothing new.
    const toGone = await api.mutation('lock.pair', { pairs: [{ roomId: h.rooms[2]!.id, lockId: byId.get(ids[0]!)!.id }] }, { token: h.ownerToken });
    expect(toGone.error?.data.app?.code).toBe('CONFLICT');

    // The status cycle's hourly lock list finds a deleted lock too, without anyone getting locks: gone, no status, its room told once.
    await sc.control('DELETE', `/locks/${ids[1]}`);
    await ctx.deps.prisma.lockAccount.update({ where: { id: accountId }, data: { locksReadAt: null } });
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    expect(await getRoomLock(h.owner, { roomId: h.rooms[1]!.id })).toMatchObject({ lockId: ids[1], gone: true, online: null });
    await ctx.deps.prisma.lockAccount.update({ where: { id: accountId }, data: { locksReadAt: null } });
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    expect((await listLockMessages(h.owner, { roomId: h.rooms[1]!.id })).items.filter((m) => m.kind === 'lock_gone')).toHaveLength(1);
    expect((await api.query('lock.list', { filter: 'gone' }, { token: h.ownerToken })).data?.items.map((l) => [l.lockId, l.online])).toEqual(
      expect.arrayContaining([
        [ids[0], null],
        [ids[1], null],
      ]),
    );
  });

  it('one room per lock: a lock already a door is refused with the room it is the door of; swaps in one request work; a race keeps one', async () => {
    const h = await hotel(['201', '202', '203']);
    const { ids } = await simLocks(h, ['Room 201', 'Room 202', 'Spare']);
    const accountId = await connect(h);
    await importAndPairAll(h, accountId);
    const locks = (await api.query('lock.list', {}, { token: h.ownerToken })).data!.items;
    const rowOf = (providerId: string) => locks.find((l) => l.lockId === providerId)!.id;
    const taken = await api.mutation('lock.pair', { pairs: [{ roomId: h.rooms[2]!.id, lockId: rowOf(ids[0]!) }] }, { token: h.ownerToken, lang: 'en' });
    expect(taken.error?.message).toBe('The lock SIM Room 201 is already the door of room 201');
    // Swapped between two rooms at once.
    const swap = await api.mutation(
      'lock.pair',
      {
        pairs: [
          { roomId: h.rooms[0]!.id, lockId: rowOf(ids[1]!) },
          { roomId: h.rooms[1]!.id, lockId: rowOf(ids[0]!) },
        ],
      },
      { token: h.ownerToken },
    );
    expect(swap.error).toBeUndefined();
    expect((await getRoomLock(h.owner, { roomId: h.rooms[0]!.id })).lockId).toBe(ids[1]);
    // Two clerks pair the spare lock with two rooms at the same moment: one room gets it.
    await api.mutation('lock.pair', { pairs: [{ roomId: h.rooms[2]!.id, lockId: null }] }, { token: h.ownerToken });
    const race = await Promise.all(
      [h.rooms[2]!.id, h.rooms[0]!.id].map((roomId) => api.mutation('lock.pair', { pairs: [{ roomId, lockId: rowOf(ids[2]!) }] }, { token: h.ownerToken })),
    );
    expect(race.filter((r) => r.error === undefined)).toHaveLength(1);
    expect(race.filter((r) => r.error !== undefined).every((r) => r.status === 409)).toBe(true);
    expect(await ctx.deps.prisma.room.count({ where: { lock: { providerLockId: ids[2] } } })).toBe(1);
  });

  it('a room whose lock holds credentials keeps its lock until they are off', async () => {
    const h = await hotel(['301']);
    const { ids } = await simLocks(h, ['Room 301', 'Room 301 new']);
    const accountId = await connect(h);
    await api.mutation('lockAccount.importLocks', { accountId }, { token: h.ownerToken });
    const locks = (await api.query('lock.list', {}, { token: h.ownerToken })).data!.items;
    const rowOf = (providerId: string) => locks.find((l) => l.lockId === providerId)!.id;
    await api.mutation('lock.pair', { pairs: [{ roomId: h.rooms[0]!.id, lockId: rowOf(ids[0]!) }] }, { token: h.ownerToken });
    const created = await createPassword(h.staff, { roomId: h.rooms[0]!.id, kind: 'custom', code: '582917', holderName: 'Guest' });
    await passwordIn(created.id, ['on_lock']);
    const refused = await api.mutation('lock.pair', { pairs: [{ roomId: h.rooms[0]!.id, lockId: rowOf(ids[1]!) }] }, { token: h.ownerToken });
    expect(refused.error?.message).toBe('Room 301 still has credentials on its lock (1): take them off first');
    await revokePassword(h.staff, { id: created.id });
    await passwordIn(created.id, ['removed']);
    expect((await api.mutation('lock.pair', { pairs: [{ roomId: h.rooms[0]!.id, lockId: rowOf(ids[1]!) }] }, { token: h.ownerToken })).error).toBeUndefined();
  });
});

describe("another hotel's lock", () => {
  /** Hotel A with a lock paired with its room 11, and hotel B with its own account and room. */
  async function twoHotels() {
    const a = await hotel(['11']);
    const { ids } = await simLocks(a, ['Room 11']);
    const accountA = await connect(a);
    await importAndPairAll(a, accountA);
    const b = await hotel(['11', '12']);
    await simLocks(b, ['Room 12']);
    const accountB = await connect(b);
    await importAndPairAll(b, accountB);
    const aLockRow = (await api.query('lock.list', {}, { token: a.ownerToken })).data!.items[0]!.id;
    return { a, b, aLock: ids[0]!, aLockRow };
  }

  it('cannot be paired by id on any face, with the same answer as an id that exists nowhere', async () => {
    const { a, b, aLock, aLockRow } = await twoHotels();
    const nowhere = '999999999';
    const room = b.rooms[0]!.id;
    const set = (lockId: string) => api.mutation('room.setLock', { roomId: room, lockId, bluetoothName: null, macId: null }, { token: b.ownerToken });
    const [bySet, bySetNowhere] = [await set(aLock), await set(nowhere)];
    expect(bySet.error?.message).toBe(`No lock with the id ${aLock} is in this hotel's lock accounts`);
    expect(bySetNowhere.error?.message).toBe(`No lock with the id ${nowhere} is in this hotel's lock accounts`);
    expect(bySet.error?.data.app?.code).toBe(bySetNowhere.error?.data.app?.code);

    const viaLegacy = await legacy.call('room/setLockData', { room_id: room, lock_id: aLock }, { token: b.legacyToken, language: 'en' });
    const viaLegacyNowhere = await legacy.call('room/setLockData', { room_id: room, lock_id: nowhere }, { token: b.legacyToken, language: 'en' });
    expect(viaLegacy).toMatchObject({ errno: viaLegacyNowhere.errno, errmsg: `No lock with the id ${aLock} is in this hotel's lock accounts` });
    expect(viaLegacy.errno).not.toBe(0);

    const created = await api.mutation('room.create', { name: `X${Date.now() % 10000}`, lockId: aLock }, { token: b.ownerToken });
    expect(created.error?.message).toBe(`No lock with the id ${aLock} is in this hotel's lock accounts`);
    expect(await ctx.deps.prisma.room.count({ where: { hotelId: b.hotel.id } })).toBe(2);
    const roomB = (await api.query('room.get', { id: room }, { token: b.ownerToken })).data!;
    const updated = await api.mutation('room.update', { id: room, name: roomB.name, lockId: aLock }, { token: b.ownerToken });
    expect(updated.error?.message).toBe(`No lock with the id ${aLock} is in this hotel's lock accounts`);

    // By A's lock row, through the pairing of the lock accounts page: not found, as a row that does not exist.
    const byRow = await api.mutation('lock.pair', { pairs: [{ roomId: room, lockId: aLockRow }] }, { token: b.ownerToken });
    const byNoRow = await api.mutation('lock.pair', { pairs: [{ roomId: room, lockId: 2_000_000_000 }] }, { token: b.ownerToken });
    expect(byRow.error?.message).toBe("This lock is not one of the hotel's locks");
    expect(byNoRow.error?.message).toBe(byRow.error?.message);

    // The database itself refuses a room of B pointing at A's lock.
    await expect(ctx.deps.prisma.room.update({ where: { id: room }, data: { lockId: aLockRow } })).rejects.toThrow();
    // Nothing of A changed, and B sees none of it.
    expect((await getRoomLock(a.owner, { roomId: a.rooms[0]!.id })).lockId).toBe(aLock);
    expect((await api.query('lock.list', { search: aLock }, { token: b.ownerToken })).data?.total).toBe(0);
    expect((await api.query('lock.status', { roomId: a.rooms[0]!.id }, { token: b.ownerToken })).status).toBe(404);
    expect((await api.mutation('lock.unlock', { roomId: a.rooms[0]!.id }, { token: b.ownerToken })).status).toBe(404);
    expect((await legacy.call('lock/inLockList', { lock_id: aLock }, { token: b.legacyToken })).errno).not.toBe(0);
  });

  it("cannot be taken by connecting an account that also holds it: the lock stays the first hotel's", async () => {
    // One TTLock account (a management company's) connected by two hotels: each lock is one hotel's.
    const a = await hotel(['21']);
    const { ids } = await simLocks(a, ['Room 21']);
    const accountA = await connect(a);
    await importAndPairAll(a, accountA);
    const b = await hotel(['21']);
    const res = await api.mutation(
      'lockAccount.connect',
      { username: a.account.username, password: a.account.password, kind: 'ttlock', label: '' },
      { token: b.ownerToken },
    );
    const imported = await api.mutation('lockAccount.importLocks', { accountId: res.data!.id }, { token: b.ownerToken });
    expect(imported.data).toMatchObject({ total: 1, added: 0, elsewhere: 1 });
    expect((await api.query('lock.list', {}, { token: b.ownerToken })).data?.total).toBe(0);
    const typed = await legacy.call('room/setLockData', { room_id: b.rooms[0]!.id, lock_id: ids[0] }, { token: b.legacyToken, language: 'en' });
    expect(typed.errmsg).toBe(`No lock with the id ${ids[0]} is in this hotel's lock accounts`);
  });

  it("a lock both hotels' accounts hold, typed by both at once, becomes one hotel's", async () => {
    const a = await hotel(['31']);
    const { ids } = await simLocks(a, ['Room 31']);
    await connect(a);
    const b = await hotel(['31']);
    await api.mutation(
      'lockAccount.connect',
      { username: a.account.username, password: a.account.password, kind: 'ttlock', label: '' },
      { token: b.ownerToken },
    );
    const results = await Promise.all(
      [a, b].map((x) => legacy.call('room/setLockData', { room_id: x.rooms[0]!.id, lock_id: ids[0] }, { token: x.legacyToken })),
    );
    expect(results.filter((r) => r.errno === 0)).toHaveLength(1);
    expect(await ctx.deps.prisma.lock.count({ where: { providerLockId: ids[0] } })).toBe(1);
    expect(await ctx.deps.prisma.room.count({ where: { lock: { providerLockId: ids[0] } } })).toBe(1);
  });

  it("records are attributed through the lock's owner: a forged record names no credential of another room or hotel", async () => {
    const { a, b, aLock } = await twoHotels();
    const stayB = await checkIn(b.staff, {
      roomId: b.rooms[1]!.id,
      checkInAt: new Date(Date.now() - 60_000),
      expectedCheckOutAt: new Date(Date.now() + 26 * 3_600_000),
      guests: [{ name: 'Bo Li', mobile: uniqueMobile() }],
      idempotencyKey: randomUUID(),
    });
    const pB = await createPassword(b.staff, { roomId: b.rooms[1]!.id, stayId: stayB.id, kind: 'custom', code: '602417' });
    const post = (fields: Record<string, string>) =>
      fetch(`${serverUrl}${lockCallbackPath(ctx.config)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
    // A record on A's lock that carries the tag of B's password.
    const lockDate = Date.now() - 5_000;
    expect(
      await (
        await post({
          notifyType: '1',
          lockId: aLock,
          lockMac: '',
          records: JSON.stringify([{ recordType: 4, success: 1, username: `Bo Li #P${pB.id}`, keyboardPwd: '602417', lockDate }]),
        })
      ).text(),
    ).toBe('success');
    const recordsA = await listUnlockRecords(a.owner, { roomId: a.rooms[0]!.id });
    expect(recordsA.items).toEqual([expect.objectContaining({ operator: 'Bo Li', credential: null })]);
    expect((await listUnlockRecords(b.owner, { roomId: b.rooms[1]!.id })).total).toBe(0);
    // A record of a lock no hotel has: stored nowhere.
    await post({ notifyType: '1', lockId: '987654321', records: JSON.stringify([{ recordType: 4, success: 1, username: 'x', keyboardPwd: '1', lockDate }]) });
    expect(await ctx.deps.prisma.unlockRecord.count({ where: { device: { contains: '987654321' } } })).toBe(0);
  });
});

describe('TTLock as it really behaves', () => {
  async function roomWithLock(lock: Record<string, unknown> = {}) {
    const h = await hotel(['501']);
    const { ids } = await simLocks(h, ['Room 501'], lock);
    const accountId = await connect(h);
    await importAndPairAll(h, accountId);
    return { ...h, accountId, lockId: ids[0]! };
  }
  const stayOf = (h: Hotel, hours: number) =>
    checkIn(h.staff, {
      roomId: h.rooms[0]!.id,
      checkInAt: new Date(Date.now() - 60_000),
      expectedCheckOutAt: new Date(Date.now() + hours * 3_600_000),
      guests: [{ name: 'Ana Costa', mobile: uniqueMobile() }],
      idempotencyKey: randomUUID(),
    });

  it('a renewal replaces a generated code the guest has not used (never changed: TTLock -3008), and says so', async () => {
    const h = await roomWithLock();
    const stay = await stayOf(h, 26);
    const first = await createPassword(h.staff, { roomId: h.rooms[0]!.id, stayId: stay.id, kind: 'air' });
    const onLock = await passwordIn(first.id, ['on_lock']);
    const renewed = await renewStay(h.staff, { stayId: stay.id, expectedCheckOutAt: new Date(Date.now() + 50 * 3_600_000) });
    expect(renewed.replacedPasswords).toBe(1);
    expect(await passwordIn(first.id, ['removed'])).toMatchObject({ revokeReason: 'replaced' });
    const replacement = await ctx.deps.prisma.lockPassword.findFirstOrThrow({ where: { replacesId: first.id } });
    const newRow = await passwordIn(replacement.id, ['on_lock']);
    expect(newRow.code).not.toBe(onLock.code);
    expect(newRow.validUntil!.getTime()).toBeGreaterThan(onLock.validUntil!.getTime());
    // The lock: the old code is gone, the new one opens; nothing asked the cloud to change a generated code.
    expect(await sc.control('POST', `/locks/${h.lockId}/use`, { passcode: onLock.code })).toMatchObject({ opened: false });
    expect(await sc.control('POST', `/locks/${h.lockId}/use`, { passcode: newRow.code })).toMatchObject({ opened: true });
    expect((await sc.calls({ account: h.account.username })).calls.filter((c) => c.path === 'keyboardPwd/change')).toEqual([]);
    // The stay's list says which code replaced which.
    const listed = await api.query('password.list', { stayId: stay.id, scope: 'all' }, { token: h.staffToken });
    expect(listed.data?.items.find((p) => p.id === replacement.id)).toMatchObject({ replacesId: first.id, code: newRow.code });
    // The legacy renewal says the same, and its password list names the code replaced.
    const again = await legacy.call<{ replaced_passwords: number }>(
      'room/setRenew',
      { stay_id: stay.id, check_out_time: legacyTime(new Date(Date.now() + 74 * 3_600_000), 'Asia/Shanghai') },
      { token: h.legacyToken },
    );
    expect(again.data).toMatchObject({ replaced_passwords: 1 });
    const third = await ctx.deps.prisma.lockPassword.findFirstOrThrow({ where: { replacesId: replacement.id } });
    const legacyList = await legacy.call<{ list: { id: number; replaces_id: number | null; validity_adjusted: number }[] }>(
      'room/passwordList',
      { room_id: h.rooms[0]!.id, tenant_id: stay.id },
      { token: h.legacyToken },
    );
    expect(legacyList.data.list.find((p) => p.id === third.id)).toMatchObject({ replaces_id: replacement.id, validity_adjusted: 0 });
  });

  it('a code for hours a deleted one had: the console knows TTLock refuses them (-1026) and asks at once for the nearest hours it accepts, on that lock only', async () => {
    const h = await hotel(['501', '502']);
    const { ids } = await simLocks(h, ['Room 501', 'Room 502']);
    await importAndPairAll(h, await connect(h));
    const [room501, room502] = h.rooms;
    const from = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
    const until = new Date(from.getTime() + 6 * 3_600_000);
    const first = await createPassword(h.staff, { roomId: room501!.id, kind: 'air', holderName: 'Cleaner', validFrom: from, validUntil: until });
    await passwordIn(first.id, ['on_lock']);
    await revokePassword(h.staff, { id: first.id });
    await passwordIn(first.id, ['removed']);
    const again = await createPassword(h.staff, { roomId: room501!.id, kind: 'air', holderName: 'Cleaner', validFrom: from, validUntil: until });
    const row = await passwordIn(again.id, ['on_lock', 'failed']);
    expect(row).toMatchObject({ deliveryState: 'on_lock', validityAdjusted: true, validFrom: new Date(from.getTime() - 3_600_000), validUntil: until });
    expect(await sc.control('POST', `/locks/${ids[0]}/use`, { passcode: row.code })).toMatchObject({ opened: true });
    // Another lock never had a code for those hours: they are asked for as they are.
    const other = await createPassword(h.staff, { roomId: room502!.id, kind: 'air', holderName: 'Cleaner', validFrom: from, validUntil: until });
    const otherRow = await passwordIn(other.id, ['on_lock', 'failed']);
    expect(otherRow).toMatchObject({ deliveryState: 'on_lock', validityAdjusted: false, validFrom: from, validUntil: until });
    // The lock cloud was never asked for hours the console knew it refuses.
    const gets = async () => (await sc.calls({ account: h.account.username })).calls.filter((c) => c.path === 'keyboardPwd/get');
    expect((await gets()).map((c) => [c.lockId, c.errcode])).toEqual([
      [Number(ids[0]), 0],
      [Number(ids[0]), 0],
      [Number(ids[1]), 0],
    ]);
    // A code deleted without the console (in the TTLock app) is not in its history: TTLock's -1026 still moves it to the nearest hours.
    const app = await sc.as(h.account.username, h.account.password);
    expect(await app.call('keyboardPwd/delete', { lockId: ids[1], keyboardPwdId: otherRow.providerRef, deleteType: 2 })).toMatchObject({ errcode: 0 });
    const third = await createPassword(h.staff, { roomId: room502!.id, kind: 'air', holderName: 'Maid', validFrom: from, validUntil: until });
    expect(await passwordIn(third.id, ['on_lock', 'failed'])).toMatchObject({
      deliveryState: 'on_lock',
      validityAdjusted: true,
      validFrom: new Date(from.getTime() - 3_600_000),
    });
    expect((await gets()).slice(3).map((c) => [c.lockId, c.errcode])).toEqual([
      [Number(ids[1]), -1026],
      [Number(ids[1]), 0],
    ]);
  });

  it('a permanent refusal is not retried: the credential fails at once with its reason', async () => {
    const h = await roomWithLock();
    await sc.control('POST', `/locks/${h.lockId}/failures`, { code: -2018, ops: ['keyboardPwd/add'] });
    const created = await createPassword(h.staff, { roomId: h.rooms[0]!.id, kind: 'custom', code: '481736', holderName: 'Guest' });
    expect(await passwordIn(created.id, ['failed'])).toMatchObject({ lastError: 'permission_denied', attempts: 1 });
    expect((await sc.calls({ account: h.account.username })).calls.filter((c) => c.path === 'keyboardPwd/add')).toHaveLength(1);
  });

  it("the cloud's monthly limit: deliveries wait and say so, and nothing more is asked of the cloud until it lifts", async () => {
    const h = await roomWithLock();
    const used = (await sc.accounts()).find((a) => a.username === h.account.username)!.calls.thisMonth;
    await sc.updateAccount(h.account.username, { monthlyLimit: used });
    const created = await createPassword(h.staff, { roomId: h.rooms[0]!.id, kind: 'custom', code: '639184', holderName: 'Guest' });
    const row = await until('the password to wait for the limit', async () => {
      const r = await passwordRow(created.id);
      return r.lastError === 'monthly_limit' ? r : null;
    });
    expect(row).toMatchObject({ deliveryState: 'pending', attempts: 0 });
    const account = await ctx.deps.prisma.lockAccount.findUniqueOrThrow({ where: { id: h.accountId } });
    expect(account.limitedUntil!.getTime()).toBeGreaterThan(Date.now());
    const list = await api.query('lockAccount.list', undefined, { token: h.ownerToken });
    expect(list.data?.items[0]).toMatchObject({ limitedUntil: account.limitedUntil!.toISOString(), lastError: 'monthly_limit' });
    const before = (await sc.calls({ account: h.account.username })).count;
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    expect((await api.mutation('lock.unlock', { roomId: h.rooms[0]!.id }, { token: h.ownerToken })).error?.message).toBe(
      "Open failed: The lock cloud's monthly call limit is reached: waiting for next month",
    );
    expect((await sc.calls({ account: h.account.username })).count).toBe(before);
  });

  it('cards of a desk reader with the other byte order go by addForReversedCardNumber, and the lock opens for them', async () => {
    const h = await roomWithLock({ cardNumberOrder: 'little' });
    expect((await api.mutation('lockAccount.setSettings', { cardNumberOrder: 'reversed' }, { token: h.ownerToken })).error).toBeUndefined();
    const room = h.rooms[0]!;
    const card = await ctx.deps.prisma.card.create({ data: { hotelId: h.hotel.id, cardNumber: String(0xda3c8a66), kind: 'room', uid: 'DA3C8A66' } });
    const grant = await ctx.deps.prisma.cardGrant.create({
      data: {
        hotelId: h.hotel.id,
        cardId: card.id,
        roomId: room.id,
        medium: 'number',
        validFrom: new Date(Date.now() - 60_000),
        validUntil: new Date(Date.now() + 3_600_000),
      },
    });
    const { afterCredentialChange } = await import('../../credentials/delivery');
    await afterCredentialChange(ctx.deps, h.hotel.id, { roomId: room.id });
    await until(
      'the card on the lock',
      async () => (await ctx.deps.prisma.cardGrant.findUniqueOrThrow({ where: { id: grant.id } })).deliveryState === 'on_lock',
    );
    expect(await sc.useCard(Number(h.lockId), 'DA3C8A66')).toMatchObject({ opened: true });
    expect((await sc.calls({ account: h.account.username })).calls.map((c) => c.path)).toContain('identityCard/addForReversedCardNumber');
  });
});

describe('the call budget', () => {
  it('one gateway list per account per cycle; links and the lock list when they are due; calls counted per account', async () => {
    const h = await hotel(['601', '602', '603', '604', '605']);
    await simLocks(h, ['Room 601', 'Room 602', 'Room 603', 'Room 604', 'Room 605']);
    const accountId = await connect(h);
    await importAndPairAll(h, accountId);
    const paths = async (since: number) => (await sc.calls({ account: h.account.username, since })).calls.map((c) => c.path).sort();
    // Right after the import (which read links and the list): one call for five locks.
    let since = Date.now();
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    expect(await paths(since)).toEqual(['gateway/list']);
    // When the links and the list are due: one more per gateway, and one for the list.
    await ctx.deps.prisma.lockAccount.update({ where: { id: accountId }, data: { linksReadAt: null, locksReadAt: null } });
    since = Date.now();
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    expect(await paths(since)).toEqual(['gateway/list', 'gateway/listLock', 'lock/list']);
    const counts = (await lockCallCounts(ctx.deps, [accountId])).get(accountId)!;
    const simCount = (await sc.accounts()).find((a) => a.username === h.account.username)!.calls.total;
    // The grant and the /v3 calls of this account, counted by the console as the cloud counts them.
    expect(counts.today).toBeGreaterThanOrEqual(simCount);
    const list = await api.query('lockAccount.list', undefined, { token: h.ownerToken });
    expect(list.data?.items[0]).toMatchObject({ calls: { today: counts.today, month: counts.month }, budget: 'ok', locks: { total: 5, paired: 5, gone: 0 } });

    // Over its budget (as if the month had been busy): the background reads stop for the month; what people ask for goes on.
    expect((await api.mutation('lockAccount.setBudget', { accountId, monthlyBudget: 100 }, { token: h.ownerToken })).error).toBeUndefined();
    await countLockCall(ctx.deps, accountId, Date.now(), 100);
    since = Date.now();
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    expect(await paths(since)).toEqual([]);
    expect((await api.query('lockAccount.list', undefined, { token: h.ownerToken })).data?.items[0]?.budget).toBe('over');
    expect(await remoteUnlock(h.owner, { roomId: h.rooms[0]!.id })).toEqual({ opened: true });
    const bad = await api.mutation('lockAccount.setBudget', { accountId, monthlyBudget: 1e308 }, { token: h.ownerToken });
    expect(bad.status).toBe(400);
  });

  it('the password grants of connecting and reconnecting count in the account calls, refused or not, as the cloud logged them', async () => {
    const h = await hotel();
    const accountId = await connect(h);
    const calls = async () => (await api.query('lockAccount.list', undefined, { token: h.ownerToken })).data!.items.find((a) => a.id === accountId)!.calls;
    expect(await calls()).toEqual({ today: 1, month: 1 });
    const wrong = await api.mutation('lockAccount.reconnect', { accountId, password: 'not the password' }, { token: h.ownerToken });
    expect(wrong.error?.message).toBeDefined();
    expect(await calls()).toEqual({ today: 2, month: 2 });
    expect((await api.mutation('lockAccount.reconnect', { accountId, password: h.account.password }, { token: h.ownerToken })).error).toBeUndefined();
    expect(await calls()).toEqual({ today: 3, month: 3 });
    // The same grants in the cloud's log of the account; nothing else was asked.
    expect((await sc.calls({ account: h.account.username })).calls.map((c) => [c.path, c.errcode])).toEqual([
      ['oauth2/token', 0],
      ['oauth2/token', 10007],
      ['oauth2/token', 0],
    ]);
  });
});

describe('notifications of the lock cloud', () => {
  it('gateway and WiFi lock online or offline into the status, the door sensor into lock messages', async () => {
    const h = await hotel(['701', '702']);
    const { ids, gatewayId } = await simLocks(h, ['Room 701']);
    const { lock: wifi } = await sc.control<{ lock: { lockId: number } }>('POST', '/locks', {
      account: h.account.username,
      name: 'Room 702',
      wifi: true,
      doorSensor: true,
    });
    const accountId = await connect(h);
    await importAndPairAll(h, accountId);
    await sc.control('PATCH', `/gateways/${gatewayId}`, { online: false });
    await until('the gateway notification', async () => (await getRoomLock(h.owner, { roomId: h.rooms[0]!.id })).online === false);
    // The message is written beside the status, not with it: waited for, not read at once (a loaded machine saw the status first).
    await until('the lock offline message', async () =>
      (await listLockMessages(h.owner, { roomId: h.rooms[0]!.id })).items.some((m) => m.kind === 'lock_offline'),
    );
    expect(ids).toHaveLength(1);

    await sc.control('PATCH', `/locks/${wifi.lockId}`, { online: false });
    await until('the WiFi lock notification', async () => (await getRoomLock(h.owner, { roomId: h.rooms[1]!.id })).online === false);
    await sc.door(wifi.lockId, 'open');
    await sc.door(wifi.lockId, 'left_open');
    const messages = await until('the door messages', async () => {
      const m = await listLockMessages(h.owner, { roomId: h.rooms[1]!.id });
      return m.items.some((i) => i.kind === 'door_left_open') ? m : null;
    });
    expect(
      messages.items
        .filter((m) => m.kind.startsWith('door_'))
        .map((m) => [m.kind, m.read])
        .sort(),
    ).toEqual([
      ['door_left_open', false],
      ['door_open', true],
    ]);
  });
});
