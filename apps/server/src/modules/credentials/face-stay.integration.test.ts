import { randomBytes, randomUUID } from 'node:crypto';
import { FACE_RULES } from '@console/shared';
import { startLockSim, type LockSim } from '@console/lock-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor, AuthedContext } from '../../context';
import { startWorkers } from '../../jobs/workers';
import { actorContext, createTestContext, testLockIdBase, type TestContext } from '../../test/harness';
import { pairSimLock } from '../../test/lock-factories';
import { createCustomers, createHotelWithStaff, createRooms, uniqueMobile } from '../../test/factories';
import { trpcClient } from '../../test/trpc-client';
import { storeUpload } from '../uploads/upload.service';
import { checkIn } from '../stays/check-in';
import { authorizeFace } from './face-authorization.service';
import { createFace, listFacesOfGuest } from './face.service';
import { limitStayPasswords } from './password.service';

/**
 * Faces and the stay: the faces check-in offers for a guest (found by the mobile or ID number
 * typed at the desk, through a customer of that mobile or an earlier stay guest; never another
 * hotel's), and a stay's faces limited with its passwords (the spec's "limit the tenant's
 * password"), through the real TTLock adapter against apps/lock-sim, with the real workers, Redis
 * and database.
 */
let sim: LockSim;
let ctx: TestContext;
let workers: ReturnType<typeof startWorkers>;
let api: ReturnType<typeof trpcClient>;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A photo of its own, as large as a face module asks (FACE_RULES.imageMinBytes). */
const facePhoto = () => Buffer.concat([PNG_SIGNATURE, randomBytes(FACE_RULES.imageMinBytes)]);

beforeAll(async () => {
  sim = await startLockSim({ latencyMs: [5, 20], lockIdBase: testLockIdBase() });
  ctx = await createTestContext({ sim, env: { LOCK_DELIVERY_ATTEMPTS: '3', LOCK_DELIVERY_BACKOFF_MS: '100' } });
  workers = startWorkers(ctx.deps, { sweep: false });
  api = trpcClient(ctx.app);
});

afterAll(async () => {
  await workers?.close();
  await ctx?.close();
  await sim?.close();
});

async function control<T = Record<string, unknown>>(method: string, urlPath: string, body?: unknown): Promise<T> {
  const response = await fetch(`${sim.url}/sim${urlPath}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as T;
  if (!response.ok) throw new Error(`control ${method} ${urlPath}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

async function waitForFace(id: number, states: string[], version?: number, ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const row = await ctx.deps.prisma.faceAuthorization.findUniqueOrThrow({ where: { id } });
    if (states.includes(row.deliveryState) && (version === undefined || row.version >= version)) return row;
    if (Date.now() > until)
      throw new Error(`face authorisation ${id} stayed ${row.deliveryState} v${row.version} (${row.lastError ?? 'no error'}), expected ${states.join(' or ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function hotelWithRoom() {
  const h = await createHotelWithStaff(ctx.deps);
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['101', '102']);
  const staff = await actorContext(ctx.deps, h.staffToken);
  return { ...h, rooms, staff };
}

/** A stay with one guest, and a face taken of that guest. */
async function guestWithFace(staff: AuthedContext & { actor: Actor }, roomId: number, guest: { mobile?: string; idNumber?: string }) {
  const stay = await checkIn(staff, {
    roomId,
    checkInAt: new Date(Date.now() - 60_000),
    expectedCheckOutAt: new Date(Date.now() + 26 * 3_600_000),
    guests: [{ name: 'Lin Wei', ...guest }],
    idempotencyKey: randomUUID(),
  });
  const guestId = stay.guests[0]!.id;
  const { url } = await storeUpload(ctx.deps, staff.actor, 'face', facePhoto());
  const face = await createFace(staff, { faceId: `F-${randomUUID().slice(0, 8)}`, note: 'Lin Wei', imageUrl: url, guestId });
  return { stay, face };
}

/** A face with a photo and no guest. */
async function guestWithFaceOnly(staff: AuthedContext & { actor: Actor }) {
  const { url } = await storeUpload(ctx.deps, staff.actor, 'face', facePhoto());
  return { face: await createFace(staff, { faceId: `F-${randomUUID().slice(0, 8)}`, note: 'Later', imageUrl: url }) };
}

describe('faces of a guest at check-in', () => {
  it('finds the face of a returning guest by mobile (spaces and dashes as typed) and by ID number, and nothing for a stranger', async () => {
    const a = await hotelWithRoom();
    const mobile = uniqueMobile();
    const idNumber = `ID${randomUUID().slice(0, 10)}`;
    const { face } = await guestWithFace(a.staff, a.rooms[0]!.id, { mobile, idNumber });

    expect((await listFacesOfGuest(a.staff, { mobile })).map((f) => f.id)).toEqual([face.id]);
    expect((await listFacesOfGuest(a.staff, { mobile: `${mobile.slice(0, 3)} ${mobile.slice(3, 7)}-${mobile.slice(7)}` })).map((f) => f.id)).toEqual([face.id]);
    expect((await listFacesOfGuest(a.staff, { idNumber })).map((f) => f.id)).toEqual([face.id]);
    expect(await listFacesOfGuest(a.staff, { mobile: uniqueMobile() })).toEqual([]);
    expect(await listFacesOfGuest(a.staff, { idNumber: `ID${randomUUID().slice(0, 10)}` })).toEqual([]);
  });

  it("finds a customer's face by the customer's mobile", async () => {
    const a = await hotelWithRoom();
    const [customer] = await createCustomers(ctx.deps, a.hotel.id, 1);
    // The guest had the customer's mobile: the face belongs to the customer too.
    const { face } = await guestWithFace(a.staff, a.rooms[0]!.id, { mobile: customer!.mobile! });
    expect(face.customerId).toBe(customer!.id);
    // The earlier guest's own mobile is changed: the customer's still finds the face.
    await ctx.deps.prisma.stayGuest.update({ where: { id: face.guestId! }, data: { mobile: uniqueMobile() } });
    expect((await listFacesOfGuest(a.staff, { mobile: customer!.mobile! })).map((f) => f.id)).toEqual([face.id]);
  });

  it("never offers another hotel's faces, and says what is wrong with empty or bad input", async () => {
    const a = await hotelWithRoom();
    const b = await hotelWithRoom();
    const mobile = uniqueMobile();
    await guestWithFace(a.staff, a.rooms[0]!.id, { mobile });
    expect(await listFacesOfGuest(b.staff, { mobile })).toEqual([]);
    const overTrpc = await api.query('face.ofGuest', { mobile }, { token: b.staffToken });
    expect(overTrpc.data).toEqual([]);
    expect((await api.query('face.ofGuest', { mobile }, { token: a.staffToken })).data).toHaveLength(1);

    const empty = await api.raw.query('face.ofGuest', {}, { token: a.staffToken });
    expect(empty.status).toBe(400);
    expect(empty.error?.data.app?.code).toBe('VALIDATION');
    const badPhone = await api.raw.query('face.ofGuest', { mobile: 'call me' }, { token: a.staffToken });
    expect(badPhone.status).toBe(400);
    expect(badPhone.error?.data.app?.fields?.mobile).toBeTruthy();
    expect(badPhone.error?.message).not.toMatch(/zod|stack|at /i);
    const signedOut = await api.query('face.ofGuest', { mobile });
    expect(signedOut.status).toBe(401);
  });
});

describe("a stay's faces and the limit of its passwords", () => {
  it('gives the face the new end on the lock, and takes off one that would only start after it', async () => {
    const a = await hotelWithRoom();
    const { gateway } = await control<{ gateway: { gatewayId: number } }>('POST', '/gateways', {});
    const { lock } = await control<{ lock: { lockId: number } }>('POST', '/locks', { gatewayId: gateway.gatewayId });
    await pairSimLock(ctx.deps, a.rooms[0]!.hotelId, a.rooms[0]!.id, lock.lockId);
    const { stay, face } = await guestWithFace(a.staff, a.rooms[0]!.id, { mobile: uniqueMobile() });
    const now = Date.now();
    const forStay = await authorizeFace(a.staff, { id: face.id, roomId: a.rooms[0]!.id, stayId: stay.id });
    const before = await waitForFace(forStay.id, ['on_lock', 'failed']);
    expect(before.deliveryState).toBe('on_lock');
    // A second face, from a later time of the stay.
    const { face: later } = await guestWithFaceOnly(a.staff);
    const starting = await authorizeFace(a.staff, { id: later.id, roomId: a.rooms[0]!.id, stayId: stay.id, validFrom: new Date(now + 5 * 3_600_000) });
    await waitForFace(starting.id, ['on_lock', 'failed']);

    const limit = new Date(now + 3 * 3_600_000 + 30_000);
    const result = await limitStayPasswords(a.staff, { stayId: stay.id, validUntil: limit });
    expect(result).toMatchObject({ limitedFaces: 1, revokedFaces: 1 });
    const minute = new Date(Math.floor(limit.getTime() / 60_000) * 60_000);
    const after = await waitForFace(forStay.id, ['on_lock', 'failed'], before.version + 1);
    expect(after).toMatchObject({ deliveryState: 'on_lock', validUntil: minute, revokeReason: null });
    const simLock = (await control<{ lock: { faces: { faceId: number; endDate: number }[] } }>('GET', `/locks/${lock.lockId}`)).lock;
    expect(simLock.faces.find((f) => String(f.faceId) === after.providerRef)?.endDate).toBe(minute.getTime());
    const removed = await waitForFace(starting.id, ['removed', 'remove_failed']);
    expect(removed).toMatchObject({ deliveryState: 'removed', revokeReason: 'limited' });
    // The audit says what the limit changed.
    const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({
      where: { hotelId: a.hotel.id, action: 'password.limit', entityId: String(stay.id) },
      orderBy: { id: 'desc' },
    });
    expect(audit.after).toMatchObject({ limitedFaces: [forStay.id], revokedFaces: [starting.id] });
  });
});
