import { ROLE_PERMISSIONS, localDate, roomFloor, type THousekeepingTask, type TRole } from '@console/shared';
import type { AuthedContext } from '../../context';
import { type Prisma } from '../../generated/prisma/client';

/** What the housekeeping services share: the hotel day, the attendants' roles, a task as the pages show it, and the board's order. */

export const asDate = (d: string) => new Date(`${d}T00:00:00Z`);
export const dayOf = (d: Date) => d.toISOString().slice(0, 10);
export const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The roles whose members clean rooms (the attendants a supervisor assigns to). */
export const ATTENDANT_ROLES = (Object.keys(ROLE_PERMISSIONS) as TRole[]).filter((r) => r === 'housekeeping' || r === 'housekeeping_supervisor');

/** The hotel day a request means: the day given, or today in the hotel's zone. */
export function theDay(ctx: AuthedContext, day: string | undefined): string {
  return day ?? localDate(new Date(), ctx.actor.timeZone);
}

export const TASK_SELECT = {
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

export type TaskRow = Prisma.HousekeepingTaskGetPayload<{ select: typeof TASK_SELECT }>;

export const memberName = (m: { name: string; account: { nickname: string } }) => m.name || m.account.nickname;

export function toTask(t: TaskRow): THousekeepingTask {
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
export const ROOM_ORDER: Prisma.RoomOrderByWithRelationInput[] = [
  { groupSort: { sort: 'asc', nulls: 'last' } },
  { groupName: { sort: 'asc', nulls: 'last' } },
  { sortOrder: 'asc' },
  { name: 'asc' },
  { id: 'asc' },
];

/** Board order of the rooms, then the kind (departures first). */
export const TASK_ORDER: Prisma.HousekeepingTaskOrderByWithRelationInput[] = [
  { room: { groupSort: { sort: 'asc', nulls: 'last' } } },
  { room: { groupName: { sort: 'asc', nulls: 'last' } } },
  { room: { sortOrder: 'asc' } },
  { room: { name: 'asc' } },
  { kind: 'asc' },
];
