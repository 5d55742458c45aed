import { ZStayIdInput, ZStayListInput, addDays, zonedToInstant, type TStayListInput } from '@console/shared';
import type { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client';
import type { AuthedContext } from '../../context';
import type { TPrisma } from '../../db/client';
import { descAfter, type KeysetCursor } from '../../db/keyset';
import { searchText } from '../../db/search';
import { requirePermission } from '../../permissions';
import { findRoom, roomScope } from '../base/room-access';
import { withBills, type StayBill } from '../orders/stay-bills';
import { guestMatches } from './guests';
import { findStay, staySelect, toStayDto, type StayDto } from '../base/stay-dto';

/**
 * A stay as the lists and the stay card show it: with its visit's bill (the same figure as the
 * folio's), and when its visit began (`visitCheckInAt`: the first stay's check-in; after a room
 * change the stay itself begins at the move, the guest arrived earlier).
 */
export type StayWithBill = StayDto & { bill: StayBill; visitCheckInAt: string };

/** The stays with their visits' bills and check-ins, in the same order: two statements for any number. */
async function asListed(db: TPrisma, hotelId: number, stays: StayDto[]): Promise<StayWithBill[]> {
  const firsts = [...new Set(stays.filter((s) => s.visitStayId !== s.id).map((s) => s.visitStayId))];
  const [billed, visits] = await Promise.all([
    withBills(db, hotelId, stays),
    firsts.length ? db.stay.findMany({ where: { hotelId, id: { in: firsts } }, select: { id: true, checkInAt: true } }) : [],
  ]);
  const began = new Map(visits.map((v) => [v.id, v.checkInAt.toISOString()]));
  return billed.map((s) => ({ ...s, visitCheckInAt: began.get(s.visitStayId) ?? s.checkInAt }));
}

export async function getStay(ctx: AuthedContext, raw: z.input<typeof ZStayIdInput>): Promise<StayWithBill> {
  requirePermission(ctx.actor, 'room.read');
  const { stayId } = ZStayIdInput.parse(raw);
  const [stay] = await asListed(ctx.deps.prisma, ctx.actor.hotelId, [toStayDto(await findStay(ctx, stayId))]);
  return stay!;
}

/** A reservation that awaits its guest at the desk (it never begins by itself). */
const AWAITING: Prisma.StayWhereInput = { status: 'reserved', awaitsArrival: true };
/** Active stays that begin by themselves at their check-in time (in house, expired, a check-in dated ahead). */
const BY_TIME: Prisma.StayWhereInput[] = [{ status: { in: ['in_house', 'expired'] } }, { status: 'reserved', awaitsArrival: false }];

/** Where-conditions of a state filter, exact even before the jobs have caught up (the rule of `effectiveState`). */
function stateWhere(state: z.output<typeof ZStayListInput>['state'], now: Date): Prisma.StayWhereInput {
  switch (state) {
    case 'all':
      return {};
    case 'current':
      return { OR: [{ ...AWAITING, OR: [{ noShowAt: null }, { noShowAt: { gt: now } }] }, ...BY_TIME] };
    case 'reserved':
      return {
        OR: [
          { ...AWAITING, OR: [{ noShowAt: null }, { noShowAt: { gt: now } }] },
          ...BY_TIME.map((w) => ({ ...w, checkInAt: { gt: now }, expectedCheckOutAt: { gt: now } })),
        ],
      };
    case 'in_house':
      return { OR: BY_TIME.map((w) => ({ ...w, checkInAt: { lte: now }, expectedCheckOutAt: { gt: now } })) };
    case 'expired':
      return { OR: BY_TIME.map((w) => ({ ...w, expectedCheckOutAt: { lte: now } })) };
    case 'no_show':
      return { OR: [{ status: 'no_show' }, { ...AWAITING, noShowAt: { lte: now } }] };
    default:
      return { status: state };
  }
}

/** The conditions of the stay list: the stays of the rooms in scope, filtered by state, dates, room and guest. */
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

/** The stay list: every stay of the rooms in scope, filtered by state, dates, room and guest. */
export async function listStays(ctx: AuthedContext, raw: TStayListInput) {
  const { deps, actor } = ctx;
  requirePermission(actor, 'room.read');
  const input = ZStayListInput.parse(raw);
  // A room that does not exist or is not the actor's is "not found", as on every list of a room.
  if (input.roomId !== undefined) await findRoom(ctx, input.roomId, { id: true });
  const now = new Date();
  const where = stayListWhere(ctx, input, now);
  const [total, rows] = await Promise.all([
    deps.prisma.stay.count({ where }),
    deps.prisma.stay.findMany({ where, select: staySelect, orderBy: stayOrder, skip: (input.page - 1) * input.pageSize, take: input.pageSize }),
  ]);
  const items: StayWithBill[] = await asListed(
    deps.prisma,
    actor.hotelId,
    rows.map((r) => toStayDto(r, now)),
  );
  return { items, total, page: input.page, pageSize: input.pageSize };
}

/**
 * The stay list read whole, for an export: up to `limit` stays after `after` (from the first
 * when null) in the list's order, by keyset (db/keyset.ts), same checks and conditions as
 * `listStays`; and how many match (`countStays`).
 */
export async function listStaysAfter(ctx: AuthedContext, raw: TStayListInput, after: KeysetCursor | null, limit: number) {
  requirePermission(ctx.actor, 'room.read');
  const input = ZStayListInput.parse(raw);
  if (input.roomId !== undefined) await findRoom(ctx, input.roomId, { id: true });
  const now = new Date();
  const where: Prisma.StayWhereInput = { AND: [stayListWhere(ctx, input, now), descAfter<Prisma.StayWhereInput>('checkInAt', after)] };
  const rows = await ctx.deps.prisma.stay.findMany({ where, select: staySelect, orderBy: stayOrder, take: limit });
  return asListed(
    ctx.deps.prisma,
    ctx.actor.hotelId,
    rows.map((r) => toStayDto(r, now)),
  );
}

export async function countStays(ctx: AuthedContext, raw: TStayListInput): Promise<number> {
  requirePermission(ctx.actor, 'room.read');
  return ctx.deps.prisma.stay.count({ where: stayListWhere(ctx, ZStayListInput.parse(raw), new Date()) });
}
