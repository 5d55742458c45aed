import { ZIdempotencyKey } from '@console/shared';
import type { AuthedContext } from '../../context';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { roomScope } from '../base/room-access';
import { getStay, type StayWithBill } from './stay-list';

/**
 * The stay a reservation or a check-in made with `key` (its `idempotencyKey`: the JSON API's
 * `Idempotency-Key`, an integrator's own booking id), in the actor's hotel and rooms; else not found.
 */
export async function getStayByKey(ctx: AuthedContext, key: string): Promise<StayWithBill> {
  requirePermission(ctx.actor, 'room.read');
  const found = await ctx.deps.prisma.stay.findFirst({
    where: { hotelId: ctx.actor.hotelId, idempotencyKey: ZIdempotencyKey.parse(key), room: roomScope(ctx.actor) },
    select: { id: true },
  });
  if (!found) throw new AppError('NOT_FOUND', { messageKey: 'stay.errors.notFound' });
  return getStay(ctx, { stayId: found.id });
}
