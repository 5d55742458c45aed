import { randomUUID } from 'node:crypto';
import { localDate } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobContext } from '../../context';
import { createAccount, uniqueMobile } from '../../test/factories';
import { codesOn, desk, PLATFORMS, startPlatforms, stopPlatforms, until, world } from '../../test/platforms';
import { setAccessRule } from '../access-rules/access-rule.service';
import { giveOfflineCodes } from '../access-rules/offline-codes';
import type { LockRef } from '../base/lock-ref';
import { findStay, toStayDto } from '../base/stay-dto';
import { createPassword } from '../credentials/password.service';
import { setShift } from '../housekeeping/housekeeping-settings';
import { assignRooms } from '../housekeeping/tasks';
import { setSharedDoor, stayDoors } from '../shared-doors/shared-door.service';
import { checkIn } from '../stays/check-in';
import { cancelReservation, checkOut } from '../stays/check-out';
import { createReservation } from '../stays/reservation';

/**
 * Issue 38, "One contract suite, both platforms", second file: the access the console gives beyond a
 * stay's own code, run the same way on TTLock (`apps/lock-sim`) and on Seam (Seam's fake and OUR
 * layer), through the product's services only; the platforms' harness is test/platforms.ts.
 * - The offline fallback of the access rules: a reservation whose lock cannot be reached gets an
 *   offline code in place of the chosen one (docs/access-rules.md "Offline codes").
 * - A shared door: a guest's code on the entrance serving the room as well as on the room's door,
 *   both taken off at check-out (docs/shared-doors.md).
 * - An attendant's rota code: on the locks of her rooms for her shift's hours, moved when a room is
 *   given to another attendant (docs/housekeeping-keys.md).
 */
beforeAll(startPlatforms);
afterAll(stopPlatforms);

const HOUR = 3_600_000;
const passwords = (where: { stayId?: number; hotelId?: number; attendantId?: number; doorLockId?: number | null }) =>
  world.ctx.deps.prisma.lockPassword.findMany({ where, orderBy: { id: 'asc' } });

describe.each(PLATFORMS)('access beyond the room on $name', (platform) => {
  it('gives an offline code in place of the chosen code an unreachable lock cannot take; the lock answering again, a cancellation withdraws it as the platform can', async () => {
    const d = await platform.doors({ rooms: 1 });
    const [room] = d.rooms as [(typeof d.rooms)[number]];
    const [lock] = d.locks as [LockRef];
    const { staff, owner } = await desk(d);
    await setAccessRule(owner, {
      enabled: true,
      deskReservations: true,
      issueDaysBefore: 2,
      minutesBeforeCheckIn: 180,
      minutesAfterCheckOut: 60,
      codeRule: 'random',
      phoneFallback: 'random',
      codeType: 'custom',
      offlineCodeMinutes: 180,
    });
    await platform.reachable(lock, false);
    const stay = await createReservation(staff, {
      roomId: room.id,
      checkInAt: new Date(Date.now() + 2 * HOUR),
      expectedCheckOutAt: new Date(Date.now() + 26 * HOUR),
      guests: [{ name: 'Amara Okafor', mobile: uniqueMobile() }],
      idempotencyKey: randomUUID(),
    });
    // The rule's chosen code meets the unreachable lock: not confirmed, with the lock's reason.
    await expect
      .poll(async () => (await passwords({ stayId: stay.id })).map((p) => [p.kind, p.offline, p.lastError]), { timeout: 20_000 })
      .toEqual([['custom', false, platform.unreachableError]]);
    const [custom] = await passwords({ stayId: stay.id });

    // The sweep gives an offline code for the same window, which the lock knows without its link.
    expect(await giveOfflineCodes(jobContext(world.ctx.deps, 'stay.sweep', randomUUID()), new Date(), { hotelId: d.hotelId })).toBe(1);
    const offline = (await passwords({ stayId: stay.id })).find((p) => p.offline)!;
    expect(offline).toMatchObject({ kind: 'air', stayId: stay.id });
    const given = await until(platform, offline.id, ['on_lock', 'failed'], lock);
    expect(given).toMatchObject({ deliveryState: 'on_lock', lastError: null });
    expect(given.code).toMatch(/^\d+$/);
    expect(await codesOn(lock)).toContain(given.code);
    // The chosen code is withdrawn: the guest never holds two codes.
    expect(await until(platform, custom!.id, ['removed'], lock)).toMatchObject({ revokeReason: 'replaced' });
    expect(toStayDto(await findStay(staff, stay.id), new Date()).offlineCode).toMatchObject({ reason: platform.unreachableError });
    // Once: the sweep again gives nothing more.
    expect(await giveOfflineCodes(jobContext(world.ctx.deps, 'stay.sweep', randomUUID()), new Date(), { hotelId: d.hotelId })).toBe(0);

    // The lock answers again; the reservation is cancelled: the offline code is withdrawn as the
    // platform can (TTLock takes it off; Seam's offline codes end by themselves).
    await platform.reachable(lock, true);
    await cancelReservation(staff, { stayId: stay.id, reason: 'guest_request' });
    const withdrawn = await until(platform, offline.id, ['removed', 'remove_failed'], lock);
    expect(withdrawn).toMatchObject(platform.offlineCodeWithdrawn);
    const kept = platform.offlineCodeWithdrawn.deliveryState === 'remove_failed';
    expect((await codesOn(lock)).includes(given.code!)).toBe(kept);
    expect(toStayDto(await findStay(staff, stay.id), new Date()).offlineCode).toMatchObject({ leftUntil: kept ? given.validUntil!.toISOString() : null });
  });

  it("puts a guest's code on the shared door serving the room as well as on the room's door, and takes both off at check-out", async () => {
    const d = await platform.doors({ rooms: 2, spare: 1 });
    const [a] = d.rooms as [(typeof d.rooms)[number]];
    const [lockA, lockB] = d.locks as [LockRef, LockRef];
    const [entrance] = d.spare as [LockRef];
    const { staff, owner } = await desk(d);
    await setSharedDoor(owner, { lockId: entrance.id, kind: 'entrance', roomIds: [a.id] });
    const stay = await checkIn(staff, {
      roomId: a.id,
      checkInAt: new Date(Date.now() - 60_000),
      expectedCheckOutAt: new Date(Date.now() + 26 * HOUR),
      guests: [{ name: 'Lin Wei', mobile: uniqueMobile() }],
      idempotencyKey: randomUUID(),
    });
    const code = await createPassword(staff, { roomId: a.id, stayId: stay.id, kind: 'custom', code: '731946' });
    await until(platform, code.id, ['on_lock'], lockA);
    // The copy on the entrance: the same digits and validity, on the entrance's lock.
    await expect.poll(async () => (await passwords({ stayId: stay.id, doorLockId: entrance.id })).length, { timeout: 20_000 }).toBe(1);
    const [copy] = await passwords({ stayId: stay.id, doorLockId: entrance.id });
    const onDoor = await until(platform, copy!.id, ['on_lock', 'failed'], entrance);
    expect(onDoor).toMatchObject({ deliveryState: 'on_lock', code: '731946', copyOfId: code.id, roomId: a.id });
    expect(onDoor.validFrom.toISOString()).toBe(code.validFrom);
    expect(onDoor.validUntil?.toISOString()).toBe(code.validUntil);
    expect(await codesOn(entrance)).toContain('731946');
    expect(await codesOn(lockA)).toContain('731946');
    // Room C2 is not served by it: its lock never gets the code.
    expect(await codesOn(lockB)).not.toContain('731946');
    expect((await stayDoors(staff, { stayId: stay.id })).doors).toEqual([
      expect.objectContaining({
        lockId: entrance.id,
        kind: 'entrance',
        credentials: [expect.objectContaining({ copyOfId: code.id, deliveryState: 'on_lock' })],
      }),
    ]);

    // Checked out: off the room's door and off the entrance.
    await checkOut(staff, { stayId: stay.id });
    expect(await until(platform, copy!.id, ['removed'], entrance)).toMatchObject({ revokeReason: 'check_out' });
    await until(platform, code.id, ['removed'], lockA);
    expect(await codesOn(entrance)).not.toContain('731946');
    expect(await codesOn(lockA)).not.toContain('731946');
  });

  it("issues an attendant's rota code on the locks of her rooms for her shift's hours, and moves it when a room is given to another", async () => {
    const d = await platform.doors({ rooms: 2 });
    const [a, b] = d.rooms as [(typeof d.rooms)[number], (typeof d.rooms)[number]];
    const [lockA, lockB] = d.locks as [LockRef, LockRef];
    const { owner } = await desk(d);
    const { deps } = world.ctx;
    const attendant = async () => {
      const account = await createAccount(deps, { hotelId: d.hotelId, role: 'housekeeping' });
      return (await deps.prisma.membership.findFirstOrThrow({ where: { hotelId: d.hotelId, accountId: account.id } })).id;
    };
    const [ann, bea] = [await attendant(), await attendant()];
    const zone = owner.actor.timeZone;
    const from = new Date(Date.now() - HOUR);
    const day = localDate(from, zone);
    const clock = (t: Date) => new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(t);
    const shifts = new Map<number, { startsAt: string; endsAt: string }>();
    for (const membershipId of [ann, bea])
      shifts.set(membershipId, (await setShift(owner, { membershipId, day, start: clock(from), end: clock(new Date(Date.now() + 2 * HOUR)) })).shift!);
    // The day's cleaning tasks, as the day's task generation leaves them.
    for (const room of [a, b])
      await deps.prisma.housekeepingTask.create({ data: { hotelId: d.hotelId, roomId: room.id, day: new Date(`${day}T00:00:00Z`), kind: 'departure' } });
    const lockOf = (roomId: number) => (roomId === a.id ? lockA : lockB);
    /** The attendant's codes once each reached the state awaited on its room's lock. */
    const codesOf = async (membershipId: number, count: number, states: string[]) => {
      await expect.poll(async () => (await passwords({ hotelId: d.hotelId, attendantId: membershipId })).length, { timeout: 20_000 }).toBe(count);
      const rows = await passwords({ hotelId: d.hotelId, attendantId: membershipId });
      return Promise.all(rows.map((r) => until(platform, r.id, states, lockOf(r.roomId))));
    };

    await assignRooms(owner, { day, membershipId: ann, roomIds: [a.id, b.id] });
    const annCodes = await codesOf(ann, 2, ['on_lock', 'failed']);
    expect(annCodes.map((r) => [r.roomId, r.kind, r.deliveryState])).toEqual([
      [a.id, 'custom', 'on_lock'],
      [b.id, 'custom', 'on_lock'],
    ]);
    // One code for her round, valid for her shift's hours (to the minute).
    const code = annCodes[0]!.code!;
    expect(annCodes[1]!.code).toBe(code);
    expect(annCodes[0]!.validFrom.toISOString()).toBe(shifts.get(ann)!.startsAt);
    expect(annCodes[0]!.validUntil!.toISOString()).toBe(shifts.get(ann)!.endsAt);
    expect(await codesOn(lockA)).toContain(code);
    expect(await codesOn(lockB)).toContain(code);

    // Room C2 goes to Bea: Ann's code leaves its lock, Bea's arrives; Ann keeps C1.
    await assignRooms(owner, { day, membershipId: bea, roomIds: [b.id] });
    const [beaB] = await codesOf(bea, 1, ['on_lock', 'failed']);
    expect(beaB).toMatchObject({ roomId: b.id, kind: 'custom', deliveryState: 'on_lock' });
    const annB = annCodes.find((r) => r.roomId === b.id)!;
    expect(await until(platform, annB.id, ['removed'], lockB)).toMatchObject({ revokeReason: 'reassigned' });
    expect(await codesOn(lockB)).toEqual(expect.arrayContaining([beaB!.code]));
    if (beaB!.code !== code) expect(await codesOn(lockB)).not.toContain(code);
    expect(await codesOn(lockA)).toContain(code);
  });
});
