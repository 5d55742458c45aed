import { z } from 'zod';
import { ATTENDANT_CARD_REWRITE_REASONS, HOUSEKEEPING_TASK_KINDS, HOUSEKEEPING_TASK_STATUSES, OUT_OF_ORDER_KINDS, STAYOVER_RULES } from '../housekeeping';
import { ROLES } from '../permissions';
import { DELIVERY_STATES } from '../credentials';

/** The answers of the housekeeping router (apps/server/src/trpc/housekeeping.router.ts, docs/housekeeping.md). */

export const ZHousekeepingTaskDto = z.object({
  id: z.number(),
  roomId: z.number(),
  roomName: z.string(),
  groupId: z.number().nullable(),
  groupName: z.string().nullable(),
  floor: z.number().nullable(),
  day: z.string(),
  kind: z.enum(HOUSEKEEPING_TASK_KINDS),
  status: z.enum(HOUSEKEEPING_TASK_STATUSES),
  assigneeId: z.number().nullable(),
  assigneeName: z.string().nullable(),
  position: z.number(),
  note: z.string(),
  photo: z.string().nullable(),
  failReason: z.string(),
  requested: z.boolean(),
  startedAt: z.string().nullable(),
  /** The first opening of the room's lock by the code the rota gave the task's attendant that day (docs/housekeeping-keys.md). */
  enteredAt: z.string().nullable(),
  doneAt: z.string().nullable(),
  inspectedAt: z.string().nullable(),
  cleanStatus: z.enum(['clean', 'dirty', 'inspected']),
  version: z.number(),
});

const ZShiftDto = z.object({ start: z.string(), end: z.string(), startsAt: z.string(), endsAt: z.string() }).nullable();

export const ZAttendantDto = z.object({
  membershipId: z.number(),
  name: z.string(),
  role: z.enum(ROLES),
  shift: ZShiftDto,
});

/**
 * An attendant's card of the day (docs/housekeeping-keys.md "Cards"): the last one written for them,
 * issued, or ended by the rota (a shift cut short); `rewriteReasons` say why it must be written again.
 */
export const ZAttendantCardDto = z.object({
  membershipId: z.number(),
  issueId: z.number(),
  cardNumber: z.string(),
  state: z.enum(['issued', 'ended']),
  validFrom: z.string(),
  validUntil: z.string().nullable(),
  /** The rooms the card still opens (a room taken from the attendant is refused at its lock). */
  rooms: z.array(z.object({ id: z.number(), name: z.string() })),
  rewriteReasons: z.array(z.enum(ATTENDANT_CARD_REWRITE_REASONS)),
});

export const ZHousekeepingDayOutput = z.object({
  day: z.string(),
  tasks: z.array(ZHousekeepingTaskDto),
  attendants: z.array(ZAttendantDto),
  /** The attendants' cards of the day, for hotels whose locks take cards. */
  cards: z.array(ZAttendantCardDto),
  groups: z.array(z.object({ id: z.number(), name: z.string() })),
  /** The rooms, with the room board's maintenance axis today. */
  rooms: z.array(z.object({ id: z.number(), name: z.string(), maintenance: z.enum(['none', ...OUT_OF_ORDER_KINDS]) })),
  settings: z.object({ stayoverRule: z.enum(STAYOVER_RULES), stayoverEveryDays: z.number(), dayStart: z.string() }),
});

/** The attendant's own codes of the day, one per room of their round (docs/housekeeping-keys.md): shown to them only. */
const ZAttendantKeyDto = z.object({
  roomId: z.number(),
  code: z.string().nullable(),
  deliveryState: z.enum(DELIVERY_STATES),
  lastError: z.string().nullable(),
  validFrom: z.string(),
  validUntil: z.string().nullable(),
});
export const ZHousekeepingMyRoomsOutput = z.object({
  day: z.string(),
  tasks: z.array(ZHousekeepingTaskDto),
  shift: ZShiftDto,
  keys: z.array(ZAttendantKeyDto),
});
export const ZHousekeepingGenerateOutput = z.object({ day: z.string(), created: z.number() });
export const ZHousekeepingAssignOutput = z.object({ assigned: z.number(), skipped: z.array(z.string()) });
export const ZHousekeepingStepOutput = ZHousekeepingTaskDto.extend({ hasChanged: z.boolean() });
export const ZHousekeepingSettingsOutput = z.object({ stayoverRule: z.enum(STAYOVER_RULES), stayoverEveryDays: z.number(), dayStart: z.string() });

export const ZOutOfOrderDto = z.object({
  id: z.number(),
  roomId: z.number(),
  roomName: z.string(),
  kind: z.enum(OUT_OF_ORDER_KINDS),
  startDate: z.string(),
  endDate: z.string(),
  reason: z.string(),
});
export const ZOutOfOrderListOutput = z.array(ZOutOfOrderDto);
export const ZOutOfOrderDeleteOutput = z.object({ id: z.number() });
