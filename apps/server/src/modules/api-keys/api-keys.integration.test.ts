import { randomUUID } from 'node:crypto';
import type { TPermission } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness';
import { createHotelWithStaff, createRooms } from '../../test/factories';
import { gatewayClient } from '../../test/gateway-client';
import { legacyClient } from '../../test/legacy-client';
import { trpcClient } from '../../test/trpc-client';

/**
 * Third-party API keys (issue 9 §2) on every face: made by an owner with apiKeyAuth (tRPC and
 * legacy `user/apikey`), shown once and kept as a hash, usable in place of a session on the
 * card-service gateway and the legacy protocol within its hotel and its permissions, audited with
 * the key as actor, refused at once once revoked or expired.
 */
let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;
let gw: ReturnType<typeof gatewayClient>;
let ipCounter = 0;
const legacy = () => legacyClient(ctx.app, ctx.config, { language: 'en', ip: `10.77.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });

beforeAll(async () => {
  ctx = await createTestContext({ locks: null });
  api = trpcClient(ctx.app);
  gw = gatewayClient(ctx.app);
});
afterAll(async () => {
  await ctx?.close();
});

interface Made {
  key: string;
  apiKey: { id: number; prefix: string; permissions: string[]; state: string; lastUsedAt: string | null };
}

/** A hotel whose owner may manage keys, with two rooms. */
async function hotel() {
  const h = await createHotelWithStaff(ctx.deps);
  await ctx.deps.prisma.membership.updateMany({ where: { hotelId: h.hotel.id, accountId: h.owner.id }, data: { apiKeyAuth: true } });
  const prefix = `K${randomUUID().slice(0, 5)}`;
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, [`${prefix}-1`, `${prefix}-2`]);
  return { ...h, rooms, prefix };
}

async function makeKey(token: string, permissions: TPermission[], extra: Record<string, unknown> = {}) {
  const res = await api.mutation('apiKey.create', { name: 'Channel manager', permissions, ...extra }, { token });
  expect(res.status).toBe(200);
  return res.data as Made;
}

describe('third-party API keys', () => {
  it('is shown once, kept hashed, and works on the gateway and the legacy protocol in its hotel, audited as the key', async () => {
    const h = await hotel();
    const made = await makeKey(h.ownerToken, ['room.read', 'stay.manage']);
    expect(made.key).toMatch(/^slk_[A-Za-z0-9_-]{43}$/);
    expect(made.apiKey).toMatchObject({ prefix: made.key.slice(0, 12), permissions: ['room.read', 'stay.manage'], state: 'active', lastUsedAt: null });
    const stored = await ctx.deps.prisma.apiKey.findUniqueOrThrow({ where: { id: made.apiKey.id } });
    expect(JSON.stringify(stored)).not.toContain(made.key);
    // The list never shows the key again.
    const list = await api.query('apiKey.list', { page: 1, pageSize: 20 }, { token: h.ownerToken });
    expect(JSON.stringify(list.data)).not.toContain(made.key);
    expect((list.data as { items: { id: number }[] }).items.map((k) => k.id)).toEqual([made.apiKey.id]);

    // The gateway: the hotel's rooms, as with a session.
    const rooms = await gw.get<{ hotelId: number; items: { roomName: string }[] }>('/linQuan/getRoomListByHotelId', { search: h.prefix }, { token: made.key });
    expect(rooms).toMatchObject({ code: 200, data: { hotelId: h.hotel.id } });
    expect(rooms.data.items.map((r) => r.roomName).sort()).toEqual([`${h.prefix}-1`, `${h.prefix}-2`]);
    // The legacy protocol, in place of a session token.
    const legacyRooms = await legacy().call<{ total: number }>('room/listNew', { keyword: h.prefix }, { token: made.key });
    expect(legacyRooms).toMatchObject({ errno: 0, data: { total: 2 } });

    // A change made with the key is audited with the key as actor, through its face.
    expect(await legacy().call('room/setRoomStatus', { room_id: h.rooms[0]!.id, status: 'dirty' }, { token: made.key })).toMatchObject({ errno: 0 });
    const changed = await ctx.deps.prisma.auditLog.findMany({
      where: { hotelId: h.hotel.id, entityType: 'Room', entityId: String(h.rooms[0]!.id) },
      select: { actorType: true, actorApiKeyId: true, actorAccountId: true, channel: true },
    });
    expect(changed.length).toBeGreaterThan(0);
    for (const entry of changed) expect(entry).toEqual({ actorType: 'api_key', actorApiKeyId: made.apiKey.id, actorAccountId: null, channel: 'legacy' });
    const after = await api.query('apiKey.list', { page: 1, pageSize: 20 }, { token: h.ownerToken });
    expect((after.data as { items: { lastUsedAt: string | null }[] }).items[0]!.lastUsedAt).not.toBeNull();
    const create = await ctx.deps.prisma.auditLog.findFirstOrThrow({
      where: { entityType: 'ApiKey', entityId: String(made.apiKey.id), action: 'apikey.create' },
    });
    expect(create).toMatchObject({ actorType: 'account', actorAccountId: h.owner.id, hotelId: h.hotel.id, channel: 'console' });
  });

  it('acts only within its permissions, never as its maker, and cannot change an account', async () => {
    const h = await hotel();
    const readOnly = await makeKey(h.ownerToken, ['room.read']);
    // Reading rooms, yes; changing a room's status (stay.manage), no.
    expect(await gw.get('/linQuan/getRoomListByHotelId', {}, { token: readOnly.key })).toMatchObject({ code: 200 });
    const refused = await legacy().call('room/setRoomStatus', { room_id: h.rooms[0]!.id, status: 'dirty' }, { token: readOnly.key });
    expect(refused.errno).not.toBe(0);
    expect((await ctx.deps.prisma.room.findUniqueOrThrow({ where: { id: h.rooms[0]!.id } })).cleanStatus).not.toBe('dirty');
    // Its maker's password and session are not the key's to touch.
    const { TEST_PASSWORD } = await import('../../test/factories');
    const password = await legacy().call(
      'setting/updatePassword',
      { oldPassword: TEST_PASSWORD, newPassword: 'Another#Pass42', confirmPassword: 'Another#Pass42' },
      { token: readOnly.key },
    );
    expect(password.errno).not.toBe(0);
    expect(await ctx.deps.prisma.auditLog.count({ where: { actorApiKeyId: readOnly.apiKey.id, action: 'auth.password.change' } })).toBe(0);
    // Staff or key management is never in a key's scope.
    const beyond = await api.mutation('apiKey.create', { name: 'Too much', permissions: ['staff.manage'] }, { token: h.ownerToken });
    expect(beyond.status).toBe(400);
  });

  it('is made and listed over the legacy protocol too (user/apikey, user/apiKeyList), its times in the hotel zone', async () => {
    const h = await hotel();
    const token = (await legacySession(h)).token;
    const made = await legacy().call<{ id: number; api_key: string; prefix: string; scope: string[]; status: string; expire_time: string }>(
      'user/apikey',
      { name: 'PMS link', scope: 'room.read,stay.manage', expire_time: '2099-01-01 12:00:00' },
      { token },
    );
    expect(made).toMatchObject({
      errno: 0,
      data: { prefix: made.data.api_key.slice(0, 12), scope: ['room.read', 'stay.manage'], status: 'active', expire_time: '2099-01-01 12:00:00' },
    });
    expect(await gw.get('/linQuan/getRoomListByHotelId', {}, { token: made.data.api_key })).toMatchObject({ code: 200 });
    const list = await legacy().call<{ total: number; list: { id: number; api_key?: string }[]; scopes: string[] }>(
      'user/apiKeyList',
      { page: 1, limit: 20 },
      { token },
    );
    expect(list).toMatchObject({ errno: 0, data: { total: 1, list: [{ id: made.data.id }] } });
    expect(list.data.list[0]!.api_key).toBeUndefined();
    expect(list.data.scopes).not.toContain('staff.manage');
    // A scope nobody may give, and no scope at all, are refused with the field named.
    const bad = await legacy().call('user/apikey', { name: 'x', scope: [] }, { token });
    expect(bad.errno).not.toBe(0);
    // Staff may not.
    const staffSession = await (
      await import('../auth/session.service')
    ).createSession(ctx.deps, { accountId: h.staff.id, hotelId: h.hotel.id, kind: 'legacy', meta: (await import('../../test/harness')).testMeta() });
    expect((await legacy().call('user/apiKeyList', {}, { token: staffSession.token })).errno).not.toBe(0);
  });

  it('is refused at once when revoked, and once it has expired', async () => {
    const h = await hotel();
    const made = await makeKey(h.ownerToken, ['room.read']);
    expect(await gw.get('/linQuan/getRoomListByHotelId', {}, { token: made.key })).toMatchObject({ code: 200 });
    const revoked = await legacy().call<{ status: string }>('user/apiKeyDel', { id: made.apiKey.id }, { token: (await legacySession(h)).token });
    expect(revoked).toMatchObject({ errno: 0, data: { status: 'revoked' } });
    expect((await gw.get('/linQuan/getRoomListByHotelId', {}, { token: made.key })).code).not.toBe(200);
    expect((await legacy().call('room/listNew', {}, { token: made.key })).errno).not.toBe(0);
    // Listed as revoked only when asked for every key.
    expect((await api.query('apiKey.list', { page: 1, pageSize: 20 }, { token: h.ownerToken })).data).toMatchObject({ total: 0 });
    expect((await api.query('apiKey.list', { page: 1, pageSize: 20, all: true }, { token: h.ownerToken })).data).toMatchObject({
      total: 1,
      items: [{ state: 'revoked' }],
    });
    expect((await api.mutation('apiKey.revoke', { id: made.apiKey.id }, { token: h.ownerToken })).status).toBe(409);

    const soon = await makeKey(h.ownerToken, ['room.read'], { expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect(await gw.get('/linQuan/getRoomListByHotelId', {}, { token: soon.key })).toMatchObject({ code: 200 });
    await ctx.deps.prisma.apiKey.update({ where: { id: soon.apiKey.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await gw.get('/linQuan/getRoomListByHotelId', {}, { token: soon.key })).code).not.toBe(200);
    const past = await api.mutation(
      'apiKey.create',
      { name: 'Old', permissions: ['room.read'], expiresAt: new Date(Date.now() - 60_000).toISOString() },
      { token: h.ownerToken },
    );
    expect(past.status).toBe(400);
  });

  it("is the owner's with apiKeyAuth only, and never reaches another hotel", async () => {
    const a = await hotel();
    const b = await hotel();
    const made = await makeKey(a.ownerToken, ['room.read']);
    // Staff, and an owner without the flag, may not manage keys.
    expect((await api.query('apiKey.list', { page: 1, pageSize: 20 }, { token: a.staffToken })).status).toBe(403);
    await ctx.deps.prisma.membership.updateMany({ where: { hotelId: b.hotel.id, accountId: b.owner.id }, data: { apiKeyAuth: false } });
    expect((await api.mutation('apiKey.create', { name: 'x', permissions: ['room.read'] }, { token: b.ownerToken })).status).toBe(403);
    await ctx.deps.prisma.membership.updateMany({ where: { hotelId: b.hotel.id, accountId: b.owner.id }, data: { apiKeyAuth: true } });
    // Hotel B neither sees nor revokes A's key; A's key does not read B's rooms.
    expect((await api.query('apiKey.list', { page: 1, pageSize: 20, all: true }, { token: b.ownerToken })).data).toMatchObject({ total: 0 });
    expect((await api.mutation('apiKey.revoke', { id: made.apiKey.id }, { token: b.ownerToken })).status).toBe(404);
    expect((await gw.get('/linQuan/getRoomListByHotelId', { hotelId: b.hotel.id }, { token: made.key })).code).not.toBe(200);
    const aRooms = await gw.get<{ hotelId: number; items: { roomName: string }[] }>('/linQuan/getRoomListByHotelId', { search: b.prefix }, { token: made.key });
    expect(aRooms.data).toMatchObject({ hotelId: a.hotel.id, items: [] });
  });
});

/** A legacy session of the hotel's owner. */
async function legacySession(h: Awaited<ReturnType<typeof hotel>>) {
  const { createSession } = await import('../auth/session.service');
  const { testMeta } = await import('../../test/harness');
  return createSession(ctx.deps, { accountId: h.owner.id, hotelId: h.hotel.id, kind: 'legacy', meta: testMeta() });
}
