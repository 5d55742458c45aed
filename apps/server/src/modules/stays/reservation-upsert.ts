import { ZIdempotencyKey, ZReservationInput, type TReservationInput } from '@console/shared';
import type { AuthedContext } from '../../context';
import { requirePermission } from '../../permissions';
import { roomScope } from '../base/room-access';
import type { StayDto } from '../base/stay-dto';
import { createReservation } from './reservation';
import { rescheduleStay } from './reschedule';

/**
 * A reservation by the caller's own id (issue 29 §1, `PUT /api/v1/reservations/by-external-id/{externalId}`):
 * made when none has that id (`createReservation`, the id its idempotency key for good), else the
 * one that has it brought to the dates and room sent (`rescheduleStay`: priced again, the room
 * checked free naming the booking in the way, the codes following). A reservation moved to another
 * room is followed to the stay that carries it on. Its guests, price and deposit are the first
 * call's: a later call changes the dates and the room only (a group alone keeps its room).
 */
export async function upsertReservationByKey(ctx: AuthedContext, externalId: string, raw: Omit<TReservationInput, 'idempotencyKey'>): Promise<StayDto> {
  requirePermission(ctx.actor, 'stay.manage');
  const key = ZIdempotencyKey.parse(externalId);
  const input = ZReservationInput.parse({ ...raw, idempotencyKey: key });
  const found = await ctx.deps.prisma.stay.findFirst({
    where: { hotelId: ctx.actor.hotelId, idempotencyKey: key, room: roomScope(ctx.actor) },
    select: { id: true },
  });
  if (!found) return createReservation(ctx, input);
  // The stay that carries the reservation on after room changes (each moved stay names its successor).
  let stayId = found.id;
  for (;;) {
    const next = await ctx.deps.prisma.stay.findFirst({ where: { hotelId: ctx.actor.hotelId, movedFromStayId: stayId }, select: { id: true } });
    if (!next) break;
    stayId = next.id;
  }
  // A group alone names no room: the reservation keeps its room.
  return rescheduleStay(ctx, {
    stayId,
    checkInAt: input.checkInAt,
    expectedCheckOutAt: input.expectedCheckOutAt,
    ...(input.roomId !== undefined ? { roomId: input.roomId } : {}),
  });
}
