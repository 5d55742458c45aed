import { ACTIVE_STAY_STATES, ZStayIdInput, ZStayListInput, addDays, zonedToInstant, type TStayListInput } from '@console/shared';
import type { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client';
import type { AuthedContext } from '../../context';
import { searchText } from '../../db/search';
import { requirePermission } from '../../permissions';
import { roomScope } from '../room/room-access';
import { guestMatches } from './guests';
import { findStay, staySelect, toStayDto, type StayDto } from './stay-dto';

export async function getStay(ctx: AuthedContext, raw: z.input<typeof ZStayIdInput>): Promise<StayDto> {
  requirePermission(ctx.actor, 'room.read');
  const { stayId } = ZStayIdInput.parse(raw);
  return toStayDto(await findStay(ctx, stayId));
}

/** Where-conditions of a state filter, exact even before the jobs have caught up. */
function stateWhere(state: z.output<typeof ZStayListInput>['state'], now: Date): Prisma.StayWhereInput {
  switch (state) {
    case 'all':
      return {};
    case 'current':
      return { status: { in: [...ACTIVE_STAY_STATES] } };
    case 'reserved':
      return { status: { in: [...ACTIVE_STAY_STATES] }, checkInAt: { gt: now }, expectedCheckOutAt: { gt: now } };
    case 'in_house':
      return { status: { in: [...ACTIVE_STAY_STATES] }, checkInAt: { lte: now }, expectedCheckOutAt: { gt: now } };
    case 'expired':
      return { status: { in: [...ACTIVE_STAY_STATES] }, expectedCheckOutAt: { lte: now } };
    default:
      return { status: state };
  }
}

/** The tenant list: every stay of the rooms in scope, filtered by state, dates, room and guest. */
export async function listStays(ctx: AuthedContext, raw: TStayListInput) {
  const { deps, actor } = ctx;
  requirePermission(actor, 'room.read');
  const input = ZStayListInput.parse(raw);
  const now = new Date();
  const guest = searchText(input.guest);
  const from = input.from ? zonedToInstant(`${input.from}T00:00`, actor.timeZone)! : undefined;
  const to = input.to ? zonedToInstant(`${addDays(input.to, 1)}T00:00`, actor.timeZone)! : undefined;
  const where: Prisma.StayWhereInput = {
    hotelId: actor.hotelId,
    room: roomScope(actor),
    ...stateWhere(input.state, now),
    ...(input.roomId !== undefined ? { roomId: input.roomId } : {}),
    ...(guest ? { guests: { some: guestMatches(guest) } } : {}),
    AND: [
      ...(from ? [{ OR: [{ checkedOutAt: { gt: from } }, { checkedOutAt: null, expectedCheckOutAt: { gt: from } }] }] : []),
      ...(to ? [{ checkInAt: { lt: to } }] : []),
    ],
  };
  const [total, rows] = await Promise.all([
    deps.prisma.stay.count({ where }),
    deps.prisma.stay.findMany({ where, select: staySelect, orderBy: [{ checkInAt: 'desc' }, { id: 'desc' }], skip: (input.page - 1) * input.pageSize, take: input.pageSize }),
  ]);
  return { items: rows.map((r) => toStayDto(r, now)), total, page: input.page, pageSize: input.pageSize };
}
