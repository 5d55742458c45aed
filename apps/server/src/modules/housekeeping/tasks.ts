import {
  ROLE_PERMISSIONS,
  STEP_FROM,
  ZAssignInput,
  ZHousekeepingDayInput,
  ZHousekeepingSettingsInput,
  ZInspectInput,
  ZRequestCleanInput,
  ZShiftInput,
  ZTaskStepInput,
  addDays,
  localDate,
  roomFloor,
  zonedToInstant,
  type TAttendant,
  type THousekeepingDay,
  type THousekeepingTask,
  type THousekeepingTaskStatus,
  type TRole,
} from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext, ServiceContext } from '../../context';
import { recordEvent } from '../../db/events';
import { lockRooms, transaction, type Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { Prisma } from '../../generated/prisma/client';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { roomScope } from '../base/room-access';
import { followRanges } from './out-of-order';
import { noteRotaChange } from './attendant-access';
import { attendantCardsOf } from './attendant-card';
import { attendantKeysOf, withEnteredAt, type TAttendantKey } from './task-entries';

/**
 * Housekeeping (issue 28 §2, docs/housekeeping.md): the day's tasks of each room, made by the day
 * (`generateTasks`, idempotent: one task per room, day and kind, so two runs at once make one set),
 * assigned to attendants, worked on the attendant's phone and inspected by the supervisor. The
 * room's cleanliness follows: done -> clean, inspection passed -> inspected, failed -> dirty.
 */

const asDate = (d: string) => new Date(`${d}T00:00:00Z`);
const dayOf = (d: Date) => d.toISOString().slice(0, 10);
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The roles whose members clean rooms (the attendants a supervisor assigns to). */
const ATTENDANT_ROLES = (Object.keys(ROLE_PERMISSIONS) as TRole[]).filter((r) => r === 'housekeeping' || r === 'housekeeping_supervisor');

/** The hotel day a request means: the day given, or today in the hotel's zone. */
function theDay(ctx: AuthedContext, day: string | undefined): string {
  return day ?? localDate(new Date(), ctx.actor.timeZone);
}

const TASK_SELECT = {
  id: true,
  roomId: true,
  day: true,
  kind: true,
  status: true,
  assigneeId: true,
  position: true,
  note: true,
  photo: true,
  failReason: true,
  requested: true,
  startedAt: true,
  doneAt: true,
  inspectedAt: true,
  version: true,
  room: { select: { name: true, groupId: true, groupName: true, cleanStatus: true, groupSort: true, sortOrder: true } },
  assignee: { select: { name: true, account: { select: { nickname: true } } } },
} satisfies Prisma.HousekeepingTaskSelect;

type TaskRow = Prisma.HousekeepingTaskGetPayload<{ select: typeof TASK_SELECT }>;

const memberName = (m: { name: string; account: { nickname: string } }) => m.name || m.account.nickname;

function toTask(t: TaskRow): THousekeepingTask {
  return {
    id: t.id,
    roomId: t.roomId,
    roomName: t.room.name,
    groupId: t.room.groupId,
    groupName: t.room.groupName,
    floor: roomFloor(t.room.name),
    day: dayOf(t.day),
    kind: t.kind,
    status: t.status,
    assigneeId: t.assigneeId,
    assigneeName: t.assignee ? memberName(t.assignee) : null,
    position: t.position,
    note: t.note,
    photo: t.photo,
    failReason: t.failReason,
    requested: t.requested,
    startedAt: iso(t.startedAt),
    enteredAt: null,
    doneAt: iso(t.doneAt),
    inspectedAt: iso(t.inspectedAt),
    cleanStatus: t.room.cleanStatus,
    version: t.version,
  };
}

/** The rooms in the board's order (the page's lists, assignment by floor). */
const ROOM_ORDER: Prisma.RoomOrderByWithRelationInput[] = [
  { groupSort: { sort: 'asc', nulls: 'last' } },
  { groupName: { sort: 'asc', nulls: 'last' } },
  { sortOrder: 'asc' },
  { name: 'asc' },
  { id: 'asc' },
];

/** Board order of the rooms, then the kind (departures first). */
const TASK_ORDER: Prisma.HousekeepingTaskOrderByWithRelationInput[] = [
  { room: { groupSort: { sort: 'asc', nulls: 'last' } } },
  { room: { groupName: { sort: 'asc', nulls: 'last' } } },
  { room: { sortOrder: 'asc' } },
  { room: { name: 'asc' } },
  { kind: 'asc' },
];

const ACTIVE = Prisma.sql`('in_house'::"StayStatus", 'expired'::"StayStatus")`;

/**
 * Makes the tasks of `day` in one statement (INSERT ... ON CONFLICT DO NOTHING on the task's room,
 * day and kind, so runs at once or again make nothing twice): a departure clean for each room a
 * stay leaves that day and each dirty room without a guest; a stay-over clean per the hotel's
 * rule (daily, every N days counted from the check-in day, never on its own for `on_request`); an
 * inspection for each room a reservation arrives in that day that is clean but not inspected. A
 * room out of order that day gets none. Answers the rooms given a task.
 */
export async function generateTasks(tx: Tx, hotelId: number, day: string): Promise<number[]> {
  const hotel = await tx.hotel.findUniqueOrThrow({ where: { id: hotelId }, select: { timeZone: true, stayoverRule: true, stayoverEveryDays: true } });
  const tz = hotel.timeZone;
  const stayover =
    hotel.stayoverRule === 'daily'
      ? Prisma.sql`TRUE`
      : hotel.stayoverRule === 'every_n_days'
        ? Prisma.sql`((${day}::date - (s."checkInAt" AT TIME ZONE ${tz})::date) % ${hotel.stayoverEveryDays}) = 0`
        : Prisma.sql`FALSE`;
  const rows = await tx.$queryRaw<{ roomId: number }[]>`
    INSERT INTO "HousekeepingTask" ("hotelId", "roomId", "day", "kind", "stayId", "updatedAt")
    SELECT DISTINCT ON (x."roomId", x."kind") ${hotelId}, x."roomId", ${day}::date, x."kind"::"HousekeepingTaskKind", x."stayId", now()
    FROM (
      SELECT s."roomId", 'departure' AS "kind", s."id" AS "stayId", 0 AS "rank"
      FROM "Stay" s
      WHERE s."hotelId" = ${hotelId} AND s."status" IN ('in_house', 'expired', 'checked_out')
        AND (COALESCE(s."checkedOutAt", s."expectedCheckOutAt") AT TIME ZONE ${tz})::date = ${day}::date
      UNION ALL
      SELECT r."id", 'departure', NULL, 1 FROM "Room" r
      WHERE r."hotelId" = ${hotelId} AND r."cleanStatus" = 'dirty' AND r."inHouseStays" = 0
      UNION ALL
      SELECT s."roomId", 'stayover', s."id", 0
      FROM "Stay" s
      WHERE s."hotelId" = ${hotelId} AND s."status" IN ${ACTIVE}
        AND (s."checkInAt" AT TIME ZONE ${tz})::date < ${day}::date
        AND (s."expectedCheckOutAt" AT TIME ZONE ${tz})::date > ${day}::date
        AND ${stayover}
      UNION ALL
      SELECT s."roomId", 'inspection', s."id", 0
      FROM "Stay" s JOIN "Room" r ON r."id" = s."roomId"
      WHERE s."hotelId" = ${hotelId} AND s."status" = 'reserved' AND r."cleanStatus" = 'clean'
        AND (s."checkInAt" AT TIME ZONE ${tz})::date = ${day}::date
    ) x
    JOIN "Room" rm ON rm."id" = x."roomId" AND rm."hotelId" = ${hotelId} AND rm."deletedAt" IS NULL
    WHERE NOT EXISTS (
      SELECT 1 FROM "RoomOutOfOrder" o WHERE o."roomId" = x."roomId" AND o."startDate" <= ${day}::date AND o."endDate" >= ${day}::date)
    ORDER BY x."roomId", x."kind", x."rank"
    ON CONFLICT ("hotelId", "roomId", "day", "kind") DO NOTHING
    RETURNING "roomId"`;
  const roomIds = [...new Set(rows.map((r) => r.roomId))];
  if (roomIds.length > 0) await recordEvent(tx, { hotelId, kind: 'housekeeping.changed', roomIds });
  return roomIds;
}

/** "Make the day's tasks now" (the supervisor, on demand): the same generation as the day-start job. */
export async function generateDay(ctx: AuthedContext, raw: z.input<typeof ZHousekeepingDayInput>): Promise<{ day: string; created: number }> {
  requirePermission(ctx.actor, 'housekeeping.manage');
  const day = theDay(ctx, ZHousekeepingDayInput.parse(raw).day);
  const created = await transaction(ctx.deps, async (tx) => {
    const rooms = await generateTasks(tx, ctx.actor.hotelId, day);
    // Asked for by the supervisor: recorded even when every task already existed.
    await recordAudit(tx, ctx, { action: 'housekeeping.generate', entityType: 'Hotel', entityId: ctx.actor.hotelId, after: { day, rooms: rooms.length } });
    return rooms.length;
  });
  return { day, created };
}

/**
 * The day-start job (every stay sweep, jobs/stay.job.ts): each hotel whose housekeeping day start
 * has come and whose day is not made yet claims it (one update: of two sweeps at once, one wins),
 * the board follows the out-of-order ranges of the new day, and the day's tasks are made.
 */
export async function generateDaysOnTime(ctx: ServiceContext, now: Date, scope: { hotelId?: number } = {}): Promise<number> {
  const hotels = await ctx.deps.prisma.hotel.findMany({
    where: scope.hotelId === undefined ? {} : { id: scope.hotelId },
    select: { id: true, timeZone: true, housekeepingDayStart: true, housekeepingDay: true },
  });
  let made = 0;
  for (const hotel of hotels) {
    const today = localDate(now, hotel.timeZone);
    const due = zonedToInstant(`${today}T${hotel.housekeepingDayStart}`, hotel.timeZone);
    if (!due || now < due) continue;
    if (hotel.housekeepingDay && dayOf(hotel.housekeepingDay) >= today) continue;
    const claimed = await transaction(ctx.deps, async (tx) => {
      const won = await tx.hotel.updateMany({
        where: { id: hotel.id, OR: [{ housekeepingDay: null }, { housekeepingDay: { lt: asDate(today) } }] },
        data: { housekeepingDay: asDate(today) },
      });
      if (won.count === 0) return false;
      await followRanges(tx, hotel.id, null, today);
      const rooms = await generateTasks(tx, hotel.id, today);
      await recordAudit(tx, ctx, {
        hotelId: hotel.id,
        action: 'housekeeping.generate',
        entityType: 'Hotel',
        entityId: hotel.id,
        after: { day: today, rooms: rooms.length },
      });
      return true;
    });
    if (claimed) made += 1;
  }
  return made;
}

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
    // The rooms a range can be set on (the page's out-of-order form), in the board's order.
    prisma.room.findMany({
      where: roomScope(ctx.actor),
      orderBy: ROOM_ORDER,
      select: { id: true, name: true },
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
async function findAttendant(ctx: AuthedContext, membershipId: number, db: Tx | AuthedContext['deps']['prisma'] = ctx.deps.prisma) {
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
async function findTask(ctx: AuthedContext, taskId: number, db: Tx | AuthedContext['deps']['prisma'] = ctx.deps.prisma) {
  const supervisor = ctx.actor.permissions.has('housekeeping.manage');
  const task = await db.housekeepingTask.findFirst({
    where: {
      id: taskId,
      hotelId: ctx.actor.hotelId,
      ...(supervisor ? { room: roomScope(ctx.actor) } : { assigneeId: ctx.actor.membershipId, room: { deletedAt: null } }),
    },
    select: { id: true, roomId: true, kind: true, status: true, day: true, assigneeId: true, room: { select: { name: true, cleanStatus: true } } },
  });
  if (!task) throw new AppError('NOT_FOUND', { messageKey: 'housekeeping.errors.taskNotFound' });
  return task;
}

const STEP_TO: Record<z.infer<typeof ZTaskStepInput>['step'], THousekeepingTaskStatus> = {
  start: 'in_progress',
  done: 'done',
  needs_maintenance: 'needs_maintenance',
  do_not_disturb: 'do_not_disturb',
};

async function readTask(tx: Tx, id: number): Promise<THousekeepingTask> {
  const row = await tx.housekeepingTask.findUniqueOrThrow({ where: { id }, select: { ...TASK_SELECT, hotelId: true } });
  return (await withEnteredAt(tx, row.hotelId, [toTask(row)]))[0]!;
}

/**
 * An attendant's step on a task: start, done (the room is clean), needs maintenance (with a note
 * and a photo of the uploads module), do not disturb. Under the room's lock; a step the task is
 * already at is no change (a second tap), one its status does not allow is refused by name.
 */
export async function stepTask(ctx: AuthedContext, raw: z.input<typeof ZTaskStepInput>): Promise<THousekeepingTask & { hasChanged: boolean }> {
  requirePermission(ctx.actor, 'housekeeping.work');
  const input = ZTaskStepInput.parse(raw);
  const { hotelId } = ctx.actor;
  if (input.photo && !input.photo.startsWith(`/uploads/${hotelId}/`))
    throw new AppError('VALIDATION', { messageKey: 'validation.invalid', fields: { photo: 'validation.invalid' } });
  const found = await findTask(ctx, input.taskId);
  if (found.kind === 'inspection') throw new AppError('CONFLICT', { messageKey: 'housekeeping.errors.inspectionOnly' });
  const target = STEP_TO[input.step];
  return transaction(ctx.deps, async (tx) => {
    await lockRooms(tx, hotelId, [found.roomId]);
    const task = await findTask(ctx, input.taskId, tx);
    if (task.status === target && input.step !== 'needs_maintenance') return { ...(await readTask(tx, task.id)), hasChanged: false };
    if (!STEP_FROM[input.step].includes(task.status) && task.status !== target) {
      throw new AppError('CONFLICT', { messageKey: `housekeeping.errors.cannot.${input.step}`, params: { room: task.room.name } });
    }
    const now = new Date();
    await tx.housekeepingTask.update({
      where: { id: task.id },
      data: {
        status: target,
        version: { increment: 1 },
        ...(input.step === 'start' ? { startedAt: now, doneAt: null } : {}),
        ...(input.step === 'done' ? { doneAt: now } : {}),
        ...(input.note !== undefined ? { note: input.note } : {}),
        ...(input.photo !== undefined ? { photo: input.photo } : {}),
      },
    });
    const roomIds = [task.roomId];
    if (input.step === 'done' && task.room.cleanStatus !== 'clean') {
      await tx.room.update({ where: { id: task.roomId }, data: { cleanStatus: 'clean' } });
      await recordEvent(tx, { hotelId, kind: 'room.changed', roomIds });
    }
    await recordEvent(tx, { hotelId, kind: 'housekeeping.changed', roomIds });
    await recordAudit(tx, ctx, {
      action: 'housekeeping.step',
      entityType: 'Room',
      entityId: task.roomId,
      before: { status: task.status },
      after: { status: target, ...(input.note ? { note: input.note } : {}) },
    });
    return { ...(await readTask(tx, task.id)), hasChanged: true };
  });
}

/**
 * The supervisor's inspection of a cleaned room (or of an arrival's room): passed, the room is
 * clean and ready (`inspected`); failed, the room is dirty again and the task goes back to its
 * attendant with the reason (an inspection task's failure makes a clean task of the room).
 */
export async function inspectTask(ctx: AuthedContext, raw: z.input<typeof ZInspectInput>): Promise<THousekeepingTask & { hasChanged: boolean }> {
  requirePermission(ctx.actor, 'housekeeping.manage');
  const input = ZInspectInput.parse(raw);
  const { hotelId } = ctx.actor;
  const found = await findTask(ctx, input.taskId);
  return transaction(ctx.deps, async (tx) => {
    await lockRooms(tx, hotelId, [found.roomId]);
    const task = await findTask(ctx, input.taskId, tx);
    const target: THousekeepingTaskStatus = input.pass ? 'inspected' : 'failed';
    if (task.status === target && input.pass) return { ...(await readTask(tx, task.id)), hasChanged: false };
    const inspectable = task.kind === 'inspection' ? ['todo', 'in_progress', 'done', 'failed'] : ['done'];
    if (!inspectable.includes(task.status)) throw new AppError('CONFLICT', { messageKey: 'housekeeping.errors.notDone', params: { room: task.room.name } });
    const now = new Date();
    const inspector = ctx.actor.apiKeyId === undefined ? ctx.actor.membershipId : null;
    await tx.housekeepingTask.update({
      where: { id: task.id },
      data: input.pass
        ? { status: 'inspected', inspectedAt: now, inspectedById: inspector, failReason: '', version: { increment: 1 } }
        : { status: 'failed', inspectedAt: now, inspectedById: inspector, failReason: input.reason ?? '', doneAt: null, version: { increment: 1 } },
    });
    if (!input.pass && task.kind === 'inspection') {
      await tx.housekeepingTask.upsert({
        where: { hotelId_roomId_day_kind: { hotelId, roomId: task.roomId, day: task.day, kind: 'departure' } },
        create: {
          hotelId,
          roomId: task.roomId,
          day: task.day,
          kind: 'departure',
          status: 'failed',
          failReason: input.reason ?? '',
          assigneeId: task.assigneeId,
        },
        update: { status: 'failed', failReason: input.reason ?? '', doneAt: null, version: { increment: 1 } },
      });
      noteRotaChange(tx, ctx, { hotelId, day: dayOf(task.day), membershipIds: [task.assigneeId] });
    }
    const cleanStatus = input.pass ? 'inspected' : 'dirty';
    if (task.room.cleanStatus !== cleanStatus) {
      await tx.room.update({ where: { id: task.roomId }, data: { cleanStatus } });
      await recordEvent(tx, { hotelId, kind: 'room.changed', roomIds: [task.roomId] });
    }
    await recordEvent(tx, { hotelId, kind: 'housekeeping.changed', roomIds: [task.roomId] });
    await recordAudit(tx, ctx, {
      action: 'housekeeping.inspect',
      entityType: 'Room',
      entityId: task.roomId,
      before: { status: task.status },
      after: { pass: input.pass, ...(input.pass ? {} : { reason: input.reason }) },
    });
    return { ...(await readTask(tx, task.id)), hasChanged: true };
  });
}

/** The guest asked for their room to be cleaned today (the `on_request` rule, or on top of the hotel's rule). */
export async function requestClean(ctx: AuthedContext, raw: z.input<typeof ZRequestCleanInput>): Promise<THousekeepingTask> {
  if (!ctx.actor.permissions.has('housekeeping.manage') && !ctx.actor.permissions.has('stay.manage')) throw new AppError('FORBIDDEN');
  const input = ZRequestCleanInput.parse(raw);
  const day = theDay(ctx, input.day);
  const { hotelId } = ctx.actor;
  const room = await ctx.deps.prisma.room.findFirst({ where: { ...roomScope(ctx.actor), id: input.roomId }, select: { id: true } });
  if (!room) throw new AppError('NOT_FOUND', { messageKey: 'room.errors.notFound' });
  return transaction(ctx.deps, async (tx) => {
    await lockRooms(tx, hotelId, [room.id]);
    const task = await tx.housekeepingTask.upsert({
      where: { hotelId_roomId_day_kind: { hotelId, roomId: room.id, day: asDate(day), kind: 'stayover' } },
      create: { hotelId, roomId: room.id, day: asDate(day), kind: 'stayover', requested: true },
      update: { requested: true },
      select: { id: true },
    });
    await recordEvent(tx, { hotelId, kind: 'housekeeping.changed', roomIds: [room.id] });
    await recordAudit(tx, ctx, { action: 'housekeeping.request', entityType: 'Room', entityId: room.id, after: { day } });
    return readTask(tx, task.id);
  });
}

/** An attendant's hours on a day (`HH:mm` in the hotel's zone; an end at or before the start is the next morning). */
export async function setShift(ctx: AuthedContext, raw: z.input<typeof ZShiftInput>): Promise<TAttendant> {
  requirePermission(ctx.actor, 'housekeeping.manage');
  const input = ZShiftInput.parse(raw);
  const { hotelId, timeZone } = ctx.actor;
  const member = await findAttendant(ctx, input.membershipId);
  const startsAt = zonedToInstant(`${input.day}T${input.start}`, timeZone);
  const endDay = input.end <= input.start ? addDays(input.day, 1) : input.day;
  const endsAt = zonedToInstant(`${endDay}T${input.end}`, timeZone);
  if (!startsAt || !endsAt || endsAt <= startsAt) throw new AppError('VALIDATION', { messageKey: 'housekeeping.validation.timeInvalid' });
  await transaction(ctx.deps, async (tx) => {
    await tx.attendantShift.upsert({
      where: { hotelId_membershipId_day: { hotelId, membershipId: member.id, day: asDate(input.day) } },
      create: { hotelId, membershipId: member.id, day: asDate(input.day), startsAt, endsAt },
      update: { startsAt, endsAt },
    });
    await recordEvent(tx, { hotelId, kind: 'housekeeping.changed', roomIds: [], membershipId: member.id });
    noteRotaChange(tx, ctx, { hotelId, day: input.day, membershipIds: [member.id] });
    await recordAudit(tx, ctx, { action: 'housekeeping.shift', entityType: 'Membership', entityId: member.id, after: { ...input } });
  });
  return {
    membershipId: member.id,
    name: memberName(member),
    role: 'housekeeping',
    shift: { start: input.start, end: input.end, startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString() },
  };
}

/** The hotel's stay-over rule and the hour its day's tasks are made. */
export async function setHousekeepingSettings(ctx: AuthedContext, raw: z.input<typeof ZHousekeepingSettingsInput>) {
  requirePermission(ctx.actor, 'housekeeping.manage');
  const input = ZHousekeepingSettingsInput.parse(raw);
  await transaction(ctx.deps, async (tx) => {
    await tx.hotel.update({
      where: { id: ctx.actor.hotelId },
      data: { stayoverRule: input.stayoverRule, stayoverEveryDays: input.stayoverEveryDays, housekeepingDayStart: input.dayStart },
    });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'housekeeping.changed', roomIds: [] });
    await recordAudit(tx, ctx, { action: 'housekeeping.settings', entityType: 'Hotel', entityId: ctx.actor.hotelId, after: { ...input } });
  });
  return input;
}

/**
 * A room marked clean or inspected by hand (the console's `room.setStatus`, the legacy
 * `room/setRoomStatus`: `setRoomsStatus`): today's open cleaning tasks of those rooms follow, done
 * or inspected, so the supervisor's page and the attendant's phone agree with the desk. A task
 * reported for maintenance is left as it is.
 */
export async function closeTasksByStatus(tx: Tx, hotelId: number, timeZone: string, roomIds: number[], target: 'clean' | 'inspected'): Promise<number> {
  if (roomIds.length === 0) return 0;
  const day = asDate(localDate(new Date(), timeZone));
  const now = new Date();
  const changed =
    target === 'clean'
      ? await tx.housekeepingTask.updateMany({
          where: { hotelId, day, roomId: { in: roomIds }, kind: { not: 'inspection' }, status: { in: ['todo', 'in_progress', 'failed', 'do_not_disturb'] } },
          data: { status: 'done', doneAt: now, version: { increment: 1 } },
        })
      : await tx.housekeepingTask.updateMany({
          where: { hotelId, day, roomId: { in: roomIds }, status: { in: ['todo', 'in_progress', 'failed', 'do_not_disturb', 'done'] } },
          data: { status: 'inspected', inspectedAt: now, failReason: '', version: { increment: 1 } },
        });
  if (changed.count > 0) await recordEvent(tx, { hotelId, kind: 'housekeeping.changed', roomIds });
  return changed.count;
}
