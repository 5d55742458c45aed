import { randomBytes, randomUUID } from 'node:crypto';
import { FACE_RULES } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor, AuthedContext } from '../../context';
import { hotelWithDoors } from '../../test/lock-factories';
import { createRooms, uniqueMobile } from '../../test/factories';
import { listHotelLocks } from '../locks/accounts/hotel-locks';
import { pollLockRecords } from '../locks/records';
import { authorizeFace } from '../credentials/face-authorization.service';
import { createFace } from '../credentials/face.service';
import { createPassword } from '../credentials/password.service';
import { storeUpload } from '../uploads/upload.service';
import { checkIn } from '../stays/check-in';
import { checkOut } from '../stays/check-out';
import { renewStay } from '../stays/renewal';
import { changeRoom } from '../stays/room-change';
import { getSharedDoor, listSharedDoors, setSharedDoor, stayDoors, unsetSharedDoor } from './shared-door.service';
import { startSimDesk, stopSimDesk, type SimDesk } from '../../test/sim-desk';

/**
 * Shared doors (issue 20 §5): a stay's codes and faces are issued on the shared doors its room is
 * served by, with the same validity, through the real TTLock adapter against apps/lock-sim, with
 * the real workers, Redis and database; they are withdrawn with the stay, follow a room change and
 * a renewal. What opens which door is asked of the simulated locks themselves.
 */

let { sim, client, ctx, workers } = {} as SimDesk;
beforeAll(async () => void ({ sim, client, ctx, workers } = await startSimDesk()));
afterAll(() => stopSimDesk({ sim, ctx, workers }));

type Staff = AuthedContext & { actor: Actor };

const hotel = (count: number, doors = 1) => hotelWithDoors(ctx.deps, client, { rooms: count, doors, prefix: 'S' });

async function stayIn(staff: Staff, roomId: number, until = new Date(Date.now() + 26 * 3_600_000)) {
  return checkIn(staff, {
    roomId,
    checkInAt: new Date(Date.now() - 60_000),
    expectedCheckOutAt: until,
    guests: [{ name: 'Lin Wei', mobile: uniqueMobile() }],
    idempotencyKey: randomUUID(),
  });
}

const settled = (state: string) => !['pending', 'removing'].includes(state);
const use = (lockId: string, body: Record<string, unknown>) => client.control<{ opened: boolean; outcome: string }>('POST', `/locks/${lockId}/use`, body);

/** The stay's live copies on a door, once every one of them is settled. */
async function copiesOn(stayId: number, doorLockId: number, count: number) {
  let rows: Awaited<ReturnType<typeof ctx.deps.prisma.lockPassword.findMany>> = [];
  await expect
    .poll(
      async () => {
        rows = await ctx.deps.prisma.lockPassword.findMany({ where: { stayId, doorLockId }, orderBy: { id: 'asc' } });
        return rows.length >= count && rows.every((r) => settled(r.deliveryState));
      },
      { timeout: 20_000, interval: 50 },
    )
    .toBe(true);
  return rows;
}

const opens = (simLockId: string, body: Record<string, unknown>) =>
  expect.poll(async () => (await use(simLockId, body)).opened, { timeout: 20_000, interval: 100 });

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('a stay’s codes on the shared doors serving its room', () => {
  it('opens its room and the entrance serving it, not a door serving other rooms; after check-out both refuse', async () => {
    const h = await hotel(2, 2);
    const [a, b] = h.rooms as [(typeof h.rooms)[0], (typeof h.rooms)[0]];
    const [entrance, gym] = h.doors as [(typeof h.doors)[0], (typeof h.doors)[0]];
    await setSharedDoor(h.owner, { lockId: entrance.id, kind: 'entrance', roomIds: [a.id] });
    await setSharedDoor(h.owner, { lockId: gym.id, kind: 'gym', roomIds: [b.id] });
    const stay = await stayIn(h.staff, a.id);
    const pw = await createPassword(h.staff, { roomId: a.id, stayId: stay.id, kind: 'custom', code: '731946' });

    const [copy] = await copiesOn(stay.id, entrance.id, 1);
    expect(copy).toMatchObject({ deliveryState: 'on_lock', code: '731946', copyOfId: pw.id, roomId: a.id, kind: 'custom' });
    expect(copy!.validUntil?.toISOString()).toBe(pw.validUntil);
    expect(copy!.validFrom.toISOString()).toBe(pw.validFrom);
    await opens(a.simLockId, { passcode: '731946' }).toBe(true);
    expect(await use(entrance.simLockId, { passcode: '731946' })).toMatchObject({ opened: true });
    expect(await use(gym.simLockId, { passcode: '731946' })).toMatchObject({ opened: false });
    expect(await ctx.deps.prisma.lockPassword.count({ where: { stayId: stay.id, doorLockId: gym.id } })).toBe(0);

    // The entrance's records show the stay (and room) that opened it.
    await expect
      .poll(
        async () => {
          await pollLockRecords(ctx.deps, { hotelId: h.hotel.id, all: true });
          return ctx.deps.prisma.unlockRecord.findMany({
            where: { hotelId: h.hotel.id, doorLockId: entrance.id },
            select: { roomId: true, stayId: true, success: true, credential: true },
          });
        },
        { timeout: 20_000, interval: 200 },
      )
      .toEqual([{ roomId: a.id, stayId: stay.id, success: true, credential: `password:${copy!.id}` }]);

    // The stay card: the doors it opens, with their delivery state.
    const doors = await stayDoors(h.staff, { stayId: stay.id });
    expect(doors.doors).toEqual([
      expect.objectContaining({
        lockId: entrance.id,
        kind: 'entrance',
        credentials: [expect.objectContaining({ kind: 'password', copyOfId: pw.id, deliveryState: 'on_lock' })],
      }),
    ]);
    expect((await getSharedDoor(h.staff, { lockId: entrance.id })).credentials).toEqual({ onLock: 1, pending: 0, failed: 0 });

    await checkOut(h.staff, { stayId: stay.id });
    await expect
      .poll(async () => (await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: copy!.id } })).deliveryState, { timeout: 20_000, interval: 50 })
      .toBe('removed');
    expect((await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: copy!.id } })).revokeReason).toBe('check_out');
    await opens(a.simLockId, { passcode: '731946' }).toBe(false);
    expect(await use(entrance.simLockId, { passcode: '731946' })).toMatchObject({ opened: false });
  });

  it('copies a generated code once the lock cloud made it, and a door serving the room’s group', async () => {
    const h = await hotel(1, 1);
    const [a] = h.rooms as [(typeof h.rooms)[0]];
    const [lift] = h.doors as [(typeof h.doors)[0]];
    await setSharedDoor(h.owner, { lockId: lift.id, kind: 'lift', groupIds: [h.group.id] });
    const stay = await stayIn(h.staff, a.id);
    const pw = await createPassword(h.staff, { roomId: a.id, stayId: stay.id, kind: 'air' });
    const [copy] = await copiesOn(stay.id, lift.id, 1);
    const room = await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: pw.id } });
    expect(room.code).toMatch(/^\d{6,9}$/);
    expect(copy).toMatchObject({ deliveryState: 'on_lock', code: room.code, copyOfId: pw.id });
    expect(await use(lift.simLockId, { passcode: room.code })).toMatchObject({ opened: true });
  });

  it('moves the entrance code to the doors of the new room on a room change', async () => {
    const h = await hotel(2, 2);
    const [a, b] = h.rooms as [(typeof h.rooms)[0], (typeof h.rooms)[0]];
    const [east, west] = h.doors as [(typeof h.doors)[0], (typeof h.doors)[0]];
    await setSharedDoor(h.owner, { lockId: east.id, kind: 'entrance', roomIds: [a.id] });
    await setSharedDoor(h.owner, { lockId: west.id, kind: 'entrance', roomIds: [b.id] });
    const stay = await stayIn(h.staff, a.id);
    await createPassword(h.staff, { roomId: a.id, stayId: stay.id, kind: 'custom', code: '602418' });
    const [before] = await copiesOn(stay.id, east.id, 1);
    expect(before).toMatchObject({ deliveryState: 'on_lock' });

    const moved = await changeRoom(h.staff, { stayId: stay.id, targetRoomId: b.id });
    const [after] = await copiesOn(moved.id, west.id, 1);
    expect(after).toMatchObject({ deliveryState: 'on_lock', code: '602418', roomId: b.id });
    await expect
      .poll(async () => (await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: before!.id } })).deliveryState, { timeout: 20_000, interval: 50 })
      .toBe('removed');
    expect(await use(west.simLockId, { passcode: '602418' })).toMatchObject({ opened: true });
    expect(await use(east.simLockId, { passcode: '602418' })).toMatchObject({ opened: false });
  });

  it('extends the door’s copy with a renewal', async () => {
    const h = await hotel(1, 1);
    const [a] = h.rooms as [(typeof h.rooms)[0]];
    const [gym] = h.doors as [(typeof h.doors)[0]];
    await setSharedDoor(h.owner, { lockId: gym.id, kind: 'gym', roomIds: [a.id] });
    const stay = await stayIn(h.staff, a.id);
    const pw = await createPassword(h.staff, { roomId: a.id, stayId: stay.id, kind: 'custom', code: '845102' });
    const [copy] = await copiesOn(stay.id, gym.id, 1);
    const newEnd = new Date(new Date(stay.expectedCheckOutAt).getTime() + 24 * 3_600_000);
    await renewStay(h.staff, { stayId: stay.id, expectedCheckOutAt: newEnd });
    const room = await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: pw.id } });
    expect(room.validUntil!.getTime()).toBeGreaterThan(new Date(pw.validUntil!).getTime());
    await expect
      .poll(
        async () => {
          const c = await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: copy!.id } });
          return [c.validUntil?.getTime(), c.deliveryState];
        },
        { timeout: 20_000, interval: 50 },
      )
      .toEqual([room.validUntil!.getTime(), 'on_lock']);
  });

  it('issues a stay’s face on the door too, and a room added to a door gives its live stays their codes there', async () => {
    const h = await hotel(2, 1);
    const [a, b] = h.rooms as [(typeof h.rooms)[0], (typeof h.rooms)[0]];
    const [door] = h.doors as [(typeof h.doors)[0]];
    await setSharedDoor(h.owner, { lockId: door.id, kind: 'parking', roomIds: [a.id] });
    const stay = await stayIn(h.staff, a.id);
    const { url } = await storeUpload(ctx.deps, h.staff.actor, 'face', Buffer.concat([PNG_SIGNATURE, randomBytes(FACE_RULES.imageMinBytes)]));
    const f = await createFace(h.staff, { faceId: `F-${randomUUID().slice(0, 8)}`, note: 'Lin Wei', imageUrl: url, guestId: stay.guests[0]!.id });
    const auth = await authorizeFace(h.staff, { id: f.id, roomId: a.id, stayId: stay.id });
    await expect
      .poll(async () => (await ctx.deps.prisma.faceAuthorization.findMany({ where: { copyOfId: auth.id, doorLockId: door.id } })).map((c) => c.deliveryState), {
        timeout: 20_000,
        interval: 50,
      })
      .toEqual(['on_lock']);

    // Room b joins the door: its live stay gets its code there at once.
    const other = await stayIn(h.staff, b.id);
    await createPassword(h.staff, { roomId: b.id, stayId: other.id, kind: 'custom', code: '390517' });
    expect(await ctx.deps.prisma.lockPassword.count({ where: { stayId: other.id, doorLockId: door.id } })).toBe(0);
    await setSharedDoor(h.owner, { lockId: door.id, kind: 'parking', roomIds: [a.id, b.id] });
    await copiesOn(other.id, door.id, 1);
    expect(await use(door.simLockId, { passcode: '390517' })).toMatchObject({ opened: true });

    // Made a plain lock again: the codes come off it.
    const { revoked } = await unsetSharedDoor(h.owner, { lockId: door.id });
    expect(revoked).toBe(2);
    await expect.poll(async () => (await use(door.simLockId, { passcode: '390517' })).opened, { timeout: 20_000, interval: 100 }).toBe(false);
    expect((await listSharedDoors(h.owner)).items).toEqual([]);
  });
});

describe('setting a shared door', () => {
  it('refuses a room’s door, another hotel’s lock, room and group, and staff', async () => {
    const h = await hotel(1, 1);
    const other = await hotel(1, 1);
    const [a] = h.rooms as [(typeof h.rooms)[0]];
    const roomLock = (await ctx.deps.prisma.room.findUniqueOrThrow({ where: { id: a.id } })).lockId!;
    await expect(setSharedDoor(h.owner, { lockId: roomLock, kind: 'entrance' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'sharedDoors.errors.roomDoor',
    });
    // The database says the same to a write that skips the service.
    await expect(ctx.deps.prisma.lock.update({ where: { id: roomLock }, data: { sharedKind: 'lift' } })).rejects.toThrow(/shared door/);
    await expect(setSharedDoor(h.owner, { lockId: other.doors[0]!.id, kind: 'entrance' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(setSharedDoor(h.owner, { lockId: h.doors[0]!.id, kind: 'entrance', roomIds: [other.rooms[0]!.id] })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(setSharedDoor(h.owner, { lockId: h.doors[0]!.id, kind: 'entrance', groupIds: [other.group.id] })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(setSharedDoor(h.staff, { lockId: h.doors[0]!.id, kind: 'entrance' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(getSharedDoor(other.owner, { lockId: h.doors[0]!.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // Nothing was written.
    expect(await ctx.deps.prisma.lock.findUniqueOrThrow({ where: { id: h.doors[0]!.id } })).toMatchObject({ sharedKind: null });
    // A shared door cannot become a room's door either.
    await setSharedDoor(h.owner, { lockId: h.doors[0]!.id, kind: 'gym' });
    await expect(ctx.deps.prisma.room.update({ where: { id: a.id }, data: { lockId: h.doors[0]!.id } })).rejects.toThrow(/shared door/);
  });

  it('the hotel’s lock list shows a shared door in use: not unpaired, no room proposed by its name, among the paired', async () => {
    const h = await hotel(1, 1);
    const door = h.doors[0]!;
    // A room without a lock named as the door's lock: before it is a shared door, the lock is proposed for it.
    const { rooms } = await createRooms(ctx.deps, h.hotel.id, [`E${randomUUID().slice(0, 6)}`]);
    await ctx.deps.prisma.lock.update({ where: { id: door.id }, data: { name: rooms[0]!.name, alias: rooms[0]!.name } });
    const list = (filter: 'all' | 'unpaired' | 'paired') => listHotelLocks(h.owner, { filter, page: 1, pageSize: 50 });
    const before = await list('unpaired');
    expect(before.items.find((l) => l.id === door.id)).toMatchObject({ sharedDoor: null, suggestedRoom: { id: rooms[0]!.id } });

    await setSharedDoor(h.owner, { lockId: door.id, kind: 'entrance', roomIds: [h.rooms[0]!.id] });
    const unpaired = await list('unpaired');
    expect(unpaired.items.map((l) => l.id)).not.toContain(door.id);
    expect(unpaired.unpaired).toBe(before.unpaired - 1);
    expect(unpaired.suggestions).toBe(before.suggestions - 1);
    expect((await list('paired')).items.find((l) => l.id === door.id)).toMatchObject({ sharedDoor: 'entrance', room: null, suggestedRoom: null });
    expect((await list('all')).items.find((l) => l.id === door.id)).toMatchObject({ sharedDoor: 'entrance' });
    // No longer a shared door: unpaired again, and proposed for the room of its name.
    await unsetSharedDoor(h.owner, { lockId: door.id });
    expect((await list('unpaired')).items.find((l) => l.id === door.id)).toMatchObject({ sharedDoor: null, suggestedRoom: { id: rooms[0]!.id } });
  });

  it('two identical requests at once: one door, one serving row each, one audit row', async () => {
    const h = await hotel(1, 1);
    const input = { lockId: h.doors[0]!.id, kind: 'entrance' as const, roomIds: [h.rooms[0]!.id], groupIds: [h.group.id] };
    const [x, y] = await Promise.all([setSharedDoor(h.owner, input), setSharedDoor(h.owner, input)]);
    expect(x).toEqual(y);
    expect(x).toMatchObject({ kind: 'entrance', rooms: [{ id: h.rooms[0]!.id }], groups: [{ id: h.group.id }] });
    expect(await ctx.deps.prisma.sharedDoorServe.count({ where: { lockId: h.doors[0]!.id } })).toBe(2);
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: h.hotel.id, action: 'sharedDoor.set' } })).toBe(1);
  });
});
