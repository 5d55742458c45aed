import { ZAssignInput, ZHousekeepingDayInput, roomFloor, type TAttendant, type THousekeepingDay, type THousekeepingTask } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { recordEvent } from '../../db/events';
import { lockRooms, transaction, type Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { roomScope } from '../base/room-access';
import { noteRotaChange } from './attendant-access';
import { attendantCardsOf } from './attendant-card';
import { attendantKeysOf, withEnteredAt, type TAttendantKey } from './task-entries';
import { asDate, ATTENDANT_ROLES, theDay, TASK_SELECT, memberName, toTask, ROOM_ORDER, TASK_ORDER } from './task-shape';

/**
 * Housekeeping (issue 28 §2, docs/housekeeping.md): the day's tasks of each room, made by the day
 * (`generateTasks`, idempotent: one task per room, day and kind, so two runs at once make one set),
 * assigned to attendants, worked on the attendant's phone and inspected by the supervisor. The
 * room's cleanliness follows: done -> clean, inspection passed -> inspected, failed -> dirty.
 */

async function attendantsOf(ctx: AuthedContext, day: string): Promise<TAttendant[]> {
  const members = await ctx.deps.prisma.membership.findMany({
    where: { hotelId: ctx.actor.hotelId, role: { in: ATTENDANT_ROLES }, account: { frozenAt: null } },
    select: {
      id: true,
      name: true,
      role: true,
      account: { select: { nickname: true } },
      attendantShifts: { where: { day: asDate(day) }, select: { startsAt: true, endsAt: true } },
    },
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
  });
  return members.map((m) => {
    const shift = m.attendantShifts[0];
    return {
      membershipId: m.id,
      name: memberName(m),
      role: m.role,
      shift: shift
        ? {
            start: shiftClock(shift.startsAt, ctx.actor.timeZone),
            end: shiftClock(shift.endsAt, ctx.actor.timeZone),
            startsAt: shift.startsAt.toISOString(),
            endsAt: shift.endsAt.toISOString(),
          }
        : null,
    };
  });
}

function shiftClock(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
}

/** The supervisor's view of a day: every task of the rooms they may see, the attendants and their shifts. */
export async function housekeepingDay(ctx: AuthedContext, raw: z.input<typeof ZHousekeepingDayInput>): Promise<THousekeepingDay> {
  requirePermission(ctx.actor, 'housekeeping.manage');
  const day = theDay(ctx, ZHousekeepingDayInput.parse(raw).day);
  const { prisma } = ctx.deps;
  const [tasks, attendants, groups, hotel, rooms] = await Promise.all([
    prisma.housekeepingTask.findMany({
      where: { hotelId: ctx.actor.hotelId, day: asDate(day), room: roomScope(ctx.actor) },
      select: TASK_SELECT,
      orderBy: TASK_ORDER,
      take: 5000,
    }),
    attendantsOf(ctx, day),
    prisma.roomGroup.findMany({ where: { hotelId: ctx.actor.hotelId }, select: { id: true, name: true }, orderBy: [{ sort: 'asc' }, { name: 'asc' }] }),
    prisma.hotel.findUniqueOrThrow({ where: { id: ctx.actor.hotelId }, select: { stayoverRule: true, stayoverEveryDays: true, housekeepingDayStart: true } }),
    // The rooms a range can be set on (the page's out-of-order form), in the board's order, with the
    // board's maintenance axis: a room marked out of order there shows on the page too (issue 39 §11).
    prisma.room.findMany({
      where: roomScope(ctx.actor),
      orderBy: ROOM_ORDER,
      select: { id: true, name: true, maintenance: true },
      take: 5000,
    }),
  ]);
  return {
    day,
    tasks: await withEnteredAt(prisma, ctx.actor.hotelId, tasks.map(toTask)),
    attendants,
    cards: await attendantCardsOf(ctx, ctx.actor.hotelId, day),
    groups,
    rooms,
    settings: { stayoverRule: hotel.stayoverRule, stayoverEveryDays: hotel.stayoverEveryDays, dayStart: hotel.housekeepingDayStart },
  };
}

/** The attendant's phone: their own tasks of the day, in the order they were given, and their shift. */
export async function myRooms(
  ctx: AuthedContext,
  raw: z.input<typeof ZHousekeepingDayInput>,
): Promise<{ day: string; tasks: THousekeepingTask[]; shift: TAttendant['shift']; keys: TAttendantKey[] }> {
  requirePermission(ctx.actor, 'housekeeping.work');
  const day = theDay(ctx, ZHousekeepingDayInput.parse(raw).day);
  const [tasks, shift] = await Promise.all([
    ctx.deps.prisma.housekeepingTask.findMany({
      where: { hotelId: ctx.actor.hotelId, day: asDate(day), assigneeId: ctx.actor.membershipId, room: { deletedAt: null } },
      select: TASK_SELECT,
      orderBy: [{ position: 'asc' }, { id: 'asc' }],
    }),
    ctx.deps.prisma.attendantShift.findFirst({
      where: { hotelId: ctx.actor.hotelId, membershipId: ctx.actor.membershipId, day: asDate(day) },
      select: { startsAt: true, endsAt: true },
    }),
  ]);
  return {
    day,
    tasks: await withEnteredAt(ctx.deps.prisma, ctx.actor.hotelId, tasks.map(toTask)),
    keys: await attendantKeysOf(ctx.deps.prisma, ctx.actor.hotelId, ctx.actor.membershipId, day),
    shift: shift
      ? {
          start: shiftClock(shift.startsAt, ctx.actor.timeZone),
          end: shiftClock(shift.endsAt, ctx.actor.timeZone),
          startsAt: shift.startsAt.toISOString(),
          endsAt: shift.endsAt.toISOString(),
        }
      : null,
  };
}

/** A member of the hotel who cleans rooms (a housekeeping role), or NOT_FOUND (another hotel's member too). */
export async function findAttendant(ctx: AuthedContext, membershipId: number, db: Tx | AuthedContext['deps']['prisma'] = ctx.deps.prisma) {
  const member = await db.membership.findFirst({
    where: { id: membershipId, hotelId: ctx.actor.hotelId, role: { in: ATTENDANT_ROLES } },
    select: { id: true, name: true, account: { select: { nickname: true } } },
  });
  if (!member) throw new AppError('NOT_FOUND', { messageKey: 'housekeeping.errors.attendantNotFound' });
  return member;
}

/**
 * Gives rooms of a day to an attendant (or takes them back: `membershipId` null): a list of rooms
 * in the order to clean them, or every room of a group, or of a floor (board order), after the
 * rooms the attendant already has. Every task of those rooms that day follows. Rooms without a
 * task that day are answered by name (`skipped`).
 */
export async function assignRooms(ctx: AuthedContext, raw: z.input<typeof ZAssignInput>): Promise<{ assigned: number; skipped: string[] }> {
  requirePermission(ctx.actor, 'housekeeping.manage');
  const input = ZAssignInput.parse(raw);
  const day = theDay(ctx, input.day);
  const { hotelId } = ctx.actor;
  if (input.membershipId !== null) await findAttendant(ctx, input.membershipId);
  let rooms: { id: number; name: string }[];
  if (input.roomIds) {
    const ids = [...new Set(input.roomIds)];
    const found = await ctx.deps.prisma.room.findMany({ where: { ...roomScope(ctx.actor), id: { in: ids } }, select: { id: true, name: true } });
    if (found.length !== ids.length) throw new AppError('NOT_FOUND', { messageKey: 'room.errors.notFound' });
    const byId = new Map(found.map((r) => [r.id, r]));
    rooms = ids.map((id) => byId.get(id)!);
  } else {
    if (input.groupId !== undefined) {
      const group = await ctx.deps.prisma.roomGroup.findFirst({ where: { id: input.groupId, hotelId }, select: { id: true } });
      if (!group) throw new AppError('NOT_FOUND', { messageKey: 'roomGroup.errors.notFound' });
    }
    const inScope = await ctx.deps.prisma.room.findMany({
      where: { ...roomScope(ctx.actor), ...(input.groupId !== undefined ? { groupId: input.groupId } : {}) },
      orderBy: ROOM_ORDER,
      select: { id: true, name: true },
    });
    rooms = input.floor !== undefined ? inScope.filter((r) => roomFloor(r.name) === input.floor) : inScope;
  }
  const ids = rooms.map((r) => r.id);
  return transaction(ctx.deps, async (tx) => {
    await lockRooms(tx, hotelId, ids);
    const tasks = await tx.housekeepingTask.findMany({
      where: { hotelId, day: asDate(day), roomId: { in: ids } },
      select: { id: true, roomId: true, assigneeId: true },
    });
    const withTask = new Set(tasks.map((t) => t.roomId));
    let next = 0;
    if (input.membershipId !== null) {
      const last = await tx.housekeepingTask.aggregate({
        where: { hotelId, day: asDate(day), assigneeId: input.membershipId, roomId: { notIn: ids } },
        _max: { position: true },
      });
      next = (last._max.position ?? -1) + 1;
    }
    const order = new Map(ids.filter((id) => withTask.has(id)).map((id, i) => [id, next + i]));
    for (const task of tasks) {
      await tx.housekeepingTask.update({
        where: { id: task.id },
        data: { assigneeId: input.membershipId, position: input.membershipId === null ? 0 : order.get(task.roomId)!, version: { increment: 1 } },
      });
    }
    if (tasks.length > 0) {
      await recordEvent(tx, {
        hotelId,
        kind: 'housekeeping.changed',
        roomIds: [...withTask],
        ...(input.membershipId ? { membershipId: input.membershipId } : {}),
      });
      noteRotaChange(tx, ctx, { hotelId, day, membershipIds: [input.membershipId, ...tasks.map((t) => t.assigneeId)] });
      await recordAudit(tx, ctx, {
        action: 'housekeeping.assign',
        entityType: 'Membership',
        entityId: input.membershipId ?? undefined,
        after: { day, rooms: rooms.filter((r) => withTask.has(r.id)).map((r) => r.name) },
      });
    }
    return { assigned: tasks.length, skipped: rooms.filter((r) => !withTask.has(r.id)).map((r) => r.name) };
  });
}

/** A task the actor may work on: any of their rooms' for a supervisor, only their own for an attendant; else NOT_FOUND. */
