import { ZLockManagerAddInput, ZLockManagerIdInput } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { transaction } from '../../db/transaction';
import { recordEvent } from '../../db/events';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { findRoom, roomScope } from '../base/room-access';

/**
 * Lock managers: the people allowed to manage a room's lock (lock/managerList, managerAddNew,
 * managerDelete): a member of the hotel, or someone outside it named with a phone (a locksmith,
 * the owner of a rental unit). Seen and changed within the rooms the actor may see.
 */

export interface LockManagerDto {
  id: number;
  roomId: number;
  accountId: number | null;
  name: string;
  mobile: string;
  createdAt: string;
}

export async function listLockManagers(ctx: AuthedContext, input: { roomId: number }): Promise<{ items: LockManagerDto[] }> {
  requirePermission(ctx.actor, 'room.read');
  const room = await findRoom(ctx, input.roomId, { id: true });
  const rows = await ctx.deps.prisma.lockManager.findMany({
    where: { hotelId: ctx.actor.hotelId, roomId: room.id },
    select: { id: true, roomId: true, accountId: true, name: true, mobile: true, createdAt: true, account: { select: { nickname: true, mobile: true } } },
    orderBy: { id: 'asc' },
  });
  return {
    items: rows.map((m) => ({
      id: m.id,
      roomId: m.roomId,
      accountId: m.accountId,
      // A member is named as the account is now (a renamed member shows the new name).
      name: m.account?.nickname || m.name,
      mobile: m.account?.mobile ?? m.mobile,
      createdAt: m.createdAt.toISOString(),
    })),
  };
}

export async function addLockManager(ctx: AuthedContext, raw: z.input<typeof ZLockManagerAddInput>): Promise<LockManagerDto> {
  requirePermission(ctx.actor, 'room.manage');
  const input = ZLockManagerAddInput.parse(raw);
  const room = await findRoom(ctx, input.roomId, { id: true });
  let name = input.name ?? '';
  let mobile = input.mobile ?? '';
  if (input.accountId !== undefined) {
    const member = await ctx.deps.prisma.membership.findFirst({
      where: { hotelId: ctx.actor.hotelId, accountId: input.accountId },
      select: { account: { select: { nickname: true, mobile: true } } },
    });
    if (!member) throw new AppError('NOT_FOUND', { messageKey: 'credentials.errors.staffNotFound', fields: { accountId: 'credentials.errors.staffNotFound' } });
    name = member.account.nickname;
    mobile = member.account.mobile ?? '';
  }
  const existing = await ctx.deps.prisma.lockManager.findFirst({
    where: {
      hotelId: ctx.actor.hotelId,
      roomId: room.id,
      ...(input.accountId !== undefined ? { accountId: input.accountId } : { accountId: null, name, mobile }),
    },
    select: { id: true },
  });
  if (existing) throw new AppError('CONFLICT', { messageKey: 'lockManagers.already' });
  // The row and its audit row commit together (the partial unique indexes refuse a second copy of a racing request).
  const created = await transaction(ctx.deps, async (tx) => {
    const row = await tx.lockManager.create({
      data: { hotelId: ctx.actor.hotelId, roomId: room.id, accountId: input.accountId ?? null, name, mobile },
      select: { id: true, roomId: true, accountId: true, name: true, mobile: true, createdAt: true },
    });
    await recordAudit(tx, ctx, {
      action: 'lock.manager.add',
      entityType: 'LockManager',
      entityId: row.id,
      after: { roomId: room.id, accountId: row.accountId, name },
    });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'lock.changed', roomIds: [room.id] });
    return row;
  });
  return { ...created, createdAt: created.createdAt.toISOString() };
}

export async function deleteLockManager(ctx: AuthedContext, raw: z.input<typeof ZLockManagerIdInput>): Promise<{ deleted: true }> {
  requirePermission(ctx.actor, 'room.manage');
  const input = ZLockManagerIdInput.parse(raw);
  const manager = await ctx.deps.prisma.lockManager.findFirst({
    where: { id: input.id, hotelId: ctx.actor.hotelId, room: roomScope(ctx.actor) },
    select: { id: true, roomId: true, name: true },
  });
  if (!manager) throw new AppError('NOT_FOUND', { messageKey: 'lockManagers.notFound' });
  await transaction(ctx.deps, async (tx) => {
    // Deleted meanwhile by another request: not found, and nothing audited.
    const { count } = await tx.lockManager.deleteMany({ where: { id: manager.id, hotelId: ctx.actor.hotelId } });
    if (!count) throw new AppError('NOT_FOUND', { messageKey: 'lockManagers.notFound' });
    await recordAudit(tx, ctx, {
      action: 'lock.manager.delete',
      entityType: 'LockManager',
      entityId: manager.id,
      before: manager,
      names: { name: manager.name },
    });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'lock.changed', roomIds: [manager.roomId] });
  });
  return { deleted: true };
}
