import { UNLOCK_EVENTS, UNLOCK_SOURCES, ZUnlockRecordListInput, addDays, zonedToInstant, type TUnlockEvent, type TUnlockSource } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { requirePermission } from '../../permissions';
import { findRoom } from '../room/room-access';

/** Unlock records of a room, newest first, between two dates of the hotel (inclusive). */
export async function listUnlockRecords(ctx: AuthedContext, raw: z.input<typeof ZUnlockRecordListInput>) {
  requirePermission(ctx.actor, 'room.read');
  const input = ZUnlockRecordListInput.parse(raw);
  const room = await findRoom(ctx, input.roomId, { id: true });
  const tz = ctx.actor.timeZone;
  const where = {
    hotelId: ctx.actor.hotelId,
    roomId: room.id,
    occurredAt: {
      ...(input.from ? { gte: zonedToInstant(`${input.from}T00:00`, tz)! } : {}),
      ...(input.to ? { lt: zonedToInstant(`${addDays(input.to, 1)}T00:00`, tz)! } : {}),
    },
  };
  const [total, rows] = await Promise.all([
    ctx.deps.prisma.unlockRecord.count({ where }),
    ctx.deps.prisma.unlockRecord.findMany({
      where,
      select: { id: true, occurredAt: true, event: true, source: true, device: true, success: true, style: true, operator: true },
      orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
    }),
  ]);
  return {
    items: rows.map((r) => ({
      ...r,
      occurredAt: r.occurredAt.toISOString(),
      // A code this console does not know yet (a newer lock) is shown as "other", never as raw text.
      event: (UNLOCK_EVENTS as readonly string[]).includes(r.event) ? (r.event as TUnlockEvent) : ('other' as const),
      source: (UNLOCK_SOURCES as readonly string[]).includes(r.source) ? (r.source as TUnlockSource) : ('other' as const),
    })),
    total,
    page: input.page,
    pageSize: input.pageSize,
  };
}
