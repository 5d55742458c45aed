import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHotelWithStaff, createRooms, TEST_PASSWORD } from '../../../test/factories';
import { legacyClient } from '../../../test/legacy-client';
import { type TestContext } from '../../../test/harness';
import { SEAM_SEED, type SeamFake } from '../../../test/seam-fake';
import { seamTestContext, type SeamTestContext } from '../../../test/seam-context';
import { trpcClient } from '../../../test/trpc-client';
import { openSeamKey, sealSeamKey } from '../../lock-cloud/seam-key';

/**
 * Issue 38, second step (docs/seam.md, "Lock accounts"): a hotel connects its own Seam workspace
 * with its API key, and its locks come in and pair with rooms as a TTLock account's do. Against
 * Seam's own fake (test/seam-fake.ts, a child process), the real database, through tRPC as the web
 * console calls it. The install's TTLock cloud is the simulator's settings at an address nothing
 * answers: no TTLock call is made here.
 */
let seam: SeamTestContext;
let fake: SeamFake;
let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;

beforeAll(async () => {
  seam = await seamTestContext();
  ({ fake, ctx } = seam);
  api = trpcClient(ctx.app);
});

afterAll(() => seam?.close());

async function hotel(roomNames: string[] = []) {
  const h = await createHotelWithStaff(ctx.deps);
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, roomNames);
  return { ...h, rooms };
}
type Hotel = Awaited<ReturnType<typeof hotel>>;

async function connectSeam(h: Hotel, apiKey: string, label = '') {
  const res = await api.mutation('lockAccount.connectSeam', { apiKey, label }, { token: h.ownerToken });
  expect(res.error, JSON.stringify(res.error)).toBeUndefined();
  return res.data!.id;
}

async function importLocks(h: Hotel, accountId: number) {
  const res = await api.mutation('lockAccount.importLocks', { accountId }, { token: h.ownerToken });
  expect(res.error, JSON.stringify(res.error)).toBeUndefined();
  return res.data!;
}

const seamLocks = (h: Hotel) => ctx.deps.prisma.lock.findMany({ where: { hotelId: h.hotel.id }, orderBy: { providerLockId: 'asc' } });

describe('a Seam workspace as a lock account', () => {
  it('is connected with its API key, checked once against Seam, kept sealed and never answered back; its locks come in and pair with rooms', async () => {
    const h = await hotel(['101', '102']);
    const accountId = await connectSeam(h, SEAM_SEED.apiKey);
    const row = await ctx.deps.prisma.lockAccount.findUniqueOrThrow({ where: { id: accountId } });
    expect(row).toMatchObject({ hotelId: h.hotel.id, provider: 'seam', kind: 'seam', username: SEAM_SEED.workspaceId, state: 'connected', lastError: null });
    // Sealed: the key is not in the row, and the sealed value opens to it (bound to this account only).
    expect(row.tokensSealed).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(SEAM_SEED.apiKey);
    expect(openSeamKey(ctx.config.cardKeySecret, row, row.tokensSealed)?.apiKey).toBe(SEAM_SEED.apiKey);
    expect(openSeamKey(ctx.config.cardKeySecret, { id: row.id + 1, hotelId: row.hotelId }, row.tokensSealed)).toBeNull();
    // The connection's audit entry and domain event, as a TTLock account's; the key in neither.
    const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { hotelId: h.hotel.id, action: 'lockAccount.connect' } });
    expect(audit).toMatchObject({ entityType: 'LockAccount', entityId: String(accountId) });
    expect(JSON.stringify(audit)).not.toContain(SEAM_SEED.apiKey);
    expect(await ctx.deps.prisma.domainEvent.count({ where: { hotelId: h.hotel.id, kind: 'lock.changed' } })).toBe(1);
    const list = await api.query('lockAccount.list', undefined, { token: h.ownerToken });
    expect(list.data?.items).toMatchObject([{ id: accountId, kind: 'seam', username: SEAM_SEED.workspaceId, state: 'connected' }]);
    expect(JSON.stringify(list.data)).not.toContain(SEAM_SEED.apiKey);

    // Get locks: the seeded locks (no thermostat), with what Seam says they can take.
    expect(await importLocks(h, accountId)).toEqual({ total: 3, added: 3, updated: 0, gone: 0, elsewhere: 0 });
    const locks = await seamLocks(h);
    expect(locks.map((l) => l.providerLockId).sort()).toEqual([...SEAM_SEED.locks].sort());
    for (const lock of locks) {
      expect(lock).toMatchObject({ provider: 'seam', accountId, simulated: true, hasKeypad: true, onlinePasscodes: true, offlinePasscodes: false });
      expect(lock).toMatchObject({ hasCardReader: false, hasFaceModule: false, gatewayId: null });
    }
    // Paired with a room as any lock of the hotel.
    const pair = await api.mutation('lock.pair', { pairs: [{ roomId: h.rooms[0]!.id, lockId: locks[0]!.id }] }, { token: h.ownerToken });
    expect(pair.error, JSON.stringify(pair.error)).toBeUndefined();
    expect(await ctx.deps.prisma.room.findUniqueOrThrow({ where: { id: h.rooms[0]!.id } })).toMatchObject({ lockId: locks[0]!.id });
    expect((await api.query('lockAccount.list', undefined, { token: h.ownerToken })).data?.items[0]?.locks).toEqual({ total: 3, paired: 1, gone: 0 });
    // Getting locks again updates them.
    expect(await importLocks(h, accountId)).toMatchObject({ total: 3, added: 0, updated: 3 });
  });

  it('refuses a key Seam does not accept, on the field, in the language of the request, and keeps nothing', async () => {
    const h = await hotel();
    const wrong = await api.mutation('lockAccount.connectSeam', { apiKey: 'seam_not_a_key', label: '' }, { token: h.ownerToken, lang: 'zh-CN' });
    expect(wrong.error?.data.app).toMatchObject({ code: 'VALIDATION', fields: { apiKey: 'Seam 不接受这个 API 密钥' } });
    const blank = await api.mutation('lockAccount.connectSeam', { apiKey: '  ', label: '' }, { token: h.ownerToken });
    expect(blank.error?.data.app?.fields).toMatchObject({ apiKey: "Enter the workspace's API key" });
    expect(await ctx.deps.prisma.lockAccount.count({ where: { hotelId: h.hotel.id } })).toBe(0);
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: h.hotel.id, action: 'lockAccount.connect' } })).toBe(0);
  });

  it('an empty workspace connects and gets no lock; a lock added to it later comes in and pairs', async () => {
    const h = await hotel(['Suite 7']);
    const accountId = await connectSeam(h, SEAM_SEED.emptyApiKey, 'Annex');
    expect(await ctx.deps.prisma.lockAccount.findUniqueOrThrow({ where: { id: accountId } })).toMatchObject({ username: 'seed_workspace_2', label: 'Annex' });
    expect(await importLocks(h, accountId)).toEqual({ total: 0, added: 0, updated: 0, gone: 0, elsewhere: 0 });
    expect(await seamLocks(h)).toEqual([]);
    expect((await api.query('lock.suggestedPairs', undefined, { token: h.ownerToken })).data?.pairs).toEqual([]);

    const device = await fake.ours.addDevice({
      name: 'Suite 7 door',
      // The name Seam shows (the fake's default is "Smart Device"): the lock's name in its app, as TTLock's alias.
      display_name: 'Suite 7 door',
      workspace_id: 'seed_workspace_2',
      can_program_online_access_codes: true,
      can_program_offline_access_codes: true,
      can_remotely_unlock: true,
      properties: { battery_level: 0.5 },
    });
    expect(await importLocks(h, accountId)).toMatchObject({ total: 1, added: 1 });
    const [lock] = await seamLocks(h);
    expect(lock).toMatchObject({
      providerLockId: device.device_id,
      name: 'Suite 7 door',
      battery: 50,
      onlinePasscodes: true,
      offlinePasscodes: true,
      remoteUnlock: true,
    });
    // The lock list (the lock accounts page, the JSON API) says what it takes.
    const listed = async () => (await api.query('lock.list', {}, { token: h.ownerToken })).data?.items[0]?.capabilities;
    expect(await listed()).toEqual({
      keypad: true,
      onlinePasscodes: true,
      offlinePasscodes: true,
      cardReader: false,
      faceModule: false,
      remoteUnlock: true,
      encodedCards: false,
    });
    // Its bridge gone (Seam no longer unlocks it remotely): the next import says so.
    await fake.ours.updateDevice(device.device_id, { can_remotely_unlock: false, can_program_offline_access_codes: false });
    expect(await importLocks(h, accountId)).toMatchObject({ updated: 1 });
    expect((await seamLocks(h))[0]).toMatchObject({ remoteUnlock: false });
    expect(await listed()).toMatchObject({ keypad: true, onlinePasscodes: true, offlinePasscodes: false, remoteUnlock: false });
    // The lock's name proposes the room, as a TTLock lock's does.
    const { data } = await api.query('lock.suggestedPairs', undefined, { token: h.ownerToken });
    expect(data?.pairs).toEqual([{ roomId: h.rooms[0]!.id, lockId: lock!.id }]);
    expect((await api.mutation('lock.pair', { pairs: data!.pairs }, { token: h.ownerToken })).error).toBeUndefined();
    expect(await ctx.deps.prisma.room.findUniqueOrThrow({ where: { id: h.rooms[0]!.id } })).toMatchObject({ lockId: lock!.id });
  });

  it('takes a device whose name carries a NUL, a lone surrogate or a line break, or whose battery reads 1e308, as a lock with a name it can show', async () => {
    const h = await hotel();
    const workspace = await fake.ours.addWorkspace('Odd names');
    const accountId = await connectSeam(h, workspace.api_key);
    const odd = await fake.ours.addDevice({
      name: 'Door\u0000 7\ud800',
      display_name: 'Door\u0000 7\ud800\nback',
      workspace_id: workspace.workspace_id,
      can_program_online_access_codes: true,
      properties: { battery_level: 1e308 },
    });
    expect(await importLocks(h, accountId)).toMatchObject({ total: 1, added: 1 });
    const [lock] = await seamLocks(h);
    expect(lock!.providerLockId).toBe(odd.device_id);
    // Its name and nickname as Seam gave them, as any text is kept: the NUL out, the lone surrogate U+FFFD, the line break kept.
    expect(lock).toMatchObject({ name: 'Door 7\ufffd', alias: 'Door 7\ufffd\nback' });
    expect(lock!.battery === null || (lock!.battery >= 0 && lock!.battery <= 100)).toBe(true);
    // The board and the lock list show it.
    const listed = await api.query('lock.list', {}, { token: h.ownerToken });
    expect(listed.error, JSON.stringify(listed.error)).toBeUndefined();
    expect(listed.data?.items.map((l) => l.lockId)).toEqual([odd.device_id]);
  });

  it("is the hotel's own: another hotel's account id is not found, and a workspace's lock belongs to the hotel that got it first", async () => {
    const workspace = await fake.ours.addWorkspace('Two hotels');
    await fake.ours.addDevice({ name: 'Shared wing', workspace_id: workspace.workspace_id, can_program_online_access_codes: true });
    const a = await hotel();
    const b = await hotel();
    const accountA = await connectSeam(a, workspace.api_key);
    expect(await importLocks(a, accountA)).toMatchObject({ total: 1, added: 1 });
    for (const [path, input] of [
      ['lockAccount.importLocks', { accountId: accountA }],
      ['lockAccount.disconnect', { accountId: accountA }],
      ['lockAccount.setBudget', { accountId: accountA, monthlyBudget: 5000 }],
    ] as const) {
      const res = await api.mutation(path, input as never, { token: b.ownerToken });
      expect(res.status, path).toBe(404);
      expect(res.error?.message).toBe('This lock account does not exist');
    }
    // Hotel B may connect the same workspace (its own account), but the lock stays hotel A's.
    const accountB = await connectSeam(b, workspace.api_key);
    expect(accountB).not.toBe(accountA);
    expect(await importLocks(b, accountB)).toMatchObject({ total: 1, added: 0, elsewhere: 1 });
    expect(await seamLocks(b)).toEqual([]);
    expect(await ctx.deps.prisma.lockAccount.findUniqueOrThrow({ where: { id: accountA } })).toMatchObject({ state: 'connected' });
  });

  it("a legacy client names a Seam lock by its device id: imported on the spot and paired; another hotel's, an unknown one or no platform's id is refused", async () => {
    const workspace = await fake.ours.addWorkspace('Typed ids');
    const device = await fake.ours.addDevice({ name: 'Typed door', workspace_id: workspace.workspace_id, can_program_online_access_codes: true });
    const a = await hotel(['301']);
    const b = await hotel(['302']);
    await connectSeam(a, workspace.api_key);
    await connectSeam(b, workspace.api_key);
    const legacy = legacyClient(ctx.app, ctx.config);
    const tokenOf = async (h: Hotel) => (await legacy.call<{ token: string }>('login', { mobile: h.owner.mobile, password: TEST_PASSWORD })).data.token;
    const [ta, tb] = [await tokenOf(a), await tokenOf(b)];
    const setLock = (h: Hotel, token: string, lockId: string) =>
      legacy.call('room/setLockData', { room_id: h.rooms[0]!.id, lock_id: lockId }, { token, language: 'en' });

    expect(await setLock(a, ta, device.device_id)).toMatchObject({ errno: 0 });
    const lock = await ctx.deps.prisma.lock.findFirstOrThrow({ where: { hotelId: a.hotel.id, providerLockId: device.device_id } });
    expect(lock).toMatchObject({ provider: 'seam', onlinePasscodes: true, offlinePasscodes: false, remoteUnlock: false });
    expect((await ctx.deps.prisma.room.findUniqueOrThrow({ where: { id: a.rooms[0]!.id } })).lockId).toBe(lock.id);
    // Typed again: the same lock, nothing imported twice.
    expect(await setLock(a, ta, device.device_id)).toMatchObject({ errno: 0 });
    expect(await ctx.deps.prisma.lock.count({ where: { providerLockId: device.device_id } })).toBe(1);
    for (const typed of [device.device_id, randomUUID(), 'LK-1']) {
      expect(await setLock(b, tb, typed), typed).toMatchObject({ errno: 100001, errmsg: `No lock with the id ${typed} is in this hotel's lock accounts` });
    }
    expect((await ctx.deps.prisma.room.findUniqueOrThrow({ where: { id: b.rooms[0]!.id } })).lockId).toBeNull();
  });

  it('the same workspace connected twice at once is one account; connected already, it is refused', async () => {
    const workspace = await fake.ours.addWorkspace('Twice');
    const h = await hotel();
    const both = await Promise.all(
      [0, 1].map(() => api.mutation('lockAccount.connectSeam', { apiKey: workspace.api_key, label: '' }, { token: h.ownerToken })),
    );
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.status === 409)?.error?.message).toBe('The account Twice is already connected to this hotel');
    expect(await ctx.deps.prisma.lockAccount.count({ where: { hotelId: h.hotel.id } })).toBe(1);
    expect((await api.mutation('lockAccount.connectSeam', { apiKey: workspace.api_key, label: '' }, { token: h.ownerToken })).status).toBe(409);
  });

  it('is for owners and administrators signed in; disconnected, its key is dropped, and it is connected again with a key (not a password)', async () => {
    const workspace = await fake.ours.addWorkspace('Again');
    const h = await hotel();
    expect((await api.mutation('lockAccount.connectSeam', { apiKey: workspace.api_key, label: '' }, { token: h.staffToken })).status).toBe(403);
    const accountId = await connectSeam(h, workspace.api_key);
    expect((await api.mutation('lockAccount.disconnect', { accountId }, { token: h.ownerToken })).error).toBeUndefined();
    expect(await ctx.deps.prisma.lockAccount.findUniqueOrThrow({ where: { id: accountId } })).toMatchObject({ state: 'disconnected', tokensSealed: null });
    // Its work cannot reach Seam now.
    const refused = await api.mutation('lockAccount.importLocks', { accountId }, { token: h.ownerToken });
    expect(refused.error?.data.app?.code).toBe('LOCK_FAILED');
    // A TTLock reconnection (a password) is refused; the key connects the same account again.
    const password = await api.mutation('lockAccount.reconnect', { accountId, password: 'x' }, { token: h.ownerToken });
    expect(password.status).toBe(409);
    expect(await connectSeam(h, workspace.api_key)).toBe(accountId);
    expect(await ctx.deps.prisma.lockAccount.findUniqueOrThrow({ where: { id: accountId } })).toMatchObject({
      state: 'connected',
      tokensSealed: expect.stringMatching(/^v1\./),
    });
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: h.hotel.id, action: 'lockAccount.reconnect' } })).toBe(1);
    expect(await importLocks(h, accountId)).toMatchObject({ total: 0 });
  });

  it('a key Seam refuses later (revoked in Seam) makes the account need its key: it is dropped, and its work says why', async () => {
    const workspace = await fake.ours.addWorkspace('Revoked');
    const h = await hotel();
    const accountId = await connectSeam(h, workspace.api_key);
    // The key Seam now refuses: what a key revoked in Seam's console is (the fake has no route that revokes one).
    const row = await ctx.deps.prisma.lockAccount.findUniqueOrThrow({ where: { id: accountId } });
    const revoked = sealSeamKey(ctx.config.cardKeySecret, row, { apiKey: 'seam_revoked_key', sandbox: true });
    await ctx.deps.prisma.lockAccount.update({ where: { id: accountId }, data: { tokensSealed: revoked } });
    ctx.deps.locks!.forget(accountId);
    const refused = await api.mutation('lockAccount.importLocks', { accountId }, { token: h.ownerToken });
    expect(refused.error?.data.app).toMatchObject({ code: 'LOCK_FAILED', details: { reason: 'auth_failed' } });
    await expect
      .poll(() => ctx.deps.prisma.lockAccount.findUniqueOrThrow({ where: { id: accountId } }))
      .toMatchObject({
        state: 'needs_password',
        lastError: 'auth_failed',
        tokensSealed: null,
      });
    // The workspace's key again connects it.
    expect(await connectSeam(h, workspace.api_key)).toBe(accountId);
    expect(await importLocks(h, accountId)).toMatchObject({ total: 0 });
  });
});
