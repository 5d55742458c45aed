import { z } from 'zod';
import { ZId, ZLocalDate, zOptionalText } from './primitives';
import type { TRole } from './permissions';
import { ZCardUid } from './cards';

/**
 * Housekeeping (issue 28 §2, docs/housekeeping.md, decision 047): the day's tasks of each room,
 * who cleans which room, the attendants' shifts, inspection, and rooms out of order by dates.
 */

export const HOUSEKEEPING_TASK_KINDS = ['departure', 'stayover', 'inspection'] as const;
export type THousekeepingTaskKind = (typeof HOUSEKEEPING_TASK_KINDS)[number];

export const HOUSEKEEPING_TASK_STATUSES = ['todo', 'in_progress', 'done', 'needs_maintenance', 'do_not_disturb', 'inspected', 'failed'] as const;
export type THousekeepingTaskStatus = (typeof HOUSEKEEPING_TASK_STATUSES)[number];

/** What an attendant may do to a task, and the statuses each step starts from. */
export const HOUSEKEEPING_STEPS = ['start', 'done', 'needs_maintenance', 'do_not_disturb'] as const;
export type THousekeepingStep = (typeof HOUSEKEEPING_STEPS)[number];
export const STEP_FROM: Record<THousekeepingStep, readonly THousekeepingTaskStatus[]> = {
  start: ['todo', 'failed', 'do_not_disturb', 'needs_maintenance'],
  done: ['todo', 'in_progress', 'failed'],
  needs_maintenance: ['todo', 'in_progress', 'failed', 'do_not_disturb'],
  do_not_disturb: ['todo', 'in_progress', 'failed'],
};

export const STAYOVER_RULES = ['daily', 'every_n_days', 'on_request'] as const;
export type TStayoverRule = (typeof STAYOVER_RULES)[number];

export const OUT_OF_ORDER_KINDS = ['out_of_order', 'out_of_service'] as const;

export const HOUSEKEEPING_LIMITS = {
  noteMaxLength: 500,
  reasonMaxLength: 500,
  everyDaysMax: 30,
  /** The rooms one assignment may name. */
  roomsMax: 1000,
  /** The longest out-of-order range, in days. */
  outOfOrderMaxDays: 366,
} as const;

function text(max: number, required: boolean) {
  const base = zOptionalText(max);
  return required ? base.refine((v) => v.length > 0, { error: 'housekeeping.validation.reasonRequired' }) : base;
}

/** A photo of the uploads module (`/api/uploads?purpose=housekeeping`): `/uploads/<hotel>/<uuid>.<ext>`. */
export const HOUSEKEEPING_PHOTO_REGEX = /^\/uploads\/\d{1,10}\/[0-9a-f-]{36}\.(jpg|png|webp|gif)$/;

export const ZHousekeepingDayInput = z.object({ day: ZLocalDate.optional() });
export type THousekeepingDayInput = z.input<typeof ZHousekeepingDayInput>;

export const ZAssignInput = z
  .object({
    day: ZLocalDate.optional(),
    /** The attendant (a membership of the hotel with housekeeping.work); null: unassign. */
    membershipId: ZId.nullable(),
    /** The rooms, in the order the attendant works them; or every room of a group; or of a floor. */
    roomIds: z.array(ZId, { error: 'validation.invalid' }).max(HOUSEKEEPING_LIMITS.roomsMax, { error: 'validation.invalid' }).optional(),
    groupId: ZId.optional(),
    floor: z.number({ error: 'validation.invalid' }).int({ error: 'validation.invalid' }).min(0).max(999).optional(),
  })
  .refine((v) => [v.roomIds, v.groupId, v.floor].filter((x) => x !== undefined).length === 1, { error: 'housekeeping.validation.assignWhat' });
export type TAssignInput = z.input<typeof ZAssignInput>;

export const ZTaskStepInput = z.object({
  taskId: ZId,
  step: z.enum(HOUSEKEEPING_STEPS, { error: 'validation.invalid' }),
  note: text(HOUSEKEEPING_LIMITS.noteMaxLength, false).optional(),
  photo: z.string({ error: 'validation.invalid' }).max(80).regex(HOUSEKEEPING_PHOTO_REGEX, { error: 'validation.invalid' }).nullable().optional(),
});
export type TTaskStepInput = z.input<typeof ZTaskStepInput>;

export const ZInspectInput = z
  .object({
    taskId: ZId,
    pass: z.boolean({ error: 'validation.invalid' }),
    reason: text(HOUSEKEEPING_LIMITS.reasonMaxLength, false).optional(),
  })
  .refine((v) => v.pass || (v.reason ?? '').length > 0, { error: 'housekeeping.validation.reasonRequired', path: ['reason'] });
export type TInspectInput = z.input<typeof ZInspectInput>;

export const ZRequestCleanInput = z.object({ roomId: ZId, day: ZLocalDate.optional() });

export const ZShiftInput = z.object({
  membershipId: ZId,
  day: ZLocalDate,
  /** `HH:mm` in the hotel's zone; an end at or before the start ends the next morning. */
  start: z.string({ error: 'validation.invalid' }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'housekeeping.validation.timeInvalid' }),
  end: z.string({ error: 'validation.invalid' }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'housekeeping.validation.timeInvalid' }),
});
export type TShiftInput = z.input<typeof ZShiftInput>;

export const ZOutOfOrderInput = z
  .object({
    roomId: ZId,
    kind: z.enum(OUT_OF_ORDER_KINDS, { error: 'validation.invalid' }),
    startDate: ZLocalDate,
    endDate: ZLocalDate,
    reason: text(HOUSEKEEPING_LIMITS.reasonMaxLength, true),
  })
  .refine((v) => v.endDate >= v.startDate, { error: 'housekeeping.validation.datesOrder', path: ['endDate'] })
  .refine((v) => Date.parse(v.endDate) - Date.parse(v.startDate) <= HOUSEKEEPING_LIMITS.outOfOrderMaxDays * 86_400_000, {
    error: 'housekeeping.validation.rangeTooLong',
    path: ['endDate'],
  });
export type TOutOfOrderInput = z.input<typeof ZOutOfOrderInput>;

export const ZOutOfOrderListInput = z.object({ roomId: ZId.optional(), from: ZLocalDate.optional() });

export const ZHousekeepingSettingsInput = z.object({
  stayoverRule: z.enum(STAYOVER_RULES, { error: 'validation.invalid' }),
  /** 1 to 30 (a cleaning every N days counted from the check-in day), refused in words otherwise. */
  stayoverEveryDays: z
    .number({ error: 'housekeeping.validation.everyDays' })
    .int({ error: 'housekeeping.validation.everyDays' })
    .min(1, { error: 'housekeeping.validation.everyDays' })
    .max(HOUSEKEEPING_LIMITS.everyDaysMax, { error: 'housekeeping.validation.everyDays' }),
  dayStart: z.string({ error: 'validation.invalid' }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'housekeeping.validation.timeInvalid' }),
});

export interface THousekeepingTask {
  id: number;
  roomId: number;
  roomName: string;
  groupId: number | null;
  groupName: string | null;
  floor: number | null;
  day: string;
  kind: THousekeepingTaskKind;
  status: THousekeepingTaskStatus;
  assigneeId: number | null;
  assigneeName: string | null;
  position: number;
  note: string;
  photo: string | null;
  failReason: string;
  requested: boolean;
  startedAt: string | null;
  /** When the attendant first opened the room's lock with the code the rota gave them (docs/housekeeping-keys.md). */
  enteredAt: string | null;
  doneAt: string | null;
  inspectedAt: string | null;
  /** The room's cleanliness now. */
  cleanStatus: 'clean' | 'dirty' | 'inspected';
  version: number;
}

export interface TAttendant {
  membershipId: number;
  name: string;
  role: TRole;
  shift: { start: string; end: string; startsAt: string; endsAt: string } | null;
}

/** An attendant's card of the day (docs/housekeeping-keys.md "Cards"), as the supervisor's page shows it. */
export interface TAttendantCard {
  membershipId: number;
  issueId: number;
  cardNumber: string;
  state: 'issued' | 'ended';
  validFrom: string;
  validUntil: string | null;
  rooms: { id: number; name: string }[];
  rewriteReasons: TAttendantCardRewriteReason[];
}

export interface THousekeepingDay {
  day: string;
  tasks: THousekeepingTask[];
  attendants: TAttendant[];
  cards: TAttendantCard[];
  groups: { id: number; name: string }[];
  /** The rooms, with the room board's maintenance axis today (`none` when in service). */
  rooms: { id: number; name: string; maintenance: 'none' | (typeof OUT_OF_ORDER_KINDS)[number] }[];
  settings: { stayoverRule: TStayoverRule; stayoverEveryDays: number; dayStart: string };
}

export interface TOutOfOrderRange {
  id: number;
  roomId: number;
  roomName: string;
  kind: (typeof OUT_OF_ORDER_KINDS)[number];
  startDate: string;
  endDate: string;
  reason: string;
}

/** A room's floor from its name: the digits before the last two of a name of 3 to 5 digits ("1204" -> 12); null otherwise. */
export function roomFloor(name: string): number | null {
  const m = /^\s*(\d{1,3})\d{2}\s*$/.exec(name);
  return m ? Number(m[1]) : null;
}

/**
 * An attendant's card of a hotel day (docs/housekeeping-keys.md "Cards"): written at the desk for
 * the card on the reader; its rooms and hours are the rota's, decided by the server.
 */
export const ZAttendantCardInput = z.object({ membershipId: ZId, day: ZLocalDate, uid: ZCardUid });
export type TAttendantCardInput = z.input<typeof ZAttendantCardInput>;

/**
 * Why an attendant's card must be written again: a room was taken from them (the card is refused
 * at that room's lock), rooms were added (a card cannot learn rooms from afar), or the shift moved
 * (a card shorter than the shift; a card longer than the shift is refused at all its locks).
 */
export const ATTENDANT_CARD_REWRITE_REASONS = ['rooms_removed', 'rooms_added', 'shift_changed'] as const;
export type TAttendantCardRewriteReason = (typeof ATTENDANT_CARD_REWRITE_REASONS)[number];
