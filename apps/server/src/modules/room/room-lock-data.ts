import { ZLockDataInput, ZLockPowerReport, ZRoomIdInput } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { isConstraint } from '../../db/errors';
import { transaction } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { followCredentials } from '../credentials/delivery';
import { applyPairs, lockOfTypedId, pairerOf } from '../locks/accounts/pairing.service';
import { findRoom, roomScope } from '../base/room-access';
import { recordEvent } from '../../db/events';

/** What the console keeps of a room's lock (its name, Bluetooth name, MAC, battery), as the legacy clients read and write it. */

const lockSelect = { id: true, name: true, bluetoothName: true, macId: true, lockPower: true, lock: { select: { providerLockId: true } } } as const;

/** A room's lock data as the legacy protocol shows it: `lockId` is the provider's lock id of its lock. */
function lockData(r: {
  id: number;
  name: string;
  bluetoothName: string | null;
  macId: string | null;
  lockPower: number | null;
  lock: { providerLockId: string } | null;
}) {
  return { id: r.id, name: r.name, lockId: r.lock?.providerLockId ?? null, bluetoothName: r.bluetoothName, macId: r.macId, lockPower: r.lockPower };
}

/** Lock data of every room in scope (legacy `allLock`). */
export async function listLocks(ctx: AuthedContext) {
  requirePermission(ctx.actor, 'room.read');
  return (await ctx.deps.prisma.room.findMany({ where: roomScope(ctx.actor), select: lockSelect, orderBy: [{ sortOrder: 'asc' }, { name: 'asc' }] })).map(
    lockData,
  );
}

export async function getLock(ctx: AuthedContext, raw: z.input<typeof ZRoomIdInput>) {
  requirePermission(ctx.actor, 'room.read');
  const { roomId } = ZRoomIdInput.parse(raw);
  return lockData(await findRoom(ctx, roomId, lockSelect));
}

/**
 * The lock of a room as the front desk records it: its lock (a lock id the hotel's own lock
 * accounts hold, pairing.service.ts), Bluetooth name and MAC (the battery level is the lock's to
 * report: recordLockPower).
 */
export async function setLockData(ctx: AuthedContext, raw: z.input<typeof ZLockDataInput>) {
  requirePermission(ctx.actor, 'room.manage');
  const { roomId, lockId: typed, ...data } = ZLockDataInput.parse(raw);
  const before = lockData(await findRoom(ctx, roomId, lockSelect));
  const lockChanges = before.lockId !== typed;
  const lockId = lockChanges ? await lockOfTypedId(ctx, typed) : null;
  try {
    await transaction(ctx.deps, async (tx) => {
      await tx.room.update({ where: { id: before.id }, data });
      await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'room.changed', roomIds: [before.id] });
      await recordAudit(tx, ctx, {
        action: 'room.lockData',
        entityType: 'Room',
        entityId: roomId,
        before: { bluetoothName: before.bluetoothName, macId: before.macId },
        after: data,
      });
      const keys = lockChanges && (await applyPairs(tx, pairerOf(ctx), [{ roomId, lockId }])).length > 0;
      if (keys || (lockChanges && lockId !== null)) followCredentials(tx, ctx.deps, ctx.actor.hotelId, { roomId });
    });
  } catch (error) {
    if (isConstraint(error, 'Room_lockId_active_key')) throw new AppError('CONFLICT', { messageKey: 'lockAccounts.errors.lockTakenMeanwhile' });
    throw error;
  }
  return getLock(ctx, { roomId });
}

/** A battery level reported by the lock itself (a legacy app reads it over Bluetooth). */
export async function recordLockPower(ctx: AuthedContext, raw: z.input<typeof ZLockPowerReport>) {
  requirePermission(ctx.actor, 'room.read');
  const { roomId, lockPower } = ZLockPowerReport.parse(raw);
  const room = await findRoom(ctx, roomId, { id: true });
  return lockData(await ctx.deps.prisma.room.update({ where: { id: room.id }, data: { lockPower }, select: lockSelect }));
}
