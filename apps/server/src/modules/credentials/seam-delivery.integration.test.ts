import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHotelWithStaff, createRooms, uniqueMobile } from '../../test/factories';
import { actorContext, type TestContext } from '../../test/harness';
import { type SeamFake } from '../../test/seam-fake';
import { seamTestContext, type SeamTestContext } from '../../test/seam-context';
import { trpcClient } from '../../test/trpc-client';
import { checkIn } from '../stays/check-in';
import { refreshLockStatus } from '../locks/lock-status';
import { checkOut } from '../stays/check-out';
import { sendCard } from '../cards/card-send';
import { getRoom } from '../room/room-list';
import { authorizeFace } from './face-authorization.service';
import { createPassword, getPassword, revokePassword } from './password.service';

/**
 * Issue 38: a stay's code on a lock whose platform answers a write before the lock has it (Seam:
 * an access code is `unset`, then `setting`, then `set`). The delivery engine keeps the password
 * `pending` while Seam sets it, asks Seam where it stands (no attempt spent) and says `on_lock`
 * only once Seam says `set`; a code Seam gives up on is taken off Seam and failed with the reason;
 * a removal Seam carries out later stays `removing` until Seam no longer has the code. Against
 * Seam's fake (test/seam-fake.ts; the code's life is OUR layer's `setCode`, the fake never moves
 * it), the real workers on the run's Redis, the real database.
 */
let seam: SeamTestContext;
let fake: SeamFake;
let ctx: TestContext;

beforeAll(async () => {
  seam = await seamTestContext({ env: { LOCK_DELIVERY_ATTEMPTS: '2', LOCK_DELIVERY_BACKOFF_MS: '100' }, workers: true });
  ({ fake, ctx } = seam);
});

afterAll(() => seam?.close());

/** A hotel with a room whose door is a keypad lock of its own Seam workspace, connected and paired. */
async function seamRoom(flags: Record<string, unknown> = {}) {
  const h = await createHotelWithStaff(ctx.deps);
  const api = trpcClient(ctx.app);
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['401']);
  const workspace = await fake.ours.addWorkspace('Delivery');
  const door = await fake.ours.addDevice({ name: 'Room 401', workspace_id: workspace.workspace_id, can_program_online_access_codes: true, ...flags });
  const connect = await api.mutation('lockAccount.connectSeam', { apiKey: workspace.api_key, label: '' }, { token: h.ownerToken });
  expect(connect.error, JSON.stringify(connect.error)).toBeUndefined();
  expect((await api.mutation('lockAccount.importLocks', { accountId: connect.data!.id }, { token: h.ownerToken })).data).toMatchObject({ added: 1 });
  const lock = await ctx.deps.prisma.lock.findFirstOrThrow({ where: { hotelId: h.hotel.id, providerLockId: door.device_id } });
  await ctx.deps.prisma.room.update({ where: { id: rooms[0]!.id }, data: { lockId: lock.id } });
  const staff = await actorContext(ctx.deps, h.staffToken);
  const stay = await checkIn(staff, {
    roomId: rooms[0]!.id,
    checkInAt: new Date(Date.now() - 60_000),
    expectedCheckOutAt: new Date(Date.now() + 26 * 3_600_000),
    guests: [{ name: 'Amira Haddad', mobile: uniqueMobile() }],
    idempotencyKey: randomUUID(),
  });
  return { ...h, room: rooms[0]!, device: door.device_id, staff, stay };
}

const password = (id: number) => ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id } });

/** Waits until the password is as `ready` says (the engine's answer, read from the database). */
async function until(id: number, ready: (row: Awaited<ReturnType<typeof password>>) => boolean, what: string, ms = 20_000) {
  const end = Date.now() + ms;
  for (;;) {
    const row = await password(id);
    if (ready(row)) return row;
    if (Date.now() > end) throw new Error(`password ${id}: ${what} awaited, found ${JSON.stringify(row)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const accepted = (row: Awaited<ReturnType<typeof password>>) => row.providerRef !== null && row.acceptedVersion === row.version;
/** The calls Seam's fake answered about a device (each test's lock is its own), by path. */
const deviceCalls = async (device: string) => (await fake.ours.calls()).filter((c) => c.device_id === device).map((c) => c.path);
const events = (id: number) =>
  ctx.deps.prisma.$queryRaw<{ kind: string }[]>`SELECT "kind" FROM "DomainEvent" WHERE "ids"->>'credentialId' = ${String(id)} ORDER BY "id"`;

describe('a code on a Seam lock', () => {
  it('stays pending while Seam sets it, asking Seam where it stands, and is on the lock once Seam says set; at check-out it is removed once Seam no longer has it', async () => {
    const r = await seamRoom();
    const created = await createPassword(r.staff, { roomId: r.room.id, stayId: r.stay.id, kind: 'custom', code: '583916' });
    const first = await until(created.id, accepted, 'accepted by Seam');
    expect(first).toMatchObject({ deliveryState: 'pending', lastError: null, attempts: 0 });
    // The console says it is being set on the lock, not on its way to it.
    expect(await getPassword(r.staff, { id: created.id })).toMatchObject({ deliveryState: 'pending', setting: true });
    const ref = first.providerRef!;
    // Asked again, more than once, without being sent again: one create, then questions.
    await expect.poll(async () => (await deviceCalls(r.device)).filter((p) => p === '/access_codes/get').length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    expect((await fake.ours.state()).access_codes.filter((c) => c.device_id === r.device)).toHaveLength(1);
    expect((await password(created.id)).deliveryState).toBe('pending');
    // What the lock takes came from its row (kept at the import), not from a device read before the create.
    expect(await deviceCalls(r.device)).not.toContain('/devices/get');

    // Seam still trying (a delay it warns of): still pending, the trouble said.
    await fake.ours.setCode(ref, { status: 'setting', warnings: ['delay_in_setting_on_device'] });
    await until(created.id, (row) => row.lastError === 'lock_busy', 'the delay said');
    expect((await password(created.id)).deliveryState).toBe('pending');

    await fake.ours.setCode(ref, { status: 'set', warnings: [] });
    const onLock = await until(created.id, (row) => row.deliveryState !== 'pending', 'on the lock');
    expect(onLock).toMatchObject({ deliveryState: 'on_lock', lastError: null, providerRef: ref, acceptedVersion: null });
    expect(onLock.deliveredAt).not.toBeNull();
    expect(await getPassword(r.staff, { id: created.id })).toMatchObject({ deliveryState: 'on_lock', setting: false });
    expect((await events(created.id)).map((e) => e.kind)).toEqual(expect.arrayContaining(['credential.changed', 'credential.onLock']));

    // Seam removes later: removing until the code is gone from Seam.
    await fake.ours.behaviour(r.device, { removal: 'slow' });
    await checkOut(r.staff, { stayId: r.stay.id });
    await expect.poll(async () => (await deviceCalls(r.device)).includes('/access_codes/delete'), { timeout: 10_000 }).toBe(true);
    expect((await password(created.id)).deliveryState).toBe('removing');
    const deletes = (await deviceCalls(r.device)).filter((p) => p === '/access_codes/delete').length;
    await fake.ours.codeRemoved(ref);
    const removed = await until(created.id, (row) => row.deliveryState !== 'removing', 'removed');
    expect(removed).toMatchObject({ deliveryState: 'removed', revokeReason: 'check_out' });
    // The removal was sent once: the questions after it did not send it again.
    expect((await deviceCalls(r.device)).filter((p) => p === '/access_codes/delete').length).toBe(deletes);
  });

  it('takes a code Seam gave up on off Seam, sends a new one, and fails with the reason when Seam gives up again', async () => {
    const r = await seamRoom();
    const created = await createPassword(r.staff, { roomId: r.room.id, stayId: r.stay.id, kind: 'custom', code: '730194' });
    const first = await until(created.id, accepted, 'accepted by Seam');
    await fake.ours.setCode(first.providerRef!, { status: 'unset', errors: ['failed_to_set_on_device'] });
    // Retried (the lock may take it next time): the failed copy deleted, a new one accepted.
    const second = await until(created.id, (row) => accepted(row) && row.providerRef !== first.providerRef, 'a second copy accepted');
    // The failed try counted; Seam's new copy has no trouble yet.
    expect(second).toMatchObject({ deliveryState: 'pending', lastError: null, attempts: 1 });
    expect((await fake.ours.state()).access_codes.map((c) => c.access_code_id)).not.toContain(first.providerRef);
    await fake.ours.setCode(second.providerRef!, { status: 'unset', errors: ['failed_to_set_on_device'] });
    const failed = await until(created.id, (row) => row.deliveryState !== 'pending', 'failed');
    expect(failed).toMatchObject({ deliveryState: 'failed', lastError: 'failed_on_lock', attempts: 2 });
    expect((await fake.ours.state()).access_codes.filter((c) => c.device_id === r.device)).toHaveLength(0);
  });

  it("gives the guest one of the lock's backup codes when Seam fails to set the chosen one, and says so; a lock without a pool fails as before", async () => {
    const r = await seamRoom({ properties: { supports_backup_access_code_pool: true } });
    const created = await createPassword(r.staff, { roomId: r.room.id, stayId: r.stay.id, kind: 'custom', code: '461739' });
    const first = await until(created.id, accepted, 'accepted by Seam');
    // Created with Seam's backup pool (a time-bound code on a lock that has one): Seam keeps backups on the lock.
    const backups = async () => (await fake.ours.state()).access_codes.filter((c) => c.device_id === r.device && c.is_backup === true).length;
    expect(await backups()).toBeGreaterThan(0);
    await fake.ours.setCode(first.providerRef!, { status: 'unset', errors: ['failed_to_set_on_device'] });
    const backup = await until(created.id, (row) => row.deliveryState !== 'pending', 'a backup code');
    const onSeam = (await fake.ours.state()).access_codes.filter((c) => c.device_id === r.device);
    const pulled = onSeam.find((c) => c.access_code_id === backup.providerRef);
    expect(pulled).toMatchObject({ is_backup: true });
    expect(backup).toMatchObject({ deliveryState: 'on_lock', backupCode: true, code: pulled!.code, lastError: null, attempts: 0, acceptedVersion: null });
    // The failed code is taken off Seam; the desk is told the code changed and why.
    expect(onSeam.map((c) => c.access_code_id)).not.toContain(first.providerRef);
    expect(await getPassword(r.staff, { id: created.id })).toMatchObject({ deliveryState: 'on_lock', backupCode: true, code: pulled!.code });
    expect((await events(created.id)).map((e) => e.kind)).toContain('credential.onLock');

    // An ongoing code (no end) is made without the pool (Seam refuses a pool for one): accepted, no backup added.
    const before = await backups();
    const ongoing = await createPassword(r.staff, { roomId: r.room.id, kind: 'custom', code: '902715', holderName: 'Manager' });
    expect(await until(ongoing.id, (row) => accepted(row) || row.deliveryState !== 'pending', 'accepted by Seam')).toMatchObject({ deliveryState: 'pending' });
    expect(await backups()).toBe(before);
  });

  it('sends a code again when Seam no longer has the one it accepted', async () => {
    const r = await seamRoom();
    const created = await createPassword(r.staff, { roomId: r.room.id, stayId: r.stay.id, kind: 'custom', code: '284615' });
    const first = await until(created.id, accepted, 'accepted by Seam');
    await fake.ours.codeRemoved(first.providerRef!);
    const again = await until(created.id, (row) => accepted(row) && row.providerRef !== first.providerRef, 'sent again');
    expect(again).toMatchObject({ deliveryState: 'pending', attempts: 0 });
    await fake.ours.setCode(again.providerRef!, { status: 'set' });
    expect(await until(created.id, (row) => row.deliveryState !== 'pending', 'on the lock')).toMatchObject({ deliveryState: 'on_lock' });
  });

  it('keeps an offline code Seam cannot take off as such, says it works until its end, and asks Seam no more about it at each status cycle', async () => {
    const r = await seamRoom({ can_program_offline_access_codes: true });
    const created = await createPassword(r.staff, {
      roomId: r.room.id,
      kind: 'air',
      holderName: 'Night porter',
      validUntil: new Date(Date.now() + 5 * 3_600_000),
    });
    // An offline code is computed by Seam: on the lock as soon as it has its PIN.
    const onLock = await until(created.id, (row) => row.deliveryState !== 'pending', 'on the lock');
    expect(onLock).toMatchObject({ deliveryState: 'on_lock', acceptedVersion: null });
    expect(onLock.code).toMatch(/^\d+$/);
    // Marked as an offline code left on the lock, as a gateway-down removal would leave one.
    await ctx.deps.prisma.lockPassword.update({ where: { id: created.id }, data: { offline: true } });
    await revokePassword(r.staff, { id: created.id });
    const kept = await until(created.id, (row) => row.deliveryState !== 'removing', 'the removal refused');
    expect(kept).toMatchObject({ deliveryState: 'remove_failed', lastError: 'offline_kept', attempts: 1 });
    expect((await fake.ours.state()).access_codes.filter((c) => c.device_id === r.device)).toHaveLength(1);
    // The next status cycles find the lock online and leave the code as it is: no removal again.
    const before = (await deviceCalls(r.device)).length;
    await refreshLockStatus(ctx.deps, { hotelId: r.hotel.id });
    await refreshLockStatus(ctx.deps, { hotelId: r.hotel.id });
    expect(await password(created.id)).toMatchObject({ deliveryState: 'remove_failed', lastError: 'offline_kept', version: kept.version });
    expect((await deviceCalls(r.device)).length).toBe(before);
  });

  it('offers and takes only what a keypad-only Seam lock can take: a chosen code, not a generated one, a face or a card, each refused naming the room', async () => {
    const r = await seamRoom();
    // The room page is told what its lock takes (it offers only that).
    expect((await getRoom(r.staff, r.room.id)).lock?.takes).toEqual({
      onlineCodes: true,
      offlineCodes: false,
      faces: false,
      cards: false,
      noZero: false,
      encodedCards: false,
    });
    const refusal = async (work: Promise<unknown>) => {
      const error = (await work.then(
        () => null,
        (e: unknown) => e,
      )) as { code?: string; options?: { messageKey?: string; params?: Record<string, unknown> } } | null;
      return { code: error?.code, messageKey: error?.options?.messageKey, room: error?.options?.params?.room };
    };
    expect(
      await refusal(createPassword(r.staff, { roomId: r.room.id, kind: 'air', holderName: 'Cleaner', validUntil: new Date(Date.now() + 5 * 3_600_000) })),
    ).toEqual({
      code: 'CONFLICT',
      messageKey: 'credentials.errors.lockTakesNoOfflineCodes',
      room: '401',
    });
    const face = await ctx.deps.prisma.face.create({
      data: { hotelId: r.hotel.id, faceId: `F${Date.now()}`, note: 'Amira', imageUrl: '/uploads/none.jpg', imageSha256: '0'.repeat(64) },
    });
    expect(await refusal(authorizeFace(r.staff, { id: face.id, roomId: r.room.id, stayId: r.stay.id }))).toEqual({
      code: 'CONFLICT',
      messageKey: 'credentials.errors.lockTakesNoFaces',
      room: '401',
    });
    expect(await refusal(sendCard(r.staff, { cardNumber: '3661413478', stayId: r.stay.id }))).toEqual({
      code: 'CONFLICT',
      messageKey: 'credentials.errors.lockTakesNoCards',
      room: '401',
    });
    // Nothing was written for them; a chosen code is taken.
    expect(await ctx.deps.prisma.faceAuthorization.count({ where: { roomId: r.room.id } })).toBe(0);
    expect(await ctx.deps.prisma.cardIssue.count({ where: { hotelId: r.hotel.id } })).toBe(0);
    expect((await createPassword(r.staff, { roomId: r.room.id, stayId: r.stay.id, kind: 'custom', code: '620481' })).deliveryState).toBe('pending');
  });
});
