import { Prisma } from '../../generated/prisma/client';
import type { Actor, AuthedContext } from '../../context';
import { AppError } from '../../errors';

/**
 * The rooms an actor may see and manage: the hotel's rooms that are not deleted, and, for a
 * membership limited to some rooms (authority management), only those. Every room query of
 * every service starts from here.
 */
export function roomScope(actor: Actor): Prisma.RoomWhereInput {
  return {
    hotelId: actor.hotelId,
    deletedAt: null,
    ...(actor.allRooms ? {} : { memberships: { some: { membershipId: actor.membershipId } } }),
  };
}

/** The same scope for raw SQL over `"Room"` aliased `r`. */
export function roomScopeSql(actor: Actor): Prisma.Sql {
  const limited = actor.allRooms
    ? Prisma.empty
    : Prisma.sql` AND EXISTS (SELECT 1 FROM "MembershipRoom" mr WHERE mr."roomId" = r."id" AND mr."membershipId" = ${actor.membershipId})`;
  return Prisma.sql`r."hotelId" = ${actor.hotelId} AND r."deletedAt" IS NULL${limited}`;
}

/** A room of the actor's scope, or NOT_FOUND (a room of another hotel is "not found" too). */
export async function findRoom<S extends Prisma.RoomSelect>(
  ctx: AuthedContext,
  roomId: number,
  select: S,
  db: Prisma.TransactionClient | AuthedContext['deps']['prisma'] = ctx.deps.prisma,
): Promise<Prisma.RoomGetPayload<{ select: S }>> {
  const room = await db.room.findFirst({ where: { id: roomId, ...roomScope(ctx.actor) }, select });
  if (!room) throw new AppError('NOT_FOUND', { messageKey: 'room.errors.notFound' });
  return room as Prisma.RoomGetPayload<{ select: S }>;
}
