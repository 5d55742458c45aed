import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueMobile } from '../../test/factories';
import { codesOn, desk, PLATFORMS, startPlatforms, stopPlatforms, until as untilOn, world, type Doors } from '../../test/platforms';
import type { LockRef } from '../base/lock-ref';
import { createPassword } from '../credentials/password.service';
import { checkIn } from '../stays/check-in';
import { cancelReservation, checkOut } from '../stays/check-out';
import { renewStay } from '../stays/renewal';
import { changeRoom } from '../stays/room-change';
import { listUnlockRecords } from '../unlock-records/unlock-record.service';
import { remoteUnlock } from './lock.service';
import { pollLockRecords } from './records';

/**
 * Issue 38, "One contract suite, both platforms": the credential life of a stay (a code issued,
 * renewed, moved with the guest to another room, taken off at check-out, a reservation cancelled,
 * a remote unlock and its record) run the same way against TTLock through `apps/lock-sim` and against
 * Seam through Seam's own fake (`@seamapi/fake-seam-connect`, started as a child process), in one
 * process, through the product's services only. What differs is the platform's harness
 * (test/platforms.ts): how a hotel's doors are locks of that platform, and how the platform finishes what it accepted (Seam's
 * fake never sets a code by itself: OUR layer says it is set, as the real Seam does later). Where the
 * fake lacks a behaviour, OUR layer adds it (docs/seam.md, "What the fake lacks").
 */
beforeAll(startPlatforms);
afterAll(stopPlatforms);

describe.each(PLATFORMS)('the credential life of a stay on $name', (platform) => {
  it('issues a code, renews it, moves it with the guest, takes it off at check-out; a cancelled reservation loses its own', async () => {
    const d = await platform.doors();
    const [a, b] = d.rooms as [Doors['rooms'][number], Doors['rooms'][number]];
    const [lockA, lockB] = d.locks as [LockRef, LockRef];
    const { staff } = await desk(d);
    const until = (id: number, states: string[], lock: LockRef) => untilOn(platform, id, states, lock);
    const stay = await checkIn(staff, {
      roomId: a.id,
      checkInAt: new Date(Date.now() - 60_000),
      expectedCheckOutAt: new Date(Date.now() + 26 * 3_600_000),
      guests: [{ name: 'Ines Duarte', mobile: uniqueMobile() }],
      idempotencyKey: randomUUID(),
    });
    const code = await createPassword(staff, { roomId: a.id, stayId: stay.id, kind: 'custom', code: '583916' });
    await until(code.id, ['on_lock'], lockA);
    expect(await codesOn(lockA)).toContain('583916');

    // Renewed one night: the code's validity follows, and it is on the lock again.
    const renewed = new Date(stay.expectedCheckOutAt);
    renewed.setTime(renewed.getTime() + 24 * 3_600_000);
    await renewStay(staff, { stayId: stay.id, expectedCheckOutAt: renewed.toISOString() });
    const afterRenew = await until(code.id, ['on_lock'], lockA);
    expect(afterRenew.validUntil?.getTime()).toBeGreaterThan(new Date(stay.expectedCheckOutAt).getTime());

    // Moved to room C2: the code leaves C1's lock and is on C2's.
    const change = await changeRoom(staff, { stayId: stay.id, targetRoomId: b.id });
    // The visit goes on in C2 (a stay of its own there), the code with it.
    const moved = await world.ctx.deps.prisma.lockPassword.findFirstOrThrow({
      where: { hotelId: d.hotelId, roomId: b.id, kind: 'custom', revokeReason: null },
    });
    await until(moved.id, ['on_lock'], lockB);
    await expect.poll(() => codesOn(lockA), { timeout: 20_000 }).not.toContain('583916');
    expect(await codesOn(lockB)).toContain(moved.code);

    // Opened from the console, and the opening is in the room's records.
    expect(await remoteUnlock(staff, { roomId: b.id })).toEqual({ opened: true });
    await expect
      .poll(
        async () => {
          await pollLockRecords(world.ctx.deps, { hotelId: d.hotelId, all: true });
          return (await listUnlockRecords(staff, { roomId: b.id })).items.map((r) => r.style);
        },
        { timeout: 20_000 },
      )
      .toContain('remote');

    // Checked out: the code comes off the lock.
    await checkOut(staff, { stayId: moved.stayId ?? change.id });
    await until(moved.id, ['removed'], lockB);
    expect(await codesOn(lockB)).not.toContain(moved.code);

    // A reservation's code, then the reservation cancelled: off the lock.
    const reservation = await checkIn(staff, {
      roomId: a.id,
      checkInAt: new Date(Date.now() + 2 * 3_600_000),
      expectedCheckOutAt: new Date(Date.now() + 30 * 3_600_000),
      guests: [{ name: 'Kenji Watanabe', mobile: uniqueMobile() }],
      // C1 is left to be cleaned after the move: the desk says so and goes ahead.
      acknowledge: ['room_dirty'],
      idempotencyKey: randomUUID(),
    });
    const reserved = await createPassword(staff, { roomId: a.id, stayId: reservation.id, kind: 'custom', code: '640217' });
    await until(reserved.id, ['on_lock'], lockA);
    await cancelReservation(staff, { stayId: reservation.id, reason: 'guest_request' });
    await until(reserved.id, ['removed'], lockA);
    expect(await codesOn(lockA)).not.toContain('640217');
  });
});
