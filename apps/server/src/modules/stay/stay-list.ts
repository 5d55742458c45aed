import { ACTIVE_STAY_STATES, ZStayIdInput, ZStayListInput, addDays, zonedToInstant, type TStayListInput } from '@console/shared';
import type { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client';
import type { AuthedContext } from '../../context';
import { descAfter, type KeysetCursor } from '../../db/keyset';
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

/** The conditions of the tenant list: the stays of the rooms in scope, filtered by state, dates, room and guest. */
function stayListWhere(ctx: AuthedContext, input: z.output<typeof ZStayListInput>, now: Date): Prisma.StayWhereInput {
  const { actor } = ctx;
  const guest = searchText(input.guest);
  const from = input.from ? zonedToInstant(`${input.from}T00:00`, actor.timeZone)! : undefined;
  const to = input.to ? zonedToInstant(`${addDays(input.to, 1)}T00:00`, actor.timeZone)! : undefined;
  return {
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
}

const stayOrder: Prisma.StayOrderByWithRelationInput[] = [{ checkInAt: 'desc' }, { id: 'desc' }];

/** The tenant list: every stay of the rooms in scope, filtered by state, dates, room and guest. */
export async function listStays(ctx: AuthedContext, raw: TStayListInput) {
  const { deps, actor } = ctx;
  requirePermission(actor, 'room.read');
  const input = ZStayListInput.parse(raw);
  const now = new Date();
  const where = stayListWhere(ctx, input, now);
  const [total, rows] = await Promise.all([
    deps.prisma.stay.count({ where }),
    deps.prisma.stay.findMany({ where, select: staySelect, orderBy: stayOrder, skip: (input.page - 1) * input.pageSize, take: input.pageSize }),
  ]);
  return { items: rows.map((r) => toStayDto(r, now)), total, page: input.page, pageSize: input.pageSize };
}

/**
 * The tenant list read whole, for an export: up to `limit` stays after `after` (from the first
 * when null) in the list's order, by keyset (db/keyset.ts), same checks and conditions as
 * `listStays`; and how many match (`countStays`).
 */
export async function listStaysAfter(ctx: AuthedContext, raw: TStayListInput, after: KeysetCursor | null, limit: number) {
  requirePermission(ctx.actor, 'room.read');
  const input = ZStayListInput.parse(raw);
  const now = new Date();
  const where: Prisma.StayWhereInput = { AND: [stayListWhere(ctx, input, now), descAfter<Prisma.StayWhereInput>('checkInAt', after)] };
  const rows = await ctx.deps.prisma.stay.findMany({ where, select: staySelect, orderBy: stayOrder, take: limit });
  return rows.map((r) => toStayDto(r, now));
}

export async function countStays(ctx: AuthedContext, raw: TStayListInput): Promise<number> {
  requirePermission(ctx.actor, 'room.read');
  return ctx.deps.prisma.stay.count({ where: stayListWhere(ctx, ZStayListInput.parse(raw), new Date()) });
}
