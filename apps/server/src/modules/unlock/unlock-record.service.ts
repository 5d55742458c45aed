import { UNLOCK_EVENTS, UNLOCK_SOURCES, ZRecordsByPersonInput, ZUnlockRecordListInput, addDays, zonedToInstant, type TUnlockEvent, type TUnlockSource } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { containsText, searchText } from '../../db/search';
import type { Prisma } from '../../generated/prisma/client';
import { requirePermission } from '../../permissions';
import { findRoom, roomScope } from '../room/room-access';

const recordSelect = { id: true, roomId: true, occurredAt: true, event: true, source: true, device: true, success: true, style: true, operator: true, credential: true, room: { select: { name: true } } } as const;
type RecordRow = Prisma.UnlockRecordGetPayload<{ select: typeof recordSelect }>;

function toRecordDto(r: RecordRow) {
  return {
    id: r.id,
    roomId: r.roomId,
    roomName: r.room.name,
    occurredAt: r.occurredAt.toISOString(),
    // A code this console does not know yet (a newer lock) is shown as "other", never as raw text.
    event: (UNLOCK_EVENTS as readonly string[]).includes(r.event) ? (r.event as TUnlockEvent) : ('other' as const),
    source: (UNLOCK_SOURCES as readonly string[]).includes(r.source) ? (r.source as TUnlockSource) : ('other' as const),
    device: r.device,
    success: r.success,
    style: r.style,
    /** The person the credential was issued to, when known. */
    operator: r.operator,
    /** Our credential that was used (`password:12`), when it is one of ours. */
    credential: r.credential,
  };
}

/** The hotel's local days `from`..`to` (inclusive) as an instant range. */
function dayRange(ctx: AuthedContext, from: string | undefined, to: string | undefined) {
  const tz = ctx.actor.timeZone;
  return {
    ...(from ? { gte: zonedToInstant(`${from}T00:00`, tz)! } : {}),
    ...(to ? { lt: zonedToInstant(`${addDays(to, 1)}T00:00`, tz)! } : {}),
  };
}

async function page(ctx: AuthedContext, where: Prisma.UnlockRecordWhereInput, input: { page: number; pageSize: number }) {
  const [total, rows] = await Promise.all([
    ctx.deps.prisma.unlockRecord.count({ where }),
    ctx.deps.prisma.unlockRecord.findMany({ where, select: recordSelect, orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }], skip: (input.page - 1) * input.pageSize, take: input.pageSize }),
  ]);
  return { items: rows.map(toRecordDto), total, page: input.page, pageSize: input.pageSize };
}

/**
 * The hotel's unlock records by person (room/openHistoryByPeople): one credential's, or those
 * whose person's name contains the text, in the rooms the actor may see, newest first.
 */
export async function listRecordsByPerson(ctx: AuthedContext, raw: z.input<typeof ZRecordsByPersonInput>) {
  requirePermission(ctx.actor, 'room.read');
  const input = ZRecordsByPersonInput.parse(raw);
  if (input.roomId) await findRoom(ctx, input.roomId, { id: true });
  const person = searchText(input.person);
  return page(
    ctx,
    {
      hotelId: ctx.actor.hotelId,
      room: roomScope(ctx.actor),
      ...(input.roomId ? { roomId: input.roomId } : {}),
      ...(input.credential ? { credential: input.credential } : {}),
      ...(person ? { operator: containsText(person) } : {}),
      occurredAt: dayRange(ctx, input.from, input.to),
    },
    input,
  );
}

/** Unlock records of a room, newest first, between two dates of the hotel (inclusive). */
export async function listUnlockRecords(ctx: AuthedContext, raw: z.input<typeof ZUnlockRecordListInput>) {
  requirePermission(ctx.actor, 'room.read');
  const input = ZUnlockRecordListInput.parse(raw);
  const room = await findRoom(ctx, input.roomId, { id: true });
  return page(ctx, { hotelId: ctx.actor.hotelId, roomId: room.id, occurredAt: dayRange(ctx, input.from, input.to) }, input);
}
