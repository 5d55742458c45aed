import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { simFaceFeatureData, startLockSim, type LockSim } from '@console/lock-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACE_RULES } from '@console/shared';
import type { Actor, AuthedContext } from '../../context';
import { storePicture, storedKeys } from '../../infra/uploads';
import { startWorkers } from '../../jobs/workers';
import { actorContext, createTestContext, testLockIdBase, type TestContext } from '../../test/harness';
import { pairSimLock } from '../../test/lock-factories';
import { providerForLock } from '../lock-cloud/account-provider';
import { createHotelWithStaff, createRooms, uniqueMobile } from '../../test/factories';
import { pngPhoto } from '../../test/photos';
import { trpcClient } from '../../test/trpc-client';
import { storeUpload } from '../uploads/upload.service';
import { checkIn } from '../stays/check-in';
import { checkOut } from '../stays/check-out';
import { addGuest, removeGuest } from '../stays/guests';
import { authorizeFace, listFaceAuthorizations, retryFaceAuthorization, revokeFaceAuthorization } from './face-authorization.service';
import { createFace, deleteFace, listFaces, updateFaceNote } from './face.service';
import { lockName, parseLockTag } from './delivery-kinds';
import { INSPECTED_LOCK_SELECT, inspectLock, reconcileAllLocks } from './reconcile';
import { refreshLockStatus } from '../locks/lock-status';
import { pollLockRecords } from '../locks/records';
import { listUnlockRecords } from '../unlock-records/unlock-record.service';

/**
 * Faces end to end: the face database on the real upload store, and face authorisations carried
 * to locks by the delivery engine through the real TTLock adapter over HTTP against
 * apps/lock-sim, with the real BullMQ workers, Redis and database.
 */
let sim: LockSim;
let ctx: TestContext;
let workers: ReturnType<typeof startWorkers>;
let api: ReturnType<typeof trpcClient>;

/** A real PNG of its own, of a face photo's size (its bytes, hence its SHA-256, differ from every other one). */
const png = () => pngPhoto();

/** The file of a face's photo in the upload store (its private area). */
async function photoFile(faceId: number): Promise<string> {
  const face = await ctx.deps.prisma.face.findUniqueOrThrow({ where: { id: faceId } });
  return path.join(path.resolve(ctx.config.uploadDir), storedKeys(face.hotelId, face.imageUrl)!.face);
}

/** What a signed photo URL of a DTO shows: the photo's bytes, or the status. */
async function fetchPhoto(url: string): Promise<Buffer | number> {
  const res = await ctx.app.inject({ method: 'GET', url });
  return res.statusCode === 200 ? res.rawPayload : res.statusCode;
}

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

/** A simulated lock with its gateway, paired with a new room of a new hotel. */
async function pairedRoom() {
  const h = await createHotelWithStaff(ctx.deps);
  const { gateway } = await control<{ gateway: { gatewayId: number } }>('POST', '/gateways', {});
  const { lock } = await control<{ lock: { lockId: number } }>('POST', '/locks', { gatewayId: gateway.gatewayId });
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, [`F${lock.lockId}`, `G${lock.lockId}`]);
  await pairSimLock(ctx.deps, h.hotel.id, rooms[0]!.id, lock.lockId);
  const room = await ctx.deps.prisma.room.findUniqueOrThrow({ where: { id: rooms[0]!.id } });
  const staff = await actorContext(ctx.deps, h.staffToken);
  return { ...h, room, otherRoom: rooms[1]!, lockId: String(lock.lockId), staff };
}

/** A face of the hotel with a fresh photo in the upload store. */
async function newFace(staff: AuthedContext & { actor: Actor }, note = 'Lin Wei', guestId?: number) {
  const bytes = png();
  const { url } = await storeUpload(ctx.deps, staff.actor, 'face', bytes);
  const face = await createFace(staff, { faceId: `F-${randomUUID().slice(0, 8)}`, note, imageUrl: url, guestId });
  return { face, bytes, path: url };
}

async function stayIn(d: Awaited<ReturnType<typeof pairedRoom>>, roomId = d.room.id) {
  return checkIn(d.staff, {
    roomId,
    checkInAt: new Date(Date.now() - 60_000),
    expectedCheckOutAt: new Date(Date.now() + 26 * 3_600_000),
    guests: [{ name: 'Lin Wei', mobile: uniqueMobile() }],
    idempotencyKey: randomUUID(),
  });
}

async function waitForState(id: number, states: string[], ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const row = await ctx.deps.prisma.faceAuthorization.findUniqueOrThrow({ where: { id } });
    if (states.includes(row.deliveryState)) return row;
    if (Date.now() > until)
      throw new Error(`face authorisation ${id} stayed ${row.deliveryState} (${row.lastError ?? 'no error'}), expected ${states.join(' or ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const show = (lockId: string, faceId: string | null) =>
  control<{ opened: boolean; outcome: string }>('POST', `/locks/${lockId}/use`, { faceId: Number(faceId) });
const simFaces = async (lockId: string) =>
  (await control<{ lock: { faces: { faceId: number; name: string; featureData: string }[] } }>('GET', `/locks/${lockId}`)).lock.faces;

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

describe('face delivery', () => {
  it('puts an authorised face on the lock with the feature data the lock cloud made of its photo, where it opens the door, and takes it off at check-out', async () => {
    const d = await pairedRoom();
    const stay = await stayIn(d);
    const { face, bytes } = await newFace(d.staff);
    const created = await authorizeFace(d.staff, { id: face.id, roomId: d.room.id, stayId: stay.id, note: 'front door' });
    expect(created).toMatchObject({ deliveryState: 'pending', stayId: stay.id, note: 'front door', face: { id: face.id, faceId: face.faceId } });
    expect(created.validUntil).toBe(new Date(Math.floor(new Date(stay.expectedCheckOutAt).getTime() / 60_000) * 60_000).toISOString());
    // The face and its authorisation show the photo by a signed URL of the face, never by its stored path.
    expect(face.imageUrl).toMatch(new RegExp(`^/api/faces/photo/${d.hotel.id}/${face.id}\\?exp=\\d+&sig=[A-Za-z0-9_-]{43}$`));
    expect(await fetchPhoto(face.imageUrl)).toEqual(bytes);
    expect(created.face.imageUrl).toMatch(new RegExp(`^/api/faces/photo/${d.hotel.id}/${face.id}\\?`));
    expect(await fetchPhoto(created.face.imageUrl)).toEqual(bytes);
    expect(await fetchPhoto((await listFaceAuthorizations(d.staff, { roomId: d.room.id })).items[0]!.face.imageUrl)).toEqual(bytes);

    const onLock = await waitForState(created.id, ['on_lock', 'failed']);
    expect(onLock).toMatchObject({ deliveryState: 'on_lock', lastError: null });
    const [simFace] = await simFaces(d.lockId);
    // The photo's bytes went to face/getFeatureDataByPhoto for this lock, and its answer to face/add.
    expect(simFace).toMatchObject({
      faceId: Number(onLock.providerRef),
      name: lockName('face', created.id, face.note),
      featureData: simFaceFeatureData(Number(d.lockId), bytes),
    });
    expect(parseLockTag(simFace!.name)).toEqual({ kind: 'face', id: created.id });
    expect(await show(d.lockId, onLock.providerRef)).toMatchObject({ opened: true });
    // The opening is the room's unlock record, by face, in the face's name.
    await refreshLockStatus(ctx.deps, { hotelId: d.hotel.id });
    await pollLockRecords(ctx.deps, { hotelId: d.hotel.id });
    expect((await listUnlockRecords(d.staff, { roomId: d.room.id })).items).toEqual([
      expect.objectContaining({ style: 'face', success: true, operator: face.note, credential: `face:${created.id}` }),
    ]);

    const out = await checkOut(d.staff, { stayId: stay.id });
    expect(out.revokedCredentials).toBe(1);
    expect(await waitForState(created.id, ['removed', 'remove_failed'])).toMatchObject({ deliveryState: 'removed', revokeReason: 'check_out' });
    expect(await simFaces(d.lockId)).toEqual([]);
    expect(await show(d.lockId, onLock.providerRef)).toMatchObject({ opened: false });
  }, 90_000);

  it('retries an offline lock, fails with the reason when it stays offline, and delivers on a retry once it is back', async () => {
    const d = await pairedRoom();
    await control('PATCH', `/locks/${d.lockId}`, { online: false });
    const { face } = await newFace(d.staff, 'Night porter');
    const created = await authorizeFace(d.staff, { id: face.id, roomId: d.room.id });
    expect(created.validUntil).toBeNull();
    const failed = await waitForState(created.id, ['failed', 'on_lock']);
    expect(failed).toMatchObject({ deliveryState: 'failed', lastError: 'lock_offline', attempts: 3 });
    const [listed] = (await listFaceAuthorizations(d.staff, { id: face.id, scope: 'history' })).items;
    expect(listed).toMatchObject({ id: created.id, deliveryState: 'failed', lastError: 'lock_offline' });

    await control('PATCH', `/locks/${d.lockId}`, { online: true });
    expect((await retryFaceAuthorization(d.staff, { authorizationId: created.id })).deliveryState).toBe('pending');
    const onLock = await waitForState(created.id, ['on_lock', 'failed']);
    expect(onLock).toMatchObject({ deliveryState: 'on_lock', lastError: null });
    expect(await show(d.lockId, onLock.providerRef)).toMatchObject({ opened: true });
  });

  it('fails at once with the reason when the photo is gone or changed, the cloud refuses it, or the lock has no face module', async () => {
    const d = await pairedRoom();
    const attempt = async (faceId: number, roomId = d.room.id) => {
      const created = await authorizeFace(d.staff, { id: faceId, roomId });
      return waitForState(created.id, ['failed', 'on_lock']);
    };
    // The photo's file is gone from the upload store: nothing to make feature data of.
    const { face: gone } = await newFace(d.staff, 'Photo gone');
    fs.rmSync(await photoFile(gone.id));
    expect(await attempt(gone.id)).toMatchObject({ deliveryState: 'failed', lastError: 'photo_missing', attempts: 1 });
    // Other bytes under its name are not the face's photo either.
    const { face: changed } = await newFace(d.staff, 'Photo changed');
    fs.writeFileSync(await photoFile(changed.id), png());
    expect(await attempt(changed.id)).toMatchObject({ deliveryState: 'failed', lastError: 'photo_missing', attempts: 1 });
    // The lock cloud cannot use the photo (TTLock publishes no code for it; -3 here): refused, not retried.
    await control('POST', `/locks/${d.lockId}/failures`, { code: -3, message: 'no face found in the photo', ops: ['face/getFeatureDataByPhoto'] });
    const { face: refused } = await newFace(d.staff, 'No face in it');
    expect(await attempt(refused.id)).toMatchObject({ deliveryState: 'failed', lastError: 'photo_rejected', attempts: 1 });
    expect(await simFaces(d.lockId)).toEqual([]);
    await control('DELETE', `/locks/${d.lockId}/failures`);
    // A lock without a face module: refused as it is asked, naming the room (issue 38, modules/base/lock-takes.ts).
    const { lock } = await control<{ lock: { lockId: number } }>('POST', '/locks', { faceModule: false });
    const lockRowId = await pairSimLock(ctx.deps, d.hotel.id, d.otherRoom.id, lock.lockId);
    const { face: noModule } = await newFace(d.staff, 'No module');
    await expect(authorizeFace(d.staff, { id: noModule.id, roomId: d.otherRoom.id })).rejects.toMatchObject({
      code: 'CONFLICT',
      options: { messageKey: 'credentials.errors.lockTakesNoFaces', params: { room: d.otherRoom.name } },
    });
    // Its facts out of date (the console thinks it has one): the lock's refusal fails the delivery at once.
    await ctx.deps.prisma.lock.update({ where: { id: lockRowId }, data: { hasFaceModule: true } });
    expect(await attempt(noModule.id, d.otherRoom.id)).toMatchObject({ deliveryState: 'failed', lastError: 'not_supported', attempts: 1 });
    // A good photo still goes on: the feature data asked for, then face/add.
    const { face: good, bytes } = await newFace(d.staff, 'Good photo');
    const onLock = await attempt(good.id);
    expect(onLock).toMatchObject({ deliveryState: 'on_lock', lastError: null });
    expect((await simFaces(d.lockId)).map((f) => f.featureData)).toEqual([simFaceFeatureData(Number(d.lockId), bytes)]);
    expect(await show(d.lockId, onLock.providerRef)).toMatchObject({ opened: true });
  });

  it('takes a face off when its authorisation is deleted, and revokes it with a room change, a removed guest and a frozen customer', async () => {
    const d = await pairedRoom();
    const stay = await stayIn(d);
    // Deleted by staff.
    const { face } = await newFace(d.staff);
    const manual = await authorizeFace(d.staff, { id: face.id, roomId: d.room.id });
    await waitForState(manual.id, ['on_lock']);
    expect((await revokeFaceAuthorization(d.staff, { authorizationId: manual.id })).deliveryState).toBe('removing');
    expect(await waitForState(manual.id, ['removed', 'remove_failed'])).toMatchObject({ deliveryState: 'removed', revokeReason: 'manual' });
    // A co-guest's face goes with the co-guest.
    const withGuest = await addGuest(d.staff, { stayId: stay.id, guest: { name: 'Co guest', mobile: uniqueMobile() } });
    const coGuest = withGuest.guests.find((g) => g.name === 'Co guest')!;
    const { face: coFace } = await newFace(d.staff, 'Co guest', coGuest.id);
    expect(coFace.guestId).toBe(coGuest.id);
    const coAuth = await authorizeFace(d.staff, { id: coFace.id, roomId: d.room.id, stayId: stay.id });
    await waitForState(coAuth.id, ['on_lock']);
    await removeGuest(d.staff, { stayId: stay.id, guestId: coGuest.id });
    expect(await waitForState(coAuth.id, ['removed'])).toMatchObject({ revokeReason: 'guest_removed' });
    // A customer's face stops when the customer is frozen.
    const mobile = uniqueMobile();
    const customer = await ctx.deps.prisma.customer.create({ data: { hotelId: d.hotel.id, nickname: 'App user', mobile } });
    const withCustomer = await addGuest(d.staff, { stayId: stay.id, guest: { name: 'App user', mobile } });
    const { face: appFace } = await newFace(d.staff, 'App user', withCustomer.guests.find((g) => g.mobile === mobile)!.id);
    expect(appFace.customerId).toBe(customer.id);
    const appAuth = await authorizeFace(d.staff, { id: appFace.id, roomId: d.room.id, stayId: stay.id });
    await waitForState(appAuth.id, ['on_lock']);
    const owner = await actorContext(ctx.deps, d.ownerToken);
    const { setCustomerFrozen } = await import('../customers/customer.service');
    await setCustomerFrozen(owner, { id: customer.id, frozen: true });
    expect(await waitForState(appAuth.id, ['removed'])).toMatchObject({ revokeReason: 'customer_frozen' });
    // The stay's own face moves out with the stay.
    const { face: stayFace } = await newFace(d.staff);
    const stayAuth = await authorizeFace(d.staff, { id: stayFace.id, roomId: d.room.id, stayId: stay.id });
    await waitForState(stayAuth.id, ['on_lock']);
    const { changeRoom } = await import('../stays/room-change');
    await changeRoom(d.staff, { stayId: stay.id, targetRoomId: d.otherRoom.id });
    expect(await waitForState(stayAuth.id, ['removed'])).toMatchObject({ revokeReason: 'room_change' });
    expect(await simFaces(d.lockId)).toEqual([]);
  });
});

describe('face reconciliation', () => {
  it('puts back a face the lock lost, and takes off a deleted one that came back', async () => {
    const d = await pairedRoom();
    const { face: keptFace } = await newFace(d.staff, 'Kept');
    const kept = await authorizeFace(d.staff, { id: keptFace.id, roomId: d.room.id });
    const keptBefore = await waitForState(kept.id, ['on_lock']);
    const { face: goneFace } = await newFace(d.staff, 'Gone');
    const gone = await authorizeFace(d.staff, { id: goneFace.id, roomId: d.room.id });
    await waitForState(gone.id, ['on_lock']);
    await revokeFaceAuthorization(d.staff, { authorizationId: gone.id });
    await waitForState(gone.id, ['removed']);

    // Drift: the lock lost the kept face; the deleted one is back (someone enrolled it again at the lock).
    await control('POST', `/locks/${d.lockId}/drift`, { kind: 'face', action: 'remove', id: Number(keptBefore.providerRef), cloud: true });
    await control('POST', `/locks/${d.lockId}/drift`, {
      kind: 'face',
      action: 'plant',
      featureData: 'ab12',
      name: lockName('face', gone.id, 'Gone'),
      cloud: true,
    });
    const lockRow = await ctx.deps.prisma.lock.findFirstOrThrow({
      where: { hotelId: d.hotel.id, providerLockId: d.lockId },
      select: { ...INSPECTED_LOCK_SELECT, accountId: true },
    });
    const faces = (await inspectLock(ctx.deps, await providerForLock(ctx.deps, lockRow), lockRow)).filter((i) => i.kind === 'face');
    expect(Object.fromEntries(faces.map((i) => [i.credentialId, i.drift]))).toEqual({ [kept.id]: 'missing', [gone.id]: 'should_be_removed' });

    expect(await reconcileAllLocks(ctx.deps, { hotelId: d.hotel.id })).toMatchObject({ repushed: 1, removed: 1 });
    const until = Date.now() + 20_000;
    let back = await waitForState(kept.id, ['on_lock', 'pending']);
    while (back.deliveryState !== 'on_lock' || back.providerRef === keptBefore.providerRef) {
      if (Date.now() > until) throw new Error(`face authorisation ${kept.id} not put back: ${back.deliveryState}`);
      await new Promise((r) => setTimeout(r, 50));
      back = await ctx.deps.prisma.faceAuthorization.findUniqueOrThrow({ where: { id: kept.id } });
    }
    expect(await show(d.lockId, back.providerRef)).toMatchObject({ opened: true });
    expect(await waitForState(gone.id, ['removed'])).toMatchObject({ deliveryState: 'removed' });
    for (;;) {
      const names = (await simFaces(d.lockId)).map((f) => f.name);
      if (names.length === 1) {
        expect(names).toEqual([lockName('face', kept.id, 'Kept')]);
        break;
      }
      if (Date.now() > until) throw new Error(`the lock still holds ${names.join(', ')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  });
});

describe('face database', () => {
  it('lists faces paged, searching the face id and note literally', async () => {
    const d = await pairedRoom();
    const bytes = png();
    const { url } = await storeUpload(ctx.deps, d.staff.actor, 'face', bytes);
    await createFace(d.staff, { faceId: 'A-100%', note: 'Wang Fang', imageUrl: url });
    await createFace(d.staff, { faceId: 'A-1000', note: 'under_score', imageUrl: url });
    await createFace(d.staff, { faceId: 'B-2', note: 'Zhao Lei', imageUrl: url });
    expect((await listFaces(d.staff, { search: '100%' })).items.map((f) => f.faceId)).toEqual(['A-100%']);
    expect((await listFaces(d.staff, { search: 'r_s' })).items.map((f) => f.note)).toEqual(['under_score']);
    expect((await listFaces(d.staff, { search: 'zhao' })).items.map((f) => f.faceId)).toEqual(['B-2']);
    const page = await listFaces(d.staff, { page: 2, pageSize: 2 });
    expect(page).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(page.items.map((f) => f.faceId)).toEqual(['A-100%']);
    expect((await updateFaceNote(d.staff, { id: page.items[0]!.id, note: '  Wang Fang (VIP) ' })).note).toBe('Wang Fang (VIP)');
  });

  it('refuses a second face with the same face id, a photo that is not this hotel’s upload, and a second live authorisation on one room', async () => {
    const d = await pairedRoom();
    const other = await pairedRoom();
    const { face } = await newFace(d.staff);
    const { url } = await storeUpload(ctx.deps, d.staff.actor, 'face', png());
    await expect(createFace(d.staff, { faceId: face.faceId, note: 'x', imageUrl: url })).rejects.toMatchObject({
      code: 'CONFLICT',
      options: { fields: { faceId: 'faces.errors.duplicateFaceId' } },
    });
    const foreign = await storeUpload(ctx.deps, other.staff.actor, 'face', png());
    await expect(createFace(d.staff, { faceId: 'X1', note: 'x', imageUrl: foreign.url })).rejects.toMatchObject({
      code: 'VALIDATION',
      options: { fields: { imageUrl: 'validation.faceImageInvalid' } },
    });
    await expect(createFace(d.staff, { faceId: 'X2', note: 'x', imageUrl: `/uploads/${d.hotel.id}/${randomUUID()}.png` })).rejects.toMatchObject({
      options: { fields: { imageUrl: 'validation.faceImageInvalid' } },
    });
    const owner = await actorContext(ctx.deps, d.ownerToken);
    const gif = await storeUpload(ctx.deps, owner.actor, 'picture', Buffer.concat([Buffer.from('GIF89a'), randomBytes(32)]));
    await expect(createFace(d.staff, { faceId: 'X3', note: 'x', imageUrl: gif.url })).rejects.toMatchObject({
      options: { fields: { imageUrl: 'validation.faceImageType' } },
    });
    await expect(createFace(d.staff, { faceId: ' ', note: 'x', imageUrl: url })).rejects.toMatchObject({
      issues: [expect.objectContaining({ message: 'validation.faceIdRequired' })],
    });
    // A photo under the 300 KB face modules need (stored past the upload's own check): refused too.
    const small = await storePicture(ctx.deps.files, d.hotel.id, pngPhoto(FACE_RULES.imageMinBytes - 1), undefined, 'face');
    await expect(createFace(d.staff, { faceId: 'X4', note: 'x', imageUrl: small!.url })).rejects.toMatchObject({
      code: 'VALIDATION',
      options: { fields: { imageUrl: 'validation.faceImageTooSmall' } },
    });

    await authorizeFace(d.staff, { id: face.id, roomId: d.room.id });
    await expect(authorizeFace(d.staff, { id: face.id, roomId: d.room.id })).rejects.toMatchObject({
      code: 'CONFLICT',
      options: { messageKey: 'faces.errors.alreadyAuthorized' },
    });
    // One whose time is over gives way: it comes off the lock, replaced.
    const { face: returning } = await newFace(d.staff);
    const old = await ctx.deps.prisma.faceAuthorization.create({
      data: {
        hotelId: d.hotel.id,
        faceId: returning.id,
        roomId: d.room.id,
        validFrom: new Date(Date.now() - 7_200_000),
        validUntil: new Date(Date.now() - 3_600_000),
        deliveryState: 'on_lock',
      },
    });
    expect((await listFaceAuthorizations(d.staff, { id: returning.id })).total).toBe(0);
    expect((await listFaceAuthorizations(d.staff, { id: returning.id, scope: 'history' })).items).toMatchObject([{ id: old.id, expired: true }]);
    const again = await authorizeFace(d.staff, { id: returning.id, roomId: d.room.id });
    expect(await waitForState(old.id, ['removed'])).toMatchObject({ revokeReason: 'replaced' });
    expect(await waitForState(again.id, ['on_lock'])).toMatchObject({ lastError: null });
    // Two at the same moment: one wins, the other is told, none is lost.
    const { face: raced } = await newFace(d.staff);
    const results = await Promise.allSettled(Array.from({ length: 4 }, () => authorizeFace(d.staff, { id: raced.id, roomId: d.otherRoom.id })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 'rejected')) expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'CONFLICT' });
  });

  it('refuses to delete a face while it may be on a lock; once its authorisations are removed, deletes it and its photo', async () => {
    const d = await pairedRoom();
    const { face } = await newFace(d.staff);
    const auth = await authorizeFace(d.staff, { id: face.id, roomId: d.room.id });
    await waitForState(auth.id, ['on_lock']);
    await expect(deleteFace(d.staff, { id: face.id })).rejects.toMatchObject({
      code: 'CONFLICT',
      options: { messageKey: 'faces.errors.stillAuthorized', params: { rooms: d.room.name } },
    });
    expect(await ctx.deps.prisma.face.count({ where: { id: face.id } })).toBe(1);
    // A member limited to other rooms is refused too, told how many rooms, never which.
    const limited = { ...d.staff, actor: { ...d.staff.actor, allRooms: false } };
    const refusal = await deleteFace(limited, { id: face.id }).catch((e: unknown) => e);
    expect(refusal).toMatchObject({ code: 'CONFLICT', options: { messageKey: 'faces.errors.stillAuthorizedElsewhere', params: { rooms: '', count: 1 } } });
    expect(JSON.stringify(refusal)).not.toContain(d.room.name);
    expect(ctx.deps.i18n.t('en', 'faces.errors.stillAuthorizedElsewhere', { count: 1, rooms: '' })).toBe(
      'This face is still authorised on the lock of 1 room you do not manage. Ask someone who manages it to delete that authorisation first.',
    );

    await revokeFaceAuthorization(d.staff, { authorizationId: auth.id });
    await waitForState(auth.id, ['removed']);
    const file = await photoFile(face.id);
    expect(fs.existsSync(file)).toBe(true);
    expect(await fetchPhoto(face.imageUrl)).toBeInstanceOf(Buffer);
    await deleteFace(d.staff, { id: face.id });
    // Its signed URL, still within its time, shows nothing any more.
    expect(await fetchPhoto(face.imageUrl)).toBe(404);
    expect(await ctx.deps.prisma.face.count({ where: { id: face.id } })).toBe(0);
    expect(await ctx.deps.prisma.faceAuthorization.count({ where: { id: auth.id } })).toBe(0);
    expect(fs.existsSync(file)).toBe(false);
    await expect(deleteFace(d.staff, { id: face.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('face procedures across hotels', () => {
  it('answers hotel B "not found" for every face and authorisation of hotel A, and changes nothing', async () => {
    const a = await pairedRoom();
    const b = await pairedRoom();
    const { face, path: photoPath } = await newFace(a.staff);
    const auth = await authorizeFace(a.staff, { id: face.id, roomId: a.room.id });
    await waitForState(auth.id, ['on_lock']);
    const stayOfA = await stayIn(a, a.otherRoom.id);
    const before = JSON.stringify([
      await ctx.deps.prisma.face.findUniqueOrThrow({ where: { id: face.id } }),
      await ctx.deps.prisma.faceAuthorization.findUniqueOrThrow({ where: { id: auth.id } }),
    ]);
    const { url } = await storeUpload(ctx.deps, b.staff.actor, 'face', png());
    const token = b.ownerToken;
    const notFound = [
      await api.query('face.get', { id: face.id }, { token }),
      await api.mutation('face.updateNote', { id: face.id, note: 'stolen' }, { token }),
      await api.mutation('face.delete', { id: face.id }, { token }),
      await api.mutation('face.authorize', { id: face.id, roomId: b.room.id }, { token }),
      await api.mutation('face.authorize', { id: face.id, roomId: a.room.id }, { token }),
      await api.mutation('face.revokeAuthorization', { authorizationId: auth.id }, { token }),
      await api.mutation('face.retryAuthorization', { authorizationId: auth.id }, { token }),
      await api.mutation('face.updateAuthorizationNote', { authorizationId: auth.id, note: 'stolen' }, { token }),
      // A's face, room or stay as a filter of B's list is not found too, never an empty list that looks fine.
      await api.query('face.authorizations', { page: 1, pageSize: 100, id: face.id, scope: 'all' }, { token }),
      await api.query('face.authorizations', { page: 1, pageSize: 100, roomId: a.room.id, scope: 'all' }, { token }),
      await api.query('face.authorizations', { page: 1, pageSize: 100, stayId: stayOfA.id, scope: 'all' }, { token }),
    ];
    for (const res of notFound) expect(res.error?.data.app?.code, JSON.stringify(res.error)).toBe('NOT_FOUND');
    // A's face is not in B's lists, and B cannot make a face of A's photo.
    expect((await api.query('face.list', { page: 1, pageSize: 100 }, { token })).data?.items.map((f) => f.id)).not.toContain(face.id);
    expect((await api.mutation('face.create', { faceId: 'B-1', note: 'x', imageUrl: photoPath }, { token })).error?.data.app?.fields).toEqual({
      imageUrl: 'The face photo was not found. Upload it again',
    });
    expect((await api.mutation('face.create', { faceId: 'B-1', note: 'x', imageUrl: face.imageUrl }, { token })).error?.data.app?.fields).toEqual({
      imageUrl: 'The face photo was not found. Upload it again',
    });
    // B's lists show B's photos only: A's URL, as B would get it for A's face, shows nothing.
    expect(await fetchPhoto(face.imageUrl.replace(`/photo/${a.hotel.id}/`, `/photo/${b.hotel.id}/`))).toBe(404);
    expect((await api.mutation('face.create', { faceId: face.faceId, note: 'same id, other hotel', imageUrl: url }, { token })).data).toMatchObject({
      faceId: face.faceId,
    });
    const after = JSON.stringify([
      await ctx.deps.prisma.face.findUniqueOrThrow({ where: { id: face.id } }),
      await ctx.deps.prisma.faceAuthorization.findUniqueOrThrow({ where: { id: auth.id } }),
    ]);
    expect(after).toBe(before);
    // The procedures work for hotel A.
    expect((await api.query('face.get', { id: face.id }, { token: a.ownerToken })).data).toMatchObject({ id: face.id, activeAuthorizations: 1 });
  });
});
