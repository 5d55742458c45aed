import { randomBytes, randomUUID } from 'node:crypto';
import { startLockSim, type LockSim } from '@console/lock-sim';
import { COOKIES, KEY_PAGE_ADDRESS_LIMITS } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, describeAppError } from '../../errors';
import { startWorkers } from '../../jobs/workers';
import { actorContext, createTestContext, testLockIdBase, testMeta, type TestContext } from '../../test/harness';
import { pairSimLock, simLockAccount, simControl } from '../../test/lock-factories';
import { lockOfTypedIdIn } from '../locks/accounts/pairing.service';
import { setSharedDoor } from '../shared-doors/shared-door.service';
import { createHotelWithStaff, createRooms, uniqueMobile } from '../../test/factories';
import { createPassword } from '../credentials/password.service';
import { refreshLockStatus } from '../locks/lock-status';
import { pollLockRecords } from '../locks/records';
import { checkIn } from '../stays/check-in';
import { checkOut } from '../stays/check-out';
import { renewStay } from '../stays/renewal';
import { changeRoom } from '../stays/room-change';
import { listUnlockRecords } from '../unlock-records/unlock-record.service';
import { ensureKeyLink, getKeyLink, hashKeyToken, regenerateKeyLink, revokeKeyLink } from '../messages/key-link';
import { openByKeyPage, viewKeyPage } from './key-page.service';
import { tellGuestOfPassword } from '../messages/on-lock';
import { loadMessageFacts, renderMessage } from '../messages/compose';
import { getMessageSettings } from '../messages/templates';

/**
 * The guest's key page (issue 20 §4) against apps/lock-sim: what a link shows, the door it opens,
 * and everything it must refuse alike (unknown, revoked, ended, another stay's or hotel's door).
 */
let sim: LockSim;
let ctx: TestContext;
let workers: ReturnType<typeof startWorkers>;
let serverUrl: string;
const PUBLIC_URL = 'https://hotel.example.test';

const control = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => simControl<T>(sim, method, path, body);

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

/** A guest's request from an address of its own (the per-address limit of one test never touches another's). */
const guestCtx = () => ({ deps: ctx.deps, meta: testMeta() });

/** A token of the right shape that no link has. */
const randomToken = () => randomBytes(32).toString('base64url');

type Answer = { status: number; body: string; retryAfter: string | undefined };
/** "Open the door now" over HTTP from a client address: the page's form (`page`) or tRPC `keyPage.open` (`trpc`). */
async function openOver(face: 'page' | 'trpc', token: string, remoteAddress: string, door = 'room', lang = 'en'): Promise<Answer> {
  const response =
    face === 'trpc'
      ? await ctx.app.inject({
          method: 'POST',
          url: '/trpc/keyPage.open',
          remoteAddress,
          headers: { 'content-type': 'application/json', language: lang },
          payload: JSON.stringify({ token, door }),
        })
      : await ctx.app.inject({
          method: 'POST',
          url: `/k/${token}/open?lang=${lang}`,
          remoteAddress,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: `door=${door}`,
        });
  const retry = response.headers['retry-after'];
  return { status: response.statusCode, body: response.body, retryAfter: retry === undefined ? undefined : String(retry) };
}
/** The tRPC error of an answer: its tRPC code and the app's description. */
const trpcError = (answer: Answer) =>
  (
    JSON.parse(answer.body) as {
      error: { data: { code: string; app: { code: string; reason?: string; retryAfterSeconds?: number; details?: Record<string, unknown> } } };
    }
  ).error.data;
/** A text of the page as the server writes it (HTML-escaped). */
const html = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

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
    for (const r of both) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'LOCK_UNREACHABLE' });
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
    // One button per door, each named by its door, the room's first (issue 27 §10: the room's was unlabelled).
    const buttons = [...html.matchAll(/<button class="button"[^>]*>(.*?)<\/button>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ''));
    expect(buttons).toEqual([`Open Room ${d.rooms[0]!.name}`, 'Open Entrance']);
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
    expect(html.replace(/<[^>]+>/g, '')).toContain(`افتح الغرفة ${d.rooms[0]!.name}`);
    // The hotel's own text is laid out by its own direction inside the right-to-left page (issue 27 §10:
    // "1 Harbour Road" read "Harbour Road 1"): the address isolated, the notice by its first letter.
    expect(html).toMatch(/<bdi[^>]*data-testid="key-address"[^>]*>1 Harbour Road, Qingdao<\/bdi>/);
    expect(html).toMatch(/<p class="notice" dir="auto">Lift to the 3rd floor, turn left.<\/p>/);
    const zh = await (await fetch(`${serverUrl}/k/${token}?lang=zh-CN`)).text();
    expect(zh).toContain('<html lang="zh-CN" dir="ltr">');
    expect(zh.replace(/<[^>]+>/g, '')).toContain(`开门：${d.rooms[0]!.name}房间`);

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

describe('guessing links (issue 27 §10)', () => {
  it('refuses an address after the limit, opening or viewing, by the page or tRPC, all counted together: 429, Retry-After, a translated page', async () => {
    const limit = KEY_PAGE_ADDRESS_LIMITS.perMinute;
    const address = testMeta().ip;
    // 200 random tokens, every other one by the page's form and by tRPC.
    const answers: Answer[] = [];
    for (let i = 0; i < 200; i++) answers.push(await openOver(i % 2 === 0 ? 'trpc' : 'page', randomToken(), address, 'room', 'ar'));
    expect(answers.slice(0, limit).map((a) => a.status)).toEqual(Array(limit).fill(404));
    expect(answers.slice(limit).map((a) => a.status)).toEqual(Array(200 - limit).fill(429));

    // tRPC: TOO_MANY_REQUESTS with the time to wait, in the answer and its Retry-After.
    const byTrpc = answers.at(-2)!;
    const error = trpcError(byTrpc);
    expect([error.code, error.app.code]).toEqual(['TOO_MANY_REQUESTS', 'TOO_MANY_ATTEMPTS']);
    expect(Number(byTrpc.retryAfter)).toBe(error.app.retryAfterSeconds);
    expect(Number(byTrpc.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(byTrpc.retryAfter)).toBeLessThanOrEqual(60);
    // The page: its own answer in the guest's language, right to left in Arabic.
    const byPage = answers.at(-1)!;
    expect(Number(byPage.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(byPage.body).toContain('<html lang="ar" dir="rtl">');
    expect(byPage.body).toContain(html(ctx.deps.i18n.t('ar', 'keyPage.tooManyTitle')));

    // Viewing from that address is refused too, by the page and by tRPC, even a real link...
    const d = await pairedRooms();
    const { token } = await stayIn(d);
    const view = await ctx.app.inject({ method: 'GET', url: `/k/${token}`, remoteAddress: address });
    expect([view.statusCode, Number(view.headers['retry-after']) > 0]).toEqual([429, true]);
    const viewTrpc = await ctx.app.inject({
      method: 'GET',
      url: `/trpc/keyPage.view?input=${encodeURIComponent(JSON.stringify({ token }))}`,
      remoteAddress: address,
    });
    expect(viewTrpc.statusCode).toBe(429);
    expect((await openOver('page', token, address)).status).toBe(429);
    // ... and that link opens from any other address.
    expect((await ctx.app.inject({ method: 'GET', url: `/k/${token}`, remoteAddress: testMeta().ip })).statusCode).toBe(200);
    expect((await openOver('trpc', token, testMeta().ip)).status).toBe(200);
  });
});

describe('refusals answer with their status, on the page and in tRPC (issue 27 §10)', () => {
  it('404 an unknown or revoked link, 409 not open now, 502 the gateway did not answer, 429 too many openings', async () => {
    const d = await pairedRooms(2);
    const from = () => testMeta().ip;

    // Unknown and revoked: the one 404 (no oracle: which of the two is not said).
    for (const face of ['page', 'trpc'] as const) expect((await openOver(face, randomToken(), from())).status).toBe(404);
    expect(trpcError(await openOver('trpc', randomToken(), from())).code).toBe('NOT_FOUND');

    // Before the stay begins: 409, the reason said.
    const upcoming = await stayIn(d, 1, { startsIn: 3 * 3_600_000 });
    const early = await openOver('trpc', upcoming.token, from());
    expect([early.status, trpcError(early).code, trpcError(early).app.reason]).toEqual([409, 'CONFLICT', 'keyPage.errors.notInHouse']);
    const earlyPage = await openOver('page', upcoming.token, from());
    expect(earlyPage.status).toBe(409);
    expect(earlyPage.body).toContain(html(ctx.deps.i18n.t('en', 'keyPage.errors.notInHouse')));

    // The gateway does not answer: 502 and why, and the page still shows the code.
    const current = await stayIn(d, 0, { code: '730519' });
    await control('PATCH', `/gateways/${d.gatewayId}`, { online: false });
    try {
      const down = await openOver('trpc', current.token, from());
      expect([down.status, trpcError(down).code, trpcError(down).app.code, trpcError(down).app.details?.reason]).toEqual([
        502,
        'BAD_GATEWAY',
        'LOCK_UNREACHABLE',
        'gateway_offline',
      ]);
      const downPage = await openOver('page', current.token, from());
      expect(downPage.status).toBe(502);
      expect(downPage.body).toContain(
        html(ctx.deps.i18n.t('en', 'keyPage.errors.lockFailed', { reason: ctx.deps.i18n.t('en', 'credentials.errors.gateway_offline') })),
      );
      expect(downPage.body).toContain('730519');
    } finally {
      await control('PATCH', `/gateways/${d.gatewayId}`, { online: true });
    }

    // Five openings a minute per link: then 429 with the time to wait, by either face.
    const busy = await stayIn(await pairedRooms(), 0);
    for (let i = 0; i < 5; i++) expect((await openOver(i % 2 ? 'page' : 'trpc', busy.token, from())).status).toBe(i % 2 ? 303 : 200);
    const tooMany = await openOver('trpc', busy.token, from());
    expect([tooMany.status, trpcError(tooMany).code, Number(tooMany.retryAfter) > 0]).toEqual([429, 'TOO_MANY_REQUESTS', true]);
    const tooManyPage = await openOver('page', busy.token, from());
    expect([tooManyPage.status, Number(tooManyPage.retryAfter) > 0]).toEqual([429, true]);
    expect(tooManyPage.body).toContain('role="alert"');

    // A door that takes no remote opening (its lock has no gateway): 409.
    await ctx.deps.prisma.lock.updateMany({ where: { hotelId: d.hotel.id, providerLockId: d.lockIds[0] }, data: { gatewayId: null } });
    const noGateway = await openOver('trpc', current.token, from());
    expect([noGateway.status, trpcError(noGateway).app.reason]).toEqual([409, 'keyPage.errors.noGateway']);
    expect((await openOver('page', current.token, from())).status).toBe(409);

    // Revoked: 404 like an unknown link.
    await revokeKeyLink(d.staff, { stayId: current.stay.id });
    expect((await openOver('trpc', current.token, from())).status).toBe(404);
    expect((await openOver('page', current.token, from())).status).toBe(404);
  });
});

describe('without PUBLIC_URL (issue 27 §10)', () => {
  it('leaves the link out of the message, and the messages page is told: keyLinkAvailable false', async () => {
    const d = await pairedRooms();
    const { stay } = await stayIn(d, 0, { code: '640381' });
    const withoutUrl = { ...ctx.deps, config: { ...ctx.deps.config, locks: { ...ctx.deps.config.locks, publicUrl: undefined } } };
    const password = await ctx.deps.prisma.lockPassword.findFirstOrThrow({ where: { stayId: stay.id, doorLockId: null } });
    const sms = async (deps: typeof ctx.deps) =>
      (await renderMessage(deps, d.hotel.id, 'sms', 'en', (await loadMessageFacts(deps, d.hotel.id, stay.id, password.id))!)).body;
    const label = ctx.deps.i18n.t('en', 'guestMessages.defaults.sms').split('\n')[1]!.replace('{{keyPageLink}}', '').trim();
    const told = await sms(ctx.deps);
    expect(told).toContain(`${label} ${PUBLIC_URL}/k/`);
    const untold = await sms(withoutUrl);
    expect(untold).toContain('640381');
    // No label followed by nothing, no link on no address.
    expect(untold).not.toContain(label);
    expect(untold).not.toContain('/k/');

    expect((await getMessageSettings(d.owner)).keyLinkAvailable).toBe(true);
    expect((await getMessageSettings({ ...d.owner, deps: withoutUrl })).keyLinkAvailable).toBe(false);
    // The procedure the messages page reads says it too.
    const answer = await ctx.app.inject({ method: 'GET', url: '/trpc/guestMessage.settings', cookies: { [COOKIES.session]: d.ownerToken } });
    expect((JSON.parse(answer.body) as { result: { data: { keyLinkAvailable: boolean } } }).result.data.keyLinkAvailable).toBe(true);
  });
});
