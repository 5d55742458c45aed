import { ACTIVE_STAY_STATES, ZRoomStatusInput, ZRoomsStatusInput, type TRoomStatusTarget } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { lockRooms, transaction } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { roomScope } from '../base/room-access';
import { getRoom, type RoomDetail } from './room-list';
import { recordEvent } from '../../db/events';
import { closeTasksByStatus } from '../housekeeping/task-steps';

/** A room's cleanliness and maintenance set by hand (one room or several), and the notice when nothing changed. */

function statusChange(target: TRoomStatusTarget) {
  if (target === 'clean' || target === 'inspected' || target === 'dirty') return { cleanStatus: target };
  return { maintenance: target === 'back_in_service' ? ('none' as const) : target };
}

/** The room is already where the change would take it (marked dirty again, back in service while in service). */
function isAlready(room: { cleanStatus: string; maintenance: string }, target: TRoomStatusTarget): boolean {
  const data = statusChange(target);
  return 'cleanStatus' in data ? room.cleanStatus === data.cleanStatus : room.maintenance === data.maintenance;
}

/** What a status change did: the rooms it changed, and those already so (nothing written, nothing audited). */
export interface RoomsStatusResult {
  rooms: number;
  changed: number[];
  unchanged: { id: number; name: string }[];
  /** When some rooms were already so: says which, in the request's language (null when every room changed). */
  notice: string | null;
}

/**
 * "Room 101: already dirty", in the request's language: the one answer of web, tRPC and legacy
 * `room/setRoomStatus` to a change that changes nothing (the rule in docs/room-status.md).
 */
function alreadyNotice(ctx: AuthedContext, target: TRoomStatusTarget, rooms: { name: string }[]): string | null {
  if (rooms.length === 0) return null;
  const names = new Intl.ListFormat(ctx.meta.lang, { type: 'conjunction' }).format(rooms.map((r) => r.name));
  return ctx.deps.i18n.t(ctx.meta.lang, `statusChange.already.${target}`, { rooms: names, count: rooms.length });
}

/**
 * Housekeeping and maintenance (spec §4 "status can be modified") of one or several rooms, all or
 * nothing. Occupancy is not set here: it follows stays. A room with a guest or an upcoming
 * reservation cannot be taken out of order or out of service: the failure message names it. A room
 * already so is not an error (a second click, two clerks at once, a legacy client sending it
 * again): it is left as it is, not audited, and the answer says so (`unchanged`, `notice`).
 */
export async function setRoomsStatus(ctx: AuthedContext, raw: z.input<typeof ZRoomsStatusInput>): Promise<RoomsStatusResult> {
  requirePermission(ctx.actor, 'room.read');
  requirePermission(ctx.actor, 'stay.manage');
  const { roomIds, target } = ZRoomsStatusInput.parse(raw);
  const ids = [...new Set(roomIds)];
  const data = statusChange(target);
  const unchanged = await transaction(ctx.deps, async (tx) => {
    await lockRooms(tx, ctx.actor.hotelId, ids);
    const rooms = await tx.room.findMany({
      where: { ...roomScope(ctx.actor), id: { in: ids } },
      select: { id: true, name: true, cleanStatus: true, maintenance: true },
      orderBy: { id: 'asc' },
    });
    if (rooms.length !== ids.length) throw new AppError('NOT_FOUND', { messageKey: 'room.errors.notFound' });
    if ('maintenance' in data && data.maintenance !== 'none') {
      const busy = await tx.stay.findFirst({
        where: { hotelId: ctx.actor.hotelId, roomId: { in: ids }, status: { in: [...ACTIVE_STAY_STATES] } },
        select: { room: { select: { name: true } } },
      });
      if (busy) throw new AppError('CONFLICT', { messageKey: 'room.errors.statusBlockedByStay', params: { name: busy.room.name } });
    }
    const toChange = rooms.filter((room) => !isAlready(room, target));
    if (toChange.length > 0) await tx.room.updateMany({ where: { hotelId: ctx.actor.hotelId, id: { in: toChange.map((r) => r.id) } }, data });
    if (toChange.length > 0) await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'room.changed', roomIds: toChange.map((r) => r.id) });
    // Housekeeping follows (docs/housekeeping.md "Legacy face"): today's open tasks of rooms marked clean or inspected are closed.
    if (target === 'clean' || target === 'inspected')
      await closeTasksByStatus(
        tx,
        ctx.actor.hotelId,
        ctx.actor.timeZone,
        toChange.map((r) => r.id),
        target,
      );
    for (const room of toChange) {
      await recordAudit(tx, ctx, {
        action: 'room.status',
        entityType: 'Room',
        entityId: room.id,
        before: { cleanStatus: room.cleanStatus, maintenance: room.maintenance },
        after: { target },
      });
    }
    return rooms.filter((room) => isAlready(room, target)).map((r) => ({ id: r.id, name: r.name }));
  });
  const already = new Set(unchanged.map((r) => r.id));
  return { rooms: ids.length, changed: ids.filter((id) => !already.has(id)), unchanged, notice: alreadyNotice(ctx, target, unchanged) };
}

export async function setRoomStatus(
  ctx: AuthedContext,
  raw: z.input<typeof ZRoomStatusInput>,
): Promise<RoomDetail & { hasChanged: boolean; statusNotice: string | null }> {
  const { roomId, target } = ZRoomStatusInput.parse(raw);
  const result = await setRoomsStatus(ctx, { roomIds: [roomId], target });
  return { ...(await getRoom(ctx, roomId)), hasChanged: result.changed.length > 0, statusNotice: result.notice };
}
