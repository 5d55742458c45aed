import { LOCK_MESSAGE_KINDS, ZLockMessageIdsInput, ZLockMessageListInput, type TLockMessageKind } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { findRoom, roomScope } from '../base/room-access';

/**
 * Lock messages: alarms and notices from locks (low battery, offline, tamper, wrong codes), made by
 * the status job and record ingestion. Seen within the rooms the actor may see; unread until read.
 */

export interface LockMessageDto {
  id: number;
  roomId: number;
  roomName: string;
  kind: TLockMessageKind | 'other';
  /** What the message is about: a battery level, a credential's holder; empty when nothing more. */
  content: string;
  createdAt: string;
  read: boolean;
}

export async function listLockMessages(ctx: AuthedContext, raw: z.input<typeof ZLockMessageListInput>) {
  requirePermission(ctx.actor, 'room.read');
  const input = ZLockMessageListInput.parse(raw);
  if (input.roomId) await findRoom(ctx, input.roomId, { id: true });
  const where = {
    hotelId: ctx.actor.hotelId,
    room: roomScope(ctx.actor),
    ...(input.roomId ? { roomId: input.roomId } : {}),
    ...(input.unreadOnly ? { readAt: null } : {}),
  };
  const [total, unread, rows] = await Promise.all([
    ctx.deps.prisma.lockMessage.count({ where }),
    ctx.deps.prisma.lockMessage.count({ where: { ...where, readAt: null } }),
    ctx.deps.prisma.lockMessage.findMany({
      where,
      select: { id: true, roomId: true, kind: true, content: true, createdAt: true, readAt: true, room: { select: { name: true } } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
    }),
  ]);
  const items: LockMessageDto[] = rows.map((m) => ({
    id: m.id,
    roomId: m.roomId,
    roomName: m.room.name,
    kind: (LOCK_MESSAGE_KINDS as readonly string[]).includes(m.kind) ? (m.kind as TLockMessageKind) : 'other',
    content: m.content,
    createdAt: m.createdAt.toISOString(),
    read: m.readAt !== null,
  }));
  return { items, total, unread, page: input.page, pageSize: input.pageSize };
}

/** The navbar's count: unread messages of the rooms the actor may see. */
export async function unreadLockMessages(ctx: AuthedContext): Promise<{ unread: number }> {
  requirePermission(ctx.actor, 'room.read');
  const unread = await ctx.deps.prisma.lockMessage.count({ where: { hotelId: ctx.actor.hotelId, room: roomScope(ctx.actor), readAt: null } });
  return { unread };
}

/** Marks messages read; ids of other hotels or rooms out of scope are ignored, as not found. */
export async function markLockMessagesRead(ctx: AuthedContext, raw: z.input<typeof ZLockMessageIdsInput>): Promise<{ updated: number }> {
  requirePermission(ctx.actor, 'room.read');
  const input = ZLockMessageIdsInput.parse(raw);
  const { count } = await ctx.deps.prisma.lockMessage.updateMany({
    where: { id: { in: input.ids }, hotelId: ctx.actor.hotelId, room: roomScope(ctx.actor), readAt: null },
    data: { readAt: new Date() },
  });
  return { updated: count };
}

export async function deleteLockMessages(ctx: AuthedContext, raw: z.input<typeof ZLockMessageIdsInput>): Promise<{ deleted: number }> {
  requirePermission(ctx.actor, 'room.read');
  const input = ZLockMessageIdsInput.parse(raw);
  const { count } = await ctx.deps.prisma.lockMessage.deleteMany({ where: { id: { in: input.ids }, hotelId: ctx.actor.hotelId, room: roomScope(ctx.actor) } });
  if (count === 0) throw new AppError('NOT_FOUND', { messageKey: 'lockMessages.notFound' });
  return { deleted: count };
}
