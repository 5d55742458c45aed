import { ACTIVE_STAY_STATES, ZRoomInput, ZRoomIdInput, ZRoomUpdateInput } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { isConstraint, isUniqueViolation } from '../../db/errors';
import { lockRooms, transaction } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { followCredentials } from '../credentials/delivery';
import { applyPairs, lockOfTypedId, pairerOf } from '../locks/accounts/pairing.service';
import { findRoom } from '../base/room-access';
import { getRoom, type RoomDetail } from './room-list';
import { recordEvent } from '../../db/events';

/** Creating, changing and deleting rooms. */

async function assertGroup(ctx: AuthedContext, groupId: number | null) {
  if (groupId === null) return;
  const group = await ctx.deps.prisma.roomGroup.findFirst({ where: { id: groupId, hotelId: ctx.actor.hotelId }, select: { id: true } });
  if (!group) throw new AppError('NOT_FOUND', { messageKey: 'roomGroup.errors.notFound' });
}

function roomData(input: z.output<typeof ZRoomInput>) {
  return {
    name: input.name,
    groupId: input.groupId,
    picture: input.picture,
    remarkName: input.remarkName,
    description: input.description,
    lockNotice: input.lockNotice,
    notice: input.notice,
    bluetoothName: input.bluetoothName,
    macId: input.macId,
    sortOrder: input.sortOrder,
  };
}

/** Creating and deleting rooms belongs to members who manage every room of the hotel. */
function requireWholeHotel(ctx: AuthedContext) {
  requirePermission(ctx.actor, 'room.manage', { wholeHotel: true });
}

export async function createRoom(ctx: AuthedContext, raw: z.input<typeof ZRoomInput>): Promise<RoomDetail> {
  requireWholeHotel(ctx);
  const input = ZRoomInput.parse(raw);
  await assertGroup(ctx, input.groupId);
  // The lock named by its provider id: one of the hotel's own (modules/locks/accounts/pairing.service.ts).
  const lockId = await lockOfTypedId(ctx, input.lockId);
  try {
    const room = await transaction(ctx.deps, async (tx) => {
      const created = await tx.room.create({ data: { hotelId: ctx.actor.hotelId, ...roomData(input) }, select: { id: true } });
      await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'room.changed', roomIds: [created.id] });
      await recordAudit(tx, ctx, { action: 'room.create', entityType: 'Room', entityId: created.id, after: { ...roomData(input), lockId: input.lockId } });
      if (lockId !== null) {
        await applyPairs(tx, pairerOf(ctx), [{ roomId: created.id, lockId }]);
        followCredentials(tx, ctx.deps, ctx.actor.hotelId, { roomId: created.id });
      }
      return created;
    });
    return getRoom(ctx, room.id);
  } catch (error) {
    if (isUniqueViolation(error, 'Room_hotelId_name_active_key'))
      throw new AppError('CONFLICT', { messageKey: 'room.errors.nameTaken', params: { name: input.name } });
    if (isConstraint(error, 'Room_lockId_active_key')) throw new AppError('CONFLICT', { messageKey: 'lockAccounts.errors.lockTakenMeanwhile' });
    throw error;
  }
}

export async function updateRoom(ctx: AuthedContext, raw: z.input<typeof ZRoomUpdateInput>): Promise<RoomDetail> {
  requirePermission(ctx.actor, 'room.manage');
  const { id, ...fields } = ZRoomUpdateInput.parse(raw);
  const before = await findRoom(ctx, id, {
    id: true,
    name: true,
    groupId: true,
    picture: true,
    remarkName: true,
    description: true,
    lockNotice: true,
    notice: true,
    bluetoothName: true,
    macId: true,
    sortOrder: true,
    lock: { select: { providerLockId: true } },
  });
  await assertGroup(ctx, fields.groupId);
  const lockChanges = (before.lock?.providerLockId ?? null) !== fields.lockId;
  const lockId = lockChanges ? await lockOfTypedId(ctx, fields.lockId) : null;
  try {
    const { lock, ...beforeFields } = before;
    await transaction(ctx.deps, async (tx) => {
      await tx.room.update({ where: { id }, data: roomData(fields) });
      await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'room.changed', roomIds: [id] });
      await recordAudit(tx, ctx, {
        action: 'room.update',
        entityType: 'Room',
        entityId: id,
        before: { ...beforeFields, lockId: lock?.providerLockId ?? null },
        after: { ...roomData(fields), lockId: fields.lockId },
      });
      const keys = lockChanges && (await applyPairs(tx, pairerOf(ctx), [{ roomId: id, lockId }])).length > 0;
      if (keys || (lockChanges && lockId !== null)) followCredentials(tx, ctx.deps, ctx.actor.hotelId, { roomId: id });
    });
  } catch (error) {
    if (isUniqueViolation(error, 'Room_hotelId_name_active_key'))
      throw new AppError('CONFLICT', { messageKey: 'room.errors.nameTaken', params: { name: fields.name } });
    if (isConstraint(error, 'Room_lockId_active_key')) throw new AppError('CONFLICT', { messageKey: 'lockAccounts.errors.lockTakenMeanwhile' });
    throw error;
  }
  return getRoom(ctx, id);
}

/** Deletes a room softly (its stays remain as history); a room with an active stay is kept. */
export async function deleteRoom(ctx: AuthedContext, raw: z.input<typeof ZRoomIdInput>): Promise<void> {
  requireWholeHotel(ctx);
  const { roomId } = ZRoomIdInput.parse(raw);
  const room = await findRoom(ctx, roomId, { id: true, name: true });
  await transaction(ctx.deps, async (tx) => {
    // Locked so that a check-in cannot slip in between the check and the delete.
    await lockRooms(tx, ctx.actor.hotelId, [roomId]);
    const active = await tx.stay.count({ where: { hotelId: ctx.actor.hotelId, roomId, status: { in: [...ACTIVE_STAY_STATES] } } });
    if (active > 0) throw new AppError('CONFLICT', { messageKey: 'room.errors.hasActiveStay', params: { name: room.name } });
    // A deleted room keeps its history, not its lock: the lock can be another room's door.
    await tx.room.update({ where: { id: roomId }, data: { deletedAt: new Date(), lockId: null } });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'room.changed', roomIds: [roomId] });
    await recordAudit(tx, ctx, { action: 'room.delete', entityType: 'Room', entityId: roomId, before: { name: room.name } });
  });
}
