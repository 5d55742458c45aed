import { randomUUID } from 'node:crypto';
import { startLockSim, type LockSim } from '@console/lock-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, describeAppError } from '../../errors';
import { startWorkers } from '../../jobs/workers';
import { actorContext, createTestContext, testLockIdBase, testMeta, type TestContext } from '../../test/harness';
import { pairSimLock, simLockAccount } from '../../test/lock-factories';
import { lockOfTypedIdIn } from '../locks/accounts/pairing.service';
import { setSharedDoor } from '../shared-doors/shared-door.service';
import { createHotelWithStaff, createRooms, uniqueMobile } from '../../test/factories';
import { createPassword } from '../credentials/password.service';
import { refreshLockStatus } from '../locks/lock.service';
import { pollLockRecords } from '../locks/records';
import { checkIn } from '../stay/check-in';
import { checkOut } from '../stay/check-out';
import { renewStay } from '../stay/renewal';
import { changeRoom } from '../stay/room-change';
import { listUnlockRecords } from '../unlock/unlock-record.service';
import { ensureKeyLink, getKeyLink, hashKeyToken, regenerateKeyLink, revokeKeyLink } from './key-link';
import { openByKeyPage, viewKeyPage } from './key-page.service';
import { tellGuestOfPassword } from '../messages/on-lock';

/**
 * The guest's key page (issue 20 §4) against apps/lock-sim: what a link shows, the door it opens,
 * and everything it must refuse alike (unknown, revoked, ended, another stay's or hotel's door).
 */
let sim: LockSim;
let ctx: TestContext;
let workers: ReturnType<typeof startWorkers>;
let serverUrl: string;
const PUBLIC_URL = 'https://hotel.example.test';

async function control<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${sim.url}/sim${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as T;
  if (!response.ok) throw new Error(`control ${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

async function pairedRooms(names = 1) {
  const h = await createHotelWithStaff(ctx.deps);
  const { gateway } = await control<{ gateway: { gatewayId: number } }>('POST', '/gateways', {});
  const lockIds: string[] = [];
  const roomNames: string[] = [];
  for (let i = 0; i < names; i++) {
    const { lock } = await control<{ lock: { lockId: number } }>('POST', '/locks', { gatewayId: gateway.gatewayId, battery: 80 });
    lockIds.push(String(lock.lockId));
    roomNames.push(`K${lock.lockId}`);
  }
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, roomNames);
  for (let i = 0; i < names; i++) await pairSimLock(ctx.deps, h.hotel.id, rooms[i]!.id, Number(lockIds[i]));
  await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { address: '1 Harbour Road, Qingdao', tel: '+86 532 0000 0000' } });
  await ctx.deps.prisma.room.update({ where: { id: rooms[0]!.id }, data: { notice: 'Lift to the 3rd floor, turn left.' } });
  await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
  const staff = await actorContext(ctx.deps, h.staffToken);
  const owner = await actorContext(ctx.deps, h.ownerToken);
  return { ...h, rooms, lockIds, gatewayId: gateway.gatewayId, staff, owner };
}

const guestCtx = () => ({ deps: ctx.deps, meta: testMeta({ ip: `203.0.113.${Math.floor(Math.random() * 250)}` }) });

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
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

async function stayIn(d: Awaited<ReturnType<typeof pairedRooms>>, roomIndex = 0, options: { code?: string; startsIn?: number; mobile?: string } = {}) {
  const starts = Date.now() + (options.startsIn ?? -60_000);
  const stay = await checkIn(d.staff, {
    roomId: d.rooms[roomIndex]!.id,
    checkInAt: new Date(starts),
    expectedCheckOutAt: new Date(starts + 26 * 3_600_000),
    guests: [{ name: 'Mei Chen', mobile: options.mobile ?? uniqueMobile() }],
    idempotencyKey: randomUUID(),
  });
  if (options.code) {
    const password = await createPassword(d.staff, { roomId: d.rooms[roomIndex]!.id, stayId: stay.id, kind: 'custom', code: options.code });
    await until(
      'the code on the lock',
      async () => (await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: password.id } })).deliveryState === 'on_lock',
    );
  }
  const link = await regenerateKeyLink(d.staff, { stayId: stay.id });
  const token = link.link.path.slice('/k/'.length);
  return { stay, token, link: link.link };
}

const notFound = async (promise: Promise<unknown>) => {
  const error = await appError(promise);
  expect(error.code).toBe('NOT_FOUND');
  expect(error.options.messageKey).toBe('keyPage.errors.notFound');
};

beforeAll(async () => {
  sim = await startLockSim({ latencyMs: [5, 15], callbackRetryDelaysMs: [100, 300], lockIdBase: testLockIdBase() });
  ctx = await createTestContext({ sim, env: { LOCK_DELIVERY_ATTEMPTS: '3', LOCK_DELIVERY_BACKOFF_MS: '100', PUBLIC_URL } });
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

describe('the key link', () => {
  it('is 256 random bits kept only as a hash (and sealed), absolute under PUBLIC_URL, one live link per visit', async () => {
    const d = await pairedRooms();
    const { stay, token, link } = await stayIn(d);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(link.url).toBe(`${PUBLIC_URL}/k/${token}`);
    expect(link.valid).toBe(true);
    expect(link.expiresAt).toBe(stay.expectedCheckOutAt);
    const rows = await ctx.deps.prisma.keyLink.findMany({ where: { hotelId: d.hotel.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(hashKeyToken(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect((await getKeyLink(d.staff, { stayId: stay.id })).link?.path).toBe(`/k/${token}`);
    // Made on demand (a message) it is the same live link; two at once make one.
    const [a, b] = await Promise.all([ensureKeyLink(ctx.deps, d.hotel.id, stay.id), ensureKeyLink(ctx.deps, d.hotel.id, stay.id)]);
    expect([a?.token, b?.token]).toEqual([token, token]);
  });

  it('makes one link when two "make a new one" come at once, each audited; staff of another hotel get "not found"', async () => {
    const d = await pairedRooms();
    const { stay } = await stayIn(d);
    const results = await Promise.allSettled([regenerateKeyLink(d.staff, { stayId: stay.id }), regenerateKeyLink(d.staff, { stayId: stay.id })]);
    expect(results.some((r) => r.status === 'fulfilled')).toBe(true);
    expect(await ctx.deps.prisma.keyLink.count({ where: { hotelId: d.hotel.id, revokedAt: null } })).toBe(1);
    const audits = await ctx.deps.prisma.auditLog.count({ where: { hotelId: d.hotel.id, action: 'keyPage.regenerate' } });
    expect(audits).toBe(1 + results.filter((r) => r.status === 'fulfilled').length);

    const other = await pairedRooms();
    for (const call of [getKeyLink, regenerateKeyLink, revokeKeyLink]) {
      expect((await appError(call(other.owner, { stayId: stay.id }))).code).toBe('NOT_FOUND');
    }
  });
});

it('makes the link a message needs while the clerk makes a new one, neither failing (they once deadlocked and the guest was never told the code)', async () => {
  const d = await pairedRooms();
  const { stay } = await stayIn(d);
  for (let round = 0; round < 80; round++) {
    await revokeKeyLink(d.staff, { stayId: stay.id });
    const [made, renewed] = await Promise.all([ensureKeyLink(ctx.deps, d.hotel.id, stay.id), regenerateKeyLink(d.staff, { stayId: stay.id })]);
    expect(made?.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const live = await ctx.deps.prisma.keyLink.findMany({ where: { hotelId: d.hotel.id, revokedAt: null } });
    // Whichever came first, the clerk's new link is the one live.
    expect(live).toHaveLength(1);
    expect(live[0]!.tokenHash).toBe(hashKeyToken(renewed.link.path.slice('/k/'.length)));
  }
});

describe('the page', () => {
  it('shows the hotel, the room, the dates, the confirmed code with its validity, and the door it may open; nothing else', async () => {
    const d = await pairedRooms();
    const { stay, token } = await stayIn(d, 0, { code: '483920', mobile: '+966501234567' });
    const view = await viewKeyPage(guestCtx(), { token });
    expect(view).toMatchObject({
      language: 'ar',
      hotel: { name: d.hotel.name, address: '1 Harbour Road, Qingdao', phone: '+86 532 0000 0000' },
      room: { name: d.rooms[0]!.name, notice: 'Lift to the 3rd floor, turn left.' },
      arrival: stay.checkInAt,
      departure: stay.expectedCheckOutAt,
      state: 'in_house',
      doors: [{ door: 'room', name: d.rooms[0]!.name, canOpen: true }],
    });
    expect(view.hotel.mapUrl).toContain(encodeURIComponent('1 Harbour Road'));
    expect(view.codes.map((c) => c.code)).toEqual(['483920']);
    expect(Object.keys(view).sort()).toEqual(['arrival', 'codes', 'departure', 'doors', 'hotel', 'language', 'room', 'state', 'timeZone']);
  });

  it('answers the same "not found" for an unknown, a malformed, a revoked and an ended link, over HTTP too', async () => {
    const d = await pairedRooms();
    const { stay, token } = await stayIn(d);
    await notFound(viewKeyPage(guestCtx(), { token: 'A'.repeat(43) }));
    await notFound(viewKeyPage(guestCtx(), { token: '%' }));
    await notFound(viewKeyPage(guestCtx(), { token: token.slice(0, 42) + (token.endsWith('A') ? 'B' : 'A') }));

    const http = async (t: string) => {
      const response = await fetch(`${serverUrl}/trpc/keyPage.view?input=${encodeURIComponent(JSON.stringify({ token: t }))}`);
      return { status: response.status, body: (await response.json()) as { error?: { message: string; data: { app: { code: string } } } } };
    };
    expect((await http(token)).status).toBe(200);
    const unknown = await http('B'.repeat(43));
    expect(unknown.status).toBe(404);

    // Renewed: the link lives as long as the stay.
    const later = new Date(new Date(stay.expectedCheckOutAt).getTime() + 24 * 3_600_000);
    await renewStay(d.staff, { stayId: stay.id, expectedCheckOutAt: later });
    expect((await viewKeyPage(guestCtx(), { token })).departure).toBe(later.toISOString());
    expect((await getKeyLink(d.staff, { stayId: stay.id })).link?.expiresAt).toBe(later.toISOString());

    // Revoked: gone at once, and a new link works.
    const fresh = await regenerateKeyLink(d.staff, { stayId: stay.id });
    const freshToken = fresh.link.path.slice(3);
    await notFound(viewKeyPage(guestCtx(), { token }));
    const revoked = await http(token);
    expect(revoked).toEqual({ status: unknown.status, body: unknown.body });
    await viewKeyPage(guestCtx(), { token: freshToken });

    // Checked out: ended.
    await checkOut(d.staff, { stayId: stay.id });
    await notFound(viewKeyPage(guestCtx(), { token: freshToken }));
    await notFound(openByKeyPage(guestCtx(), { token: freshToken }));
    expect((await getKeyLink(d.staff, { stayId: stay.id })).link?.valid).toBe(false);
    expect(describeAppError(await appError(viewKeyPage(guestCtx(), { token: freshToken })), 'zh-CN', ctx.deps.i18n).message).not.toBe(
      'keyPage.errors.notFound',
    );
  });

  it('follows the guest to another room', async () => {
    const d = await pairedRooms(2);
    const { stay, token } = await stayIn(d);
    const moved = await changeRoom(d.staff, { stayId: stay.id, targetRoomId: d.rooms[1]!.id });
    const view = await viewKeyPage(guestCtx(), { token });
    expect(view.room.name).toBe(d.rooms[1]!.name);
    expect((await getKeyLink(d.staff, { stayId: moved.id })).link?.path).toBe(`/k/${token}`);
  });
});

describe('open the door now', () => {
  it("opens the stay's own lock through its gateway, audited as the link, and the lock records a remote opening", async () => {
    const d = await pairedRooms();
    const { stay, token } = await stayIn(d);
    expect(await openByKeyPage(guestCtx(), { token })).toEqual({ opened: true });
    await until(
      'the unlock record',
      async () =>
        (await listUnlockRecords(d.staff, { roomId: d.rooms[0]!.id })).total >= 1 || (await pollLockRecords(ctx.deps, { hotelId: d.hotel.id })).stored > 0,
    );
    expect((await listUnlockRecords(d.staff, { roomId: d.rooms[0]!.id })).items[0]).toMatchObject({ style: 'remote', success: true });
    const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { hotelId: d.hotel.id, action: 'lock.openByGuestLink' } });
    expect(audit).toMatchObject({ actorType: 'key_link', channel: 'key_page', actorAccountId: null, entityType: 'Room', entityId: String(d.rooms[0]!.id) });
    expect(audit.after).toMatchObject({ opened: true, stayId: stay.id, door: 'room' });
  });

  it("refuses before the stay begins, without a gateway, and for another stay's or another hotel's door", async () => {
    const d = await pairedRooms(2);
    const upcoming = await stayIn(d, 1, { startsIn: 3 * 3_600_000 });
    const view = await viewKeyPage(guestCtx(), { token: upcoming.token });
    expect(view).toMatchObject({ state: 'upcoming', doors: [{ canOpen: false }] });
    expect((await appError(openByKeyPage(guestCtx(), { token: upcoming.token }))).options.messageKey).toBe('keyPage.errors.notInHouse');

    const current = await stayIn(d, 0);
    await ctx.deps.prisma.lock.updateMany({ where: { hotelId: d.hotel.id, providerLockId: d.lockIds[0] }, data: { gatewayId: null } });
    expect((await viewKeyPage(guestCtx(), { token: current.token })).doors[0]!.canOpen).toBe(false);
    expect((await appError(openByKeyPage(guestCtx(), { token: current.token }))).options.messageKey).toBe('keyPage.errors.noGateway');

    // The only door a link names is its own stay's room: no input reaches another room or hotel.
    const other = await pairedRooms();
    const theirs = await stayIn(other, 0);
    await openByKeyPage(guestCtx(), { token: theirs.token });
    const opened = await ctx.deps.prisma.auditLog.findMany({ where: { action: 'lock.openByGuestLink', hotelId: { in: [d.hotel.id, other.hotel.id] } } });
    expect(opened.map((a) => [a.hotelId, a.entityId])).toEqual([[other.hotel.id, String(other.rooms[0]!.id)]]);
    await expect(openByKeyPage(guestCtx(), { token: theirs.token, door: 'lobby' as 'room' })).rejects.toThrow();
  });

  it('answers two identical requests at once without a server error (each audited), and opens nothing once the stay is past its check-out', async () => {
    const d = await pairedRooms();
    const { stay, token } = await stayIn(d);
    // The gateway takes one operation at a time (TTLock's "gateway busy"): one opens, the other opens or
    // says why it could not; both are audited, neither is a server error.
    const both = await Promise.allSettled([openByKeyPage(guestCtx(), { token }), openByKeyPage(guestCtx(), { token })]);
    expect(both.filter((r) => r.status === 'fulfilled').length).toBeGreaterThanOrEqual(1);
    for (const r of both) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'LOCK_FAILED' });
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: d.hotel.id, action: 'lock.openByGuestLink' } })).toBe(2);
    // Past its expected check-out and not checked out yet (the expiry job has not run): ended all the same.
    await ctx.deps.prisma.stay.update({
      where: { id: stay.id },
      data: { checkInAt: new Date(Date.now() - 30 * 3_600_000), expectedCheckOutAt: new Date(Date.now() - 1_000) },
    });
    await notFound(viewKeyPage(guestCtx(), { token }));
    await notFound(openByKeyPage(guestCtx(), { token }));
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: d.hotel.id, action: 'lock.openByGuestLink' } })).toBe(2);
  });

  it('is limited per link: 5 a minute', async () => {
    const d = await pairedRooms();
    const { token } = await stayIn(d);
    for (let i = 0; i < 5; i++) await openByKeyPage(guestCtx(), { token });
    const error = await appError(openByKeyPage(guestCtx(), { token }));
    expect(error.code).toBe('TOO_MANY_ATTEMPTS');
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: d.hotel.id, action: 'lock.openByGuestLink' } })).toBe(5);
  });
});

describe('shared doors on the key page (docs/shared-doors.md)', () => {
  it("lists and opens the shared doors serving the stay's room, never a door serving another room", async () => {
    const d = await pairedRooms(2);
    const { gateway } = await control<{ gateway: { gatewayId: number } }>('POST', '/gateways', {});
    const simDoor = async () =>
      String((await control<{ lock: { lockId: number } }>('POST', '/locks', { gatewayId: gateway.gatewayId, battery: 80 })).lock.lockId);
    const [entranceSim, gymSim] = [await simDoor(), await simDoor()];
    await simLockAccount(ctx.deps, d.hotel.id);
    const entrance = (await lockOfTypedIdIn(ctx.deps, d.hotel.id, entranceSim))!;
    const gym = (await lockOfTypedIdIn(ctx.deps, d.hotel.id, gymSim))!;
    await setSharedDoor(d.owner, { lockId: entrance, kind: 'entrance', roomIds: [d.rooms[0]!.id] });
    await setSharedDoor(d.owner, { lockId: gym, kind: 'gym', roomIds: [d.rooms[1]!.id] });
    await refreshLockStatus(ctx.deps, { hotelId: d.hotel.id });
    const { token, stay } = await stayIn(d, 0, { code: '583920' });
    // The code's copy on the entrance: the page shows the guest's code once, and the guest is not told it again.
    const copy = await until('the copy on the entrance', () =>
      ctx.deps.prisma.lockPassword.findFirst({ where: { stayId: stay.id, doorLockId: entrance, deliveryState: 'on_lock' } }),
    );
    expect(await tellGuestOfPassword(ctx.deps, copy.id, copy.version)).toBe(0);
    const told = () => ctx.deps.prisma.guestMessage.count({ where: { stayId: stay.id, trigger: 'on_lock' } });
    await until('the guest told the code', async () => (await told()) > 0);
    expect(await told()).toBe(1);

    const view = await viewKeyPage(guestCtx(), { token });
    expect(view.codes.map((c) => c.code)).toEqual(['583920']);
    expect(view.doors.map((x) => [x.door, x.kind, x.canOpen])).toEqual([
      ['room', 'room', true],
      [`door-${entrance}`, 'entrance', true],
    ]);
    const records = async (simLockId: string) => (await control<{ lock: { records: number } }>('GET', `/locks/${simLockId}`)).lock.records;
    const before = await records(entranceSim);
    expect(await openByKeyPage(guestCtx(), { token, door: `door-${entrance}` })).toEqual({ opened: true });
    expect(await records(entranceSim)).toBe(before + 1);
    const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { hotelId: d.hotel.id, action: 'lock.openByGuestLink' } });
    expect(audit.after).toMatchObject({ door: `door-${entrance}`, opened: true });

    // The gym serves the other room: its id is not found, and neither is a lock that is no door at all.
    const gymBefore = await records(gymSim);
    await notFound(openByKeyPage(guestCtx(), { token, door: `door-${gym}` }));
    await notFound(openByKeyPage(guestCtx(), { token, door: `door-${entrance + 100000}` }));
    expect(await records(gymSim)).toBe(gymBefore);
    await expect(openByKeyPage(guestCtx(), { token, door: 'door-x' })).rejects.toThrow('validation.invalid');

    // Over HTTP: the page names the entrance and its form opens it.
    const html = await (await fetch(`${serverUrl}/k/${token}?lang=en`)).text();
    expect(html).toContain(`value="door-${entrance}"`);
    expect(html).not.toContain(`value="door-${gym}"`);
    const opened = await fetch(`${serverUrl}/k/${token}/open?lang=en`, {
      method: 'POST',
      body: `door=door-${entrance}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      redirect: 'manual',
    });
    expect(opened.status).toBe(303);
    expect(await records(entranceSim)).toBe(before + 2);
    const refused = await fetch(`${serverUrl}/k/${token}/open?lang=en`, {
      method: 'POST',
      body: `door=door-${gym}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      redirect: 'manual',
    });
    expect(refused.status).toBe(404);
    expect(await records(gymSim)).toBe(gymBefore);
  });
});

describe('the page over HTTP (server-rendered, decision 031)', () => {
  it("shows the code in the guest's language (Arabic right to left), switches language, opens the door by its form, and answers unknown and revoked links with one 404 page", async () => {
    const d = await pairedRooms();
    const { stay, token } = await stayIn(d, 0, { code: '519273', mobile: '+966501234568' });
    const page = await fetch(`${serverUrl}/k/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await page.text();
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(html).toContain('519273');
    expect(html).toContain('افتح الباب الآن');
    expect(html).toContain('Lift to the 3rd floor, turn left.');
    const zh = await (await fetch(`${serverUrl}/k/${token}?lang=zh-CN`)).text();
    expect(zh).toContain('<html lang="zh-CN" dir="ltr">');
    expect(zh).toContain('立即开门');

    const opened = await fetch(`${serverUrl}/k/${token}/open?lang=zh-CN`, {
      method: 'POST',
      body: 'door=room',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      redirect: 'manual',
    });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe(`/k/${token}?lang=zh-CN&opened=1`);
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: d.hotel.id, action: 'lock.openByGuestLink' } })).toBe(1);
    expect(await (await fetch(`${serverUrl}${opened.headers.get('location')}`)).text()).toContain('门已打开');

    const unknown = await fetch(`${serverUrl}/k/${'C'.repeat(43)}`);
    expect(unknown.status).toBe(404);
    const unknownHtml = await unknown.text();
    await revokeKeyLink(d.staff, { stayId: stay.id });
    const revoked = await fetch(`${serverUrl}/k/${token}`);
    expect([revoked.status, await revoked.text()]).toEqual([404, unknownHtml]);
    const revokedOpen = await fetch(`${serverUrl}/k/${token}/open`, { method: 'POST', redirect: 'manual' });
    expect(revokedOpen.status).toBe(404);
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: d.hotel.id, action: 'lock.openByGuestLink' } })).toBe(1);
    // Text of the hotel is escaped, never markup.
    await ctx.deps.prisma.room.update({ where: { id: d.rooms[0]!.id }, data: { notice: '<script>alert(1)</script>' } });
    const fresh = (await regenerateKeyLink(d.staff, { stayId: stay.id })).link.path;
    const escaped = await (await fetch(`${serverUrl}${fresh}`)).text();
    expect(escaped).not.toContain('<script>');
    expect(escaped).toContain('&lt;script&gt;');
  });
});
