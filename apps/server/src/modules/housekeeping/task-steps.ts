import { STEP_FROM, ZInspectInput, ZRequestCleanInput, ZTaskStepInput, localDate, type THousekeepingTask, type THousekeepingTaskStatus } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { recordEvent } from '../../db/events';
import { lockRooms, transaction, type Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { roomScope } from '../base/room-access';
import { noteRotaChange } from './attendant-access';
import { withEnteredAt } from './task-entries';
import { asDate, dayOf, theDay, TASK_SELECT, toTask } from './task-shape';

/** A task worked on (started, done, reported), inspected, asked for by a guest; and tasks closed by a room's status set elsewhere. */

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
