import { ZRoomGroupDeleteInput, ZRoomGroupInput, ZRoomGroupUpdateInput } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { isUniqueViolation } from '../../db/errors';
import { lockRow, transaction } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { recordEvent } from '../../db/events';

export interface RoomGroupDto {
  id: number;
  name: string;
  sort: number;
  roomCount: number;
}

/** The hotel's room groups (categories) in their sort order, with the number of rooms of each. */
export async function listRoomGroups(ctx: AuthedContext): Promise<RoomGroupDto[]> {
  requirePermission(ctx.actor, 'room.read');
  const groups = await ctx.deps.prisma.roomGroup.findMany({
    where: { hotelId: ctx.actor.hotelId },
    select: { id: true, name: true, sort: true, _count: { select: { rooms: { where: { deletedAt: null } } } } },
    orderBy: [{ sort: 'asc' }, { name: 'asc' }],
  });
  return groups.map((g) => ({ id: g.id, name: g.name, sort: g.sort, roomCount: g._count.rooms }));
}

async function findGroup(ctx: AuthedContext, id: number) {
  const group = await ctx.deps.prisma.roomGroup.findFirst({ where: { id, hotelId: ctx.actor.hotelId }, select: { id: true, name: true, sort: true } });
  if (!group) throw new AppError('NOT_FOUND', { messageKey: 'roomGroup.errors.notFound' });
  return group;
}

function nameTaken(error: unknown, name: string): never {
  if (isUniqueViolation(error)) throw new AppError('CONFLICT', { messageKey: 'roomGroup.errors.nameTaken', params: { name } });
  throw error;
}

export async function createRoomGroup(ctx: AuthedContext, raw: z.input<typeof ZRoomGroupInput>): Promise<RoomGroupDto> {
  requirePermission(ctx.actor, 'room.manage');
  const input = ZRoomGroupInput.parse(raw);
  try {
    return await transaction(ctx.deps, async (tx) => {
      const group = await tx.roomGroup.create({ data: { hotelId: ctx.actor.hotelId, ...input }, select: { id: true, name: true, sort: true } });
      await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'room.changed' });
      await recordAudit(tx, ctx, { action: 'roomGroup.create', entityType: 'RoomGroup', entityId: group.id, after: input });
      return { ...group, roomCount: 0 };
    });
  } catch (error) {
    return nameTaken(error, input.name);
  }
}

export async function updateRoomGroup(ctx: AuthedContext, raw: z.input<typeof ZRoomGroupUpdateInput>): Promise<RoomGroupDto> {
  requirePermission(ctx.actor, 'room.manage');
  const { id, ...input } = ZRoomGroupUpdateInput.parse(raw);
  const before = await findGroup(ctx, id);
  try {
    await transaction(ctx.deps, async (tx) => {
      await tx.roomGroup.update({ where: { id }, data: input });
      await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'room.changed' });
      await recordAudit(tx, ctx, { action: 'roomGroup.update', entityType: 'RoomGroup', entityId: id, before, after: input });
    });
  } catch (error) {
    nameTaken(error, input.name);
  }
  return (await listRoomGroups(ctx)).find((g) => g.id === id)!;
}

/**
 * Deletes a group. While it still has rooms, the answer is CONFIRMATION_REQUIRED with the number
 * of rooms: the caller asks where they go and sends `moveRoomsTo` (another group, or "none").
 */
export async function deleteRoomGroup(ctx: AuthedContext, raw: z.input<typeof ZRoomGroupDeleteInput>): Promise<void> {
  requirePermission(ctx.actor, 'room.manage');
  const { id, moveRoomsTo } = ZRoomGroupDeleteInput.parse(raw);
  const group = await findGroup(ctx, id);
  if (moveRoomsTo === id) throw new AppError('VALIDATION', { messageKey: 'roomGroup.errors.moveToItself' });
  if (typeof moveRoomsTo === 'number') await findGroup(ctx, moveRoomsTo);
  await transaction(ctx.deps, async (tx) => {
    // Both groups locked in id order: two deletes moving rooms into each other queue, never deadlock.
    for (const groupId of [id, ...(typeof moveRoomsTo === 'number' ? [moveRoomsTo] : [])].sort((a, b) => a - b))
      await lockRow(tx, 'RoomGroup', ctx.actor.hotelId, groupId);
    const alive = await tx.roomGroup.count({
      where: { hotelId: ctx.actor.hotelId, id: { in: [id, ...(typeof moveRoomsTo === 'number' ? [moveRoomsTo] : [])] } },
    });
    if (alive !== (typeof moveRoomsTo === 'number' ? 2 : 1)) throw new AppError('NOT_FOUND', { messageKey: 'roomGroup.errors.notFound' });
    const roomCount = await tx.room.count({ where: { hotelId: ctx.actor.hotelId, groupId: id, deletedAt: null } });
    if (roomCount > 0 && moveRoomsTo === undefined) {
      throw new AppError('CONFIRMATION_REQUIRED', {
        messageKey: 'roomGroup.errors.hasRooms',
        params: { name: group.name, count: roomCount },
        details: { roomCount },
      });
    }
    // Deleted rooms keep their history and move along with the others.
    const moved = await tx.room.updateMany({
      where: { hotelId: ctx.actor.hotelId, groupId: id },
      data: { groupId: typeof moveRoomsTo === 'number' ? moveRoomsTo : null },
    });
    await tx.roomGroup.delete({ where: { id } });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'room.changed' });
    await recordAudit(tx, ctx, {
      action: 'roomGroup.delete',
      entityType: 'RoomGroup',
      entityId: id,
      names: { group: group.name },
      before: group,
      after: { movedRooms: moved.count, to: moveRoomsTo ?? null },
    });
  });
}
