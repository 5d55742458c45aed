import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, actorContext, testMeta, type TestContext } from '../../test/harness';
import { createAccount, createHotel, createRooms } from '../../test/factories';
import { trpcClient } from '../../test/trpc-client';
import { listAccountHotels, switchHotel } from './auth.service';
import { createSession } from './session.service';

/**
 * Accounts of several hotels switch hotel (issue 9 §1): the session carries the hotel, so after a
 * switch every request of that session works in the other hotel, with the account's role there;
 * the account's other sessions stay where they were. A hotel the account does not belong to (or is
 * frozen in) is "not found"; an API key never switches.
 */

let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;

beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
});
afterAll(() => ctx.close());

/** An account that is the owner of hotel A (its first membership) and a staff member of hotel B, each hotel with a room of its own. */
async function twoHotels() {
  const a = await createHotel(ctx.deps, `Harbour ${Date.now()}`);
  const b = await createHotel(ctx.deps, `Hillside ${Date.now()}`);
  const account = await createAccount(ctx.deps, { hotelId: a.id, role: 'owner' });
  await ctx.deps.prisma.membership.create({ data: { accountId: account.id, hotelId: b.id, role: 'staff' } });
  await ctx.deps.prisma.hotel.update({ where: { id: b.id }, data: { timeZone: 'Europe/Paris', currency: 'EUR' } });
  await createRooms(ctx.deps, a.id, ['A-101', 'A-102']);
  await createRooms(ctx.deps, b.id, ['B-201']);
  const session = async () => (await createSession(ctx.deps, { accountId: account.id, hotelId: a.id, kind: 'web', meta: testMeta() })).token;
  return { a, b, account, token: await session(), otherToken: await session() };
}

const roomNames = async (token: string) => (await api.query('room.list', { page: 1, pageSize: 50 }, { token })).data?.items.map((r) => r.name).sort();

describe('the hotels of an account', () => {
  it('lists every hotel of the account with its role, oldest first, the current one marked', async () => {
    const w = await twoHotels();
    const res = await api.query('auth.hotels', undefined, { token: w.token });
    expect(res.data).toEqual([
      { id: w.a.id, name: w.a.name, role: 'owner', current: true },
      { id: w.b.id, name: w.b.name, role: 'staff', current: false },
    ]);
    const me = await api.query('auth.me', undefined, { token: w.token });
    expect(me.data).toMatchObject({ hotel: { id: w.a.id }, hotelCount: 2 });
  });

  it('lists only its own hotel for an account of one hotel', async () => {
    const hotel = await createHotel(ctx.deps);
    const account = await createAccount(ctx.deps, { hotelId: hotel.id });
    const { token } = await createSession(ctx.deps, { accountId: account.id, hotelId: hotel.id, kind: 'web', meta: testMeta() });
    expect((await api.query('auth.hotels', undefined, { token })).data).toEqual([{ id: hotel.id, name: hotel.name, role: 'owner', current: true }]);
    expect((await api.query('auth.me', undefined, { token })).data?.hotelCount).toBe(1);
  });
});

describe('switching hotel', () => {
  it('moves the session to hotel B: the rooms, role, time zone and currency of B, and back to A', async () => {
    const w = await twoHotels();
    expect(await roomNames(w.token)).toEqual(['A-101', 'A-102']);

    const switched = await api.mutation('auth.switchHotel', { hotelId: w.b.id }, { token: w.token });
    expect(switched.status).toBe(200);
    expect(switched.data).toMatchObject({
      id: w.account.id,
      role: 'staff',
      hotel: { id: w.b.id, name: w.b.name, timeZone: 'Europe/Paris', currency: 'EUR' },
      hotelCount: 2,
    });
    expect(switched.data?.permissions).not.toContain('staff.manage');
    // The same token: the session itself now works in B.
    expect(switched.setCookie).toBeUndefined();
    expect(await roomNames(w.token)).toEqual(['B-201']);
    expect((await api.query('auth.me', undefined, { token: w.token })).data).toMatchObject({ role: 'staff', hotel: { id: w.b.id } });
    expect((await api.query('auth.hotels', undefined, { token: w.token })).data?.map((h) => [h.id, h.current])).toEqual([
      [w.a.id, false],
      [w.b.id, true],
    ]);
    // A staff member in B: what only owners may do is refused there.
    expect((await api.query('staff.list', { page: 1, pageSize: 20 }, { token: w.token })).error?.data.app?.code).toBe('FORBIDDEN');
    // A room of A is "not found" from B.
    const roomA = await ctx.deps.prisma.room.findFirstOrThrow({ where: { hotelId: w.a.id, name: 'A-101' } });
    expect((await api.query('room.get', { id: roomA.id }, { token: w.token })).error?.data.app?.code).toBe('NOT_FOUND');

    const back = await api.mutation('auth.switchHotel', { hotelId: w.a.id }, { token: w.token });
    expect(back.data).toMatchObject({ role: 'owner', hotel: { id: w.a.id } });
    expect(await roomNames(w.token)).toEqual(['A-101', 'A-102']);
  });

  it('switches only the session that asks: another session of the same account stays in A', async () => {
    const w = await twoHotels();
    await api.mutation('auth.switchHotel', { hotelId: w.b.id }, { token: w.token });
    expect(await roomNames(w.token)).toEqual(['B-201']);
    expect(await roomNames(w.otherToken)).toEqual(['A-101', 'A-102']);
    expect((await api.query('auth.me', undefined, { token: w.otherToken })).data?.hotel.id).toBe(w.a.id);
  });

  it('records the switch in the audit log of both hotels, each entry naming only its own hotel', async () => {
    const w = await twoHotels();
    const res = await api.mutation('auth.switchHotel', { hotelId: w.b.id }, { token: w.token });
    expect(res.status).toBe(200);
    const entries = await ctx.deps.prisma.auditLog.findMany({
      where: { actorAccountId: w.account.id, action: { startsWith: 'auth.hotel.' } },
      orderBy: { id: 'asc' },
    });
    expect(entries.map((e) => [e.action, e.hotelId, e.entityType])).toEqual([
      ['auth.hotel.leave', w.a.id, 'Session'],
      ['auth.hotel.enter', w.b.id, 'Session'],
    ]);
    for (const e of entries) expect(JSON.stringify([e.before, e.after])).not.toMatch(new RegExp(`"hotelId":`));
    // Switching to the hotel the session is already in changes and records nothing.
    await api.mutation('auth.switchHotel', { hotelId: w.b.id }, { token: w.token });
    expect(await ctx.deps.prisma.auditLog.count({ where: { actorAccountId: w.account.id, action: { startsWith: 'auth.hotel.' } } })).toBe(2);
  });

  it('refuses a hotel the account does not belong to as "not found", and the session stays in A', async () => {
    const w = await twoHotels();
    const stranger = await createHotel(ctx.deps);
    const res = await api.mutation('auth.switchHotel', { hotelId: stranger.id }, { token: w.token });
    expect(res.error?.data.app).toMatchObject({ code: 'NOT_FOUND', errno: 100005, message: 'The record does not exist or has been deleted.' });
    // The same answer as a hotel that does not exist at all.
    const none = await api.mutation('auth.switchHotel', { hotelId: 2_000_000_000 }, { token: w.token });
    expect(none.error?.data.app).toEqual(res.error?.data.app);
    expect(await roomNames(w.token)).toEqual(['A-101', 'A-102']);
    expect(await ctx.deps.prisma.auditLog.count({ where: { actorAccountId: w.account.id, action: { startsWith: 'auth.hotel.' } } })).toBe(0);
  });

  it('refuses a hotel whose membership was removed, and a frozen account, as "not found"', async () => {
    const w = await twoHotels();
    await ctx.deps.prisma.membership.delete({ where: { accountId_hotelId: { accountId: w.account.id, hotelId: w.b.id } } });
    expect((await api.mutation('auth.switchHotel', { hotelId: w.b.id }, { token: w.token })).error?.data.app?.code).toBe('NOT_FOUND');

    // Freezing acts on the account and ends its sessions; a request already past its session check
    // when the account is frozen (the freeze written here without ending the sessions) still cannot switch.
    const v = await twoHotels();
    const signedIn = await actorContext(ctx.deps, v.token);
    await ctx.deps.prisma.account.update({ where: { id: v.account.id }, data: { frozenAt: new Date() } });
    await expect(switchHotel(signedIn, { hotelId: v.b.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await listAccountHotels(signedIn)).toEqual([]);
    expect((await ctx.deps.prisma.session.findFirstOrThrow({ where: { accountId: v.account.id } })).hotelId).toBe(v.a.id);
    // Through the API the frozen account is stopped before that.
    expect((await api.mutation('auth.switchHotel', { hotelId: v.b.id }, { token: v.token })).error?.data.app?.code).toBe('ACCOUNT_FROZEN');
  });

  it('never lets an API key list or switch hotels', async () => {
    const w = await twoHotels();
    const signedIn = await actorContext(ctx.deps, w.token);
    const asKey = { ...signedIn, actor: { ...signedIn.actor, apiKeyId: 1 } };
    await expect(switchHotel(asKey, { hotelId: w.b.id })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(listAccountHotels(asKey)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await ctx.deps.prisma.session.findUniqueOrThrow({ where: { id: signedIn.actor.sessionId } })).hotelId).toBe(w.a.id);
  });

  it('refuses a revoked session', async () => {
    const w = await twoHotels();
    await api.mutation('auth.logout', undefined, { token: w.token });
    expect((await api.mutation('auth.switchHotel', { hotelId: w.b.id }, { token: w.token })).error?.data.app?.code).toBe('UNAUTHENTICATED');
    const signedIn = await actorContext(ctx.deps, w.otherToken);
    await ctx.deps.prisma.session.updateMany({ where: { accountId: w.account.id }, data: { revokedAt: new Date() } });
    await expect(switchHotel(signedIn, { hotelId: w.b.id })).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});
