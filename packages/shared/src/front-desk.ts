import { z } from 'zod';
import { LIMITS } from './limits';
import { addDays, localDate, zonedToInstant } from './time';
import { MONEY_METHODS } from './money';
import {
  WHEN_FIELDS_VALID,
  oneLine,
  whenValid,
  ZId,
  ZInstant,
  ZLocalDate,
  ZPageInput,
  ZSearch,
  zInt,
  zOptionalCode,
  zOptionalText,
  zPageSize,
} from './primitives';
import { blankToUndefined } from './validation';

/**
 * Rooms, stays, guests and prices: the rules of spec §3-§5 shared by the web console and the
 * server. Money fields are integers in minor units; the forms convert (money.ts).
 */

// ---------------------------------------------------------------------------------------------
// Room status (ARCHITECTURE.md: derived from occupancy, cleanliness and maintenance)

/** The five statuses of spec §4, in the order of the status filter. */

/** A way money changes hands at the desk (MONEY_METHODS): a deposit at check-in, a recharge, a refund's chosen way. */
export const ZMoneyMethod = z.enum(MONEY_METHODS, { error: 'validation.paymentMethodInvalid' });
export const ROOM_STATUSES = ['vacant', 'reserved', 'checked_in', 'dirty', 'maintain'] as const;
export type TRoomStatus = (typeof ROOM_STATUSES)[number];
/** Numeric codes of the legacy protocol. */
export const ROOM_STATUS_CODES: Record<TRoomStatus, number> = { vacant: 1, reserved: 2, checked_in: 3, dirty: 4, maintain: 5 };

export const CLEAN_STATUSES = ['clean', 'dirty', 'inspected'] as const;
export type TCleanStatus = (typeof CLEAN_STATUSES)[number];
export const MAINTENANCE_STATUSES = ['none', 'out_of_order', 'out_of_service'] as const;
export type TMaintenanceStatus = (typeof MAINTENANCE_STATUSES)[number];

/** Spec §4: a Dirty room (or one under maintenance or taken) cannot be self checked-in. */
export function canSelfCheckIn(status: TRoomStatus): boolean {
  return status === 'vacant';
}

/** A status change asked for at the front desk: housekeeping and maintenance, never occupancy. */
export const ROOM_STATUS_TARGETS = ['clean', 'inspected', 'dirty', 'out_of_order', 'out_of_service', 'back_in_service'] as const;
export type TRoomStatusTarget = (typeof ROOM_STATUS_TARGETS)[number];

// Sort options of spec §4: A-Z, Z-A, default, order, reverse order.
export const ROOM_SORTS = ['default', 'name_asc', 'name_desc', 'order', 'order_desc'] as const;
export type TRoomSort = (typeof ROOM_SORTS)[number];

export const ROOM_PAGE_SIZE_DEFAULT = 50;

export const ZRoomListInput = ZPageInput.extend({
  pageSize: zPageSize(ROOM_PAGE_SIZE_DEFAULT),
  status: z.enum(ROOM_STATUSES, { error: 'validation.stateInvalid' }).optional(),
  search: ZSearch.optional(),
  groupId: ZId.optional(),
  sort: z.enum(ROOM_SORTS, { error: 'validation.sortInvalid' }).default('default'),
});
export type TRoomListInput = z.input<typeof ZRoomListInput>;

// ---------------------------------------------------------------------------------------------
// Rooms and groups

const optionalText = zOptionalText;
const optionalCode = zOptionalCode;
const ROOM_MAX = LIMITS.roomFieldMax;

export const MAC_ID_REGEX = /^([0-9A-Fa-f]{2}[:-]?){5}[0-9A-Fa-f]{2}$/;

export const ZRoomInput = z.object({
  /** One line: the name is written into the room's exported calendar, lock records and messages. */
  name: oneLine(
    z
      .string({ error: 'validation.roomNameRequired' })
      .trim()
      .min(1, { error: 'validation.roomNameRequired' })
      .max(ROOM_MAX.name, { error: 'validation.textTooLong' }),
  ),
  groupId: ZId.nullish().transform((v) => v ?? null),
  picture: z
    .string({ error: 'validation.pictureInvalid' })
    .trim()
    .max(ROOM_MAX.picture, { error: 'validation.pictureInvalid' })
    .refine((v) => v === '' || v.startsWith('/uploads/') || /^https:\/\//.test(v), { error: 'validation.pictureInvalid', ...WHEN_FIELDS_VALID })
    .nullish()
    .transform((v) => (v ? v : null)),
  remarkName: optionalText(ROOM_MAX.remarkName),
  description: optionalText(ROOM_MAX.description),
  lockNotice: optionalText(ROOM_MAX.lockNotice),
  notice: optionalText(ROOM_MAX.notice),
  lockId: optionalCode(ROOM_MAX.lockId),
  bluetoothName: optionalCode(ROOM_MAX.bluetoothName),
  macId: optionalCode(ROOM_MAX.macId).refine((v) => v === null || MAC_ID_REGEX.test(v), { error: 'validation.macIdInvalid', ...WHEN_FIELDS_VALID }),
  sortOrder: z.preprocess(blankToUndefined, zInt({ min: -LIMITS.sortOrderMax, max: LIMITS.sortOrderMax }, 'validation.sortOrderInvalid').default(0)),
});
export type TRoomInput = z.input<typeof ZRoomInput>;
export const ZRoomUpdateInput = ZRoomInput.extend({ id: ZId });
export const ZRoomIdInput = z.object({ roomId: ZId });

/** The lock of a room as the front desk records it; the battery level is reported by the lock, never typed. */
export const ZLockDataInput = z.object({
  roomId: ZId,
  lockId: ZRoomInput.shape.lockId,
  bluetoothName: ZRoomInput.shape.bluetoothName,
  macId: ZRoomInput.shape.macId,
});

export const ZRoomStatusInput = z.object({ roomId: ZId, target: z.enum(ROOM_STATUS_TARGETS, { error: 'validation.stateInvalid' }) });
/** The same status change for several rooms at once (housekeeping marks a floor clean). */
export const ZRoomsStatusInput = z.object({
  roomIds: z
    .array(ZId, { error: 'validation.roomsInvalid' })
    .min(1, { error: 'validation.roomsInvalid' })
    .max(LIMITS.pageSizeMax, { error: 'validation.roomsInvalid' }),
  target: ZRoomStatusInput.shape.target,
});
/** A lock's battery level as the lock reports it (over Bluetooth through a legacy app, or its cloud). */
export const ZLockPowerReport = z.object({ roomId: ZId, lockPower: zInt({ min: 0, max: 100 }, 'validation.lockPowerInvalid') });

export const ZRoomGroupInput = z.object({
  name: oneLine(
    z
      .string({ error: 'validation.groupNameRequired' })
      .trim()
      .min(1, { error: 'validation.groupNameRequired' })
      .max(LIMITS.groupNameMaxLength, { error: 'validation.textTooLong' }),
  ),
  sort: z.preprocess(blankToUndefined, zInt({ min: 0, max: LIMITS.sortOrderMax }, 'validation.groupSortRequired')),
});
export const ZRoomGroupUpdateInput = ZRoomGroupInput.extend({ id: ZId });
/** Deleting a group that still has rooms needs to know where they go (another group, or none). */
export const ZRoomGroupDeleteInput = z.object({ id: ZId, moveRoomsTo: z.union([ZId, z.literal('none')]).optional() });

// ---------------------------------------------------------------------------------------------
// Prices (integers in minor units; the service checks "not less than 1" in the hotel's currency)

/** An amount in minor units: an integer from 0 to LIMITS.amountMaxMinor. */
export const ZMinorAmount = zInt({ min: 0, max: LIMITS.amountMaxMinor }, 'validation.priceInvalid', 'validation.priceRequired');

export const ZDatePrice = z.object({ date: ZLocalDate, price: ZMinorAmount });
const ZRates = z.object({
  depositAmount: ZMinorAmount.default(0),
  usualPrice: ZMinorAmount,
  weekendPrice: ZMinorAmount.nullish().transform((v) => v ?? null),
  renewalPrice: ZMinorAmount.nullish().transform((v) => v ?? null),
  datePrices: z
    .array(ZDatePrice)
    .max(LIMITS.datePricesMax, { error: 'validation.tooManyDates' })
    .default([])
    .refine((list) => new Set(list.map((p) => p.date)).size === list.length, { error: 'validation.duplicateDate', ...WHEN_FIELDS_VALID }),
});
export const ZRoomPriceInput = ZRates.extend({ roomId: ZId });
export type TRoomPriceInput = z.input<typeof ZRoomPriceInput>;
export const ZPriceTemplateInput = ZRates.extend({
  name: z
    .string({ error: 'validation.templateNameRequired' })
    .trim()
    .min(1, { error: 'validation.templateNameRequired' })
    .max(LIMITS.templateNameMaxLength, { error: 'validation.textTooLong' }),
});
export type TPriceTemplateInput = z.input<typeof ZPriceTemplateInput>;
/** Creates a template, or replaces the one of `id`. */
export const ZSavePriceTemplateInput = ZPriceTemplateInput.extend({ id: ZId.optional() });
export type TSavePriceTemplateInput = z.input<typeof ZSavePriceTemplateInput>;
export const ZPriceTemplateIdInput = z.object({ id: ZId });
export const ZApplyPriceTemplateInput = z
  .object({
    templateId: ZId,
    roomIds: z.array(ZId, { error: 'validation.roomsInvalid' }).max(10_000, { error: 'validation.roomsInvalid' }).optional(),
    groupId: ZId.optional(),
  })
  .refine((v) => (v.roomIds?.length ?? 0) > 0 || v.groupId !== undefined, {
    error: 'validation.templateTargetRequired',
    path: ['roomIds'],
    ...WHEN_FIELDS_VALID,
  });

// ---------------------------------------------------------------------------------------------
// Stays and guests

export const STAY_STATES = ['reserved', 'in_house', 'expired', 'moved', 'checked_out', 'ended', 'no_show'] as const;
export type TStayState = (typeof STAY_STATES)[number];
/** States in which a stay holds its room (the exclusion constraint covers them). */
export const ACTIVE_STAY_STATES = ['reserved', 'in_house', 'expired'] as const satisfies readonly TStayState[];
export const STAY_LENGTH_UNITS = ['hour', 'day', 'month', 'year'] as const;
export type TStayLengthUnit = (typeof STAY_LENGTH_UNITS)[number];
export const GENDERS = ['male', 'female', 'unknown'] as const;

/** Warnings a check-in asks the user to confirm before it goes ahead. */
export const CHECK_IN_WARNINGS = ['guest_in_other_room', 'room_dirty'] as const;
export type TCheckInWarning = (typeof CHECK_IN_WARNINGS)[number];

const GUEST_MAX = LIMITS.guestFieldMax;

export const ZGuestInput = z.object({
  name: z
    .string({ error: 'validation.guestNameRequired' })
    .trim()
    .min(1, { error: 'validation.guestNameRequired' })
    .max(GUEST_MAX.name, { error: 'validation.textTooLong' }),
  gender: z.enum(GENDERS, { error: 'validation.genderInvalid' }).default('unknown'),
  nationality: optionalText(GUEST_MAX.nationality),
  birthDate: ZLocalDate.refine((d) => d <= new Date().toISOString().slice(0, 10), { error: 'validation.birthDateInFuture', ...WHEN_FIELDS_VALID })
    .nullish()
    .transform((v) => v ?? null),
  idNumber: optionalCode(GUEST_MAX.idNumber),
  mobile: z
    .string({ error: 'validation.phoneInvalid' })
    .trim()
    .max(GUEST_MAX.mobile, { error: 'validation.phoneInvalid' })
    .refine((v) => v === '' || /^\+?[0-9 -]{5,20}$/.test(v), { error: 'validation.phoneInvalid', ...WHEN_FIELDS_VALID })
    .nullish()
    .transform((v) => (v ? v.replace(/[ -]/g, '') : null)),
  email: z
    .string({ error: 'validation.emailFormat' })
    .trim()
    .max(GUEST_MAX.email, { error: 'validation.emailFormat' })
    .refine((v) => v === '' || z.email().safeParse(v).success, { error: 'validation.emailFormat', ...WHEN_FIELDS_VALID })
    .nullish()
    .transform((v) => (v ? v.toLowerCase() : null)),
});
export type TGuestInput = z.input<typeof ZGuestInput>;

const stayPeriod = { checkInAt: ZInstant, expectedCheckOutAt: ZInstant };
/** The shortest stay (spec §5): an hour, an hour exactly included. The one rule of every stay form and input. */
export function isLongEnoughStay(checkInAt: Date, expectedCheckOutAt: Date): boolean {
  return expectedCheckOutAt.getTime() - checkInAt.getTime() >= LIMITS.minStayHours * 3_600_000;
}
const minStayRule = <T extends { checkInAt: Date; expectedCheckOutAt: Date }>(v: T) => isLongEnoughStay(v.checkInAt, v.expectedCheckOutAt);

export const PRICE_MODES = ['computed', 'fixed'] as const;

/** The key of one attempted write, the same on every retry of it (a double click, a timeout). */
export const ZIdempotencyKey = z
  .string({ error: 'validation.requestIdRequired' })
  .min(8, { error: 'validation.requestIdRequired' })
  .max(64, { error: 'validation.requestIdRequired' })
  .regex(/^[A-Za-z0-9_-]+$/, { error: 'validation.requestIdRequired' });

/** A deposit is recorded only with the way it was paid: the clerk says it, nothing is assumed (issue 26). */
const depositMethodGiven = (v: { depositAmount: number; depositMethod?: unknown }) => v.depositAmount === 0 || v.depositMethod !== undefined;

export const ZCheckInInput = z
  .object({
    roomId: ZId,
    ...stayPeriod,
    lengthUnit: z.enum(STAY_LENGTH_UNITS, { error: 'validation.unitInvalid' }).default('day'),
    breakfast: z.boolean({ error: 'validation.flagInvalid' }).default(false),
    guests: z
      .array(ZGuestInput, { error: 'validation.guestRequired' })
      .min(1, { error: 'validation.guestRequired' })
      .max(LIMITS.guestsPerStayMax, { error: 'validation.tooManyGuests' }),
    disableOldCards: z.boolean({ error: 'validation.flagInvalid' }).default(false),
    idCardUnlock: z.boolean({ error: 'validation.flagInvalid' }).default(false),
    priceMode: z.enum(PRICE_MODES, { error: 'validation.priceModeInvalid' }).default('computed'),
    fixedPrice: ZMinorAmount.optional(),
    /** A deposit taken at check-in (0: none). Nothing is assumed: the room's deposit is only a suggestion. */
    depositAmount: ZMinorAmount.default(0),
    /** How the deposit was received, required with one (no default way of paying): it is recorded on the stay's bill at check-in. */
    depositMethod: ZMoneyMethod.optional(),
    remark: optionalText(LIMITS.remarkMaxLength),
    /** Sent with every attempt of one check-in: a retry or a double click makes no second stay. */
    idempotencyKey: ZIdempotencyKey,
    acknowledge: z
      .array(z.enum(CHECK_IN_WARNINGS, { error: 'validation.invalid' }), { error: 'validation.invalid' })
      .max(CHECK_IN_WARNINGS.length, { error: 'validation.invalid' })
      .default([]),
  })
  .refine(minStayRule, { error: 'validation.checkOutAfterCheckIn', path: ['expectedCheckOutAt'], ...whenValid('checkInAt', 'expectedCheckOutAt') })
  .refine(depositMethodGiven, { error: 'validation.paymentMethodInvalid', path: ['depositMethod'], ...whenValid('depositAmount', 'depositMethod') })
  .refine((v) => v.priceMode !== 'fixed' || v.fixedPrice !== undefined, {
    error: 'validation.priceRequired',
    path: ['fixedPrice'],
    ...whenValid('priceMode', 'fixedPrice'),
  });
export type TCheckInInput = z.input<typeof ZCheckInInput>;

export const ZQuoteInput = z
  .object({ roomId: ZId, ...stayPeriod, kind: z.enum(['stay', 'renewal'], { error: 'validation.invalid' }).default('stay') })
  .refine(minStayRule, { error: 'validation.checkOutAfterCheckIn', path: ['expectedCheckOutAt'], ...whenValid('checkInAt', 'expectedCheckOutAt') });

export const ZRenewInput = z
  .object({
    stayId: ZId,
    expectedCheckOutAt: ZInstant,
    priceMode: z.enum(PRICE_MODES, { error: 'validation.priceModeInvalid' }).default('computed'),
    fixedPrice: ZMinorAmount.optional(),
  })
  .refine((v) => v.priceMode !== 'fixed' || v.fixedPrice !== undefined, {
    error: 'validation.priceRequired',
    path: ['fixedPrice'],
    ...whenValid('priceMode', 'fixedPrice'),
  });
export type TRenewInput = z.input<typeof ZRenewInput>;

/** The guest of a reservation arrives: optional check-in time (default now) and new expected check-out. */
export const ZArriveInput = z
  .object({
    stayId: ZId,
    checkInAt: ZInstant.optional(),
    expectedCheckOutAt: ZInstant.optional(),
    priceMode: z.enum(PRICE_MODES, { error: 'validation.priceModeInvalid' }).default('computed'),
    fixedPrice: ZMinorAmount.optional(),
    acknowledge: z
      .array(z.enum(CHECK_IN_WARNINGS, { error: 'validation.invalid' }), { error: 'validation.invalid' })
      .max(CHECK_IN_WARNINGS.length, { error: 'validation.invalid' })
      .default([]),
  })
  .refine((v) => v.priceMode !== 'fixed' || v.fixedPrice !== undefined, {
    error: 'validation.priceRequired',
    path: ['fixedPrice'],
    ...whenValid('priceMode', 'fixedPrice'),
  });
export type TArriveInput = z.input<typeof ZArriveInput>;

/**
 * A room change to a dearer room asks what becomes of the difference (issue 36), the clerk's answer,
 * never assumed: `charge` it (the stay's price rises by the two rooms' difference over the nights
 * left) or give a `complimentary` upgrade (the booked price kept; audited). A cheaper or equal room
 * asks nothing.
 */
export const UPGRADE_CHOICES = ['charge', 'complimentary'] as const;
export type TUpgradeChoice = (typeof UPGRADE_CHOICES)[number];
export const ZChangeRoomInput = z.object({
  stayId: ZId,
  targetRoomId: ZId,
  upgrade: z.enum(UPGRADE_CHOICES, { error: 'validation.upgradeChoiceRequired' }).optional(),
});

/**
 * New dates and/or room of a stay (modules/stays/reschedule.ts, docs/timeline.md): a reservation
 * that has not begun may move to other dates and another room; a stay that has begun keeps its
 * arrival and room and only its expected check-out moves (later: the renewal; earlier: the stay is
 * shortened and its bill corrected). Left out, the arrival and the room stay as they are.
 */
export const RESCHEDULE_PRICING = ['keep', 'requote'] as const;
export type TReschedulePricing = (typeof RESCHEDULE_PRICING)[number];
export const ZRescheduleInput = z
  .object({
    stayId: ZId,
    checkInAt: ZInstant.optional(),
    expectedCheckOutAt: ZInstant,
    roomId: ZId.optional(),
    /**
     * A reservation moved: `keep` its booked rate (the same nights cost the same; nights added at
     * today's rates) or `requote` the new nights in the new room at today's rates: the clerk's choice.
     */
    pricing: z.enum(RESCHEDULE_PRICING, { error: 'validation.pricingInvalid' }).default('keep'),
  })
  .refine((v) => v.checkInAt === undefined || isLongEnoughStay(v.checkInAt, v.expectedCheckOutAt), {
    error: 'validation.checkOutAfterCheckIn',
    path: ['expectedCheckOutAt'],
    ...whenValid('checkInAt', 'expectedCheckOutAt'),
  });
export type TRescheduleInput = z.input<typeof ZRescheduleInput>;

// ---------------------------------------------------------------------------------------------
// Reservations at the desk (docs/room-status.md "Reservations")

/**
 * A reservation taken at the desk: the room (or any free room of a group, chosen by the server
 * for those dates), arrival and departure, the guests, the price (computed or set), the deposit
 * received with how it was paid, a note. It holds the room from its arrival; the desk records the
 * guest's arrival (`ZArriveInput`), else it becomes a no-show at the hotel's no-show time.
 */
export const ZReservationInput = z
  .object({
    roomId: ZId.optional(),
    /** Any free room of this group for the dates: the server assigns one, atomically. */
    groupId: ZId.optional(),
    ...stayPeriod,
    lengthUnit: z.enum(STAY_LENGTH_UNITS, { error: 'validation.unitInvalid' }).default('day'),
    breakfast: z.boolean({ error: 'validation.flagInvalid' }).default(false),
    guests: z
      .array(ZGuestInput, { error: 'validation.guestRequired' })
      .min(1, { error: 'validation.guestRequired' })
      .max(LIMITS.guestsPerStayMax, { error: 'validation.tooManyGuests' }),
    priceMode: z.enum(PRICE_MODES, { error: 'validation.priceModeInvalid' }).default('computed'),
    fixedPrice: ZMinorAmount.optional(),
    /** A deposit taken with the reservation (0: none: the reservation holds none). */
    depositAmount: ZMinorAmount.default(0),
    /** How the deposit was received, required with one (no default way of paying): it is recorded on the stay's bill when the reservation is taken. */
    depositMethod: ZMoneyMethod.optional(),
    remark: optionalText(LIMITS.remarkMaxLength),
    /** Sent with every attempt of one reservation: a retry or a double click makes no second one. */
    idempotencyKey: ZIdempotencyKey,
  })
  .refine((v) => (v.roomId === undefined) !== (v.groupId === undefined), {
    error: 'reservations.validation.roomOrGroup',
    path: ['roomId'],
    ...whenValid('roomId', 'groupId'),
  })
  .refine(minStayRule, { error: 'validation.checkOutAfterCheckIn', path: ['expectedCheckOutAt'], ...whenValid('checkInAt', 'expectedCheckOutAt') })
  .refine(depositMethodGiven, { error: 'validation.paymentMethodInvalid', path: ['depositMethod'], ...whenValid('depositAmount', 'depositMethod') })
  .refine((v) => v.priceMode !== 'fixed' || v.fixedPrice !== undefined, {
    error: 'validation.priceRequired',
    path: ['fixedPrice'],
    ...whenValid('priceMode', 'fixedPrice'),
  });
export type TReservationInput = z.input<typeof ZReservationInput>;

/** Why a reservation was cancelled: stored as a code, translated on display (`reservations.cancelReasons.*`). */
export const CANCEL_REASONS = ['guest_request', 'duplicate', 'entered_by_mistake', 'no_deposit', 'hotel_unavailable', 'other'] as const;
export type TCancelReason = (typeof CANCEL_REASONS)[number];

/** The arrivals of a hotel day (default today): reservations expected, and those that became no-shows. */
export const ZArrivalsInput = z.object({ date: ZLocalDate.optional() }).default({});

/**
 * When a reservation whose guest has not arrived becomes a no-show: the first time `noShowTime`
 * (`HH:mm` in the hotel's zone) comes after its check-in time (so `00:00`, the default, is the
 * midnight that ends the arrival day, and `02:00` the night audit after it), and at the latest its
 * expected check-out.
 */
export function noShowDeadline(checkInAt: Date, expectedCheckOutAt: Date, noShowTime: string, timeZone: string): Date {
  const day = localDate(checkInAt, timeZone);
  let deadline = zonedToInstant(`${day}T${noShowTime}`, timeZone)!;
  if (deadline.getTime() <= checkInAt.getTime()) deadline = zonedToInstant(`${addDays(day, 1)}T${noShowTime}`, timeZone)!;
  return deadline.getTime() < expectedCheckOutAt.getTime() ? deadline : expectedCheckOutAt;
}

/** The end of the hotel's calendar day that `instant` falls in (the next midnight in `timeZone`). */
export function hotelDayEnd(instant: Date, timeZone: string): Date {
  return zonedToInstant(`${addDays(localDate(instant, timeZone), 1)}T00:00`, timeZone)!;
}

/** The start of the hotel's calendar day that `instant` falls in. */
export function hotelDayStart(instant: Date, timeZone: string): Date {
  return zonedToInstant(`${localDate(instant, timeZone)}T00:00`, timeZone)!;
}
export const ZStayIdInput = z.object({ stayId: ZId });
export const ZGuestIdInput = z.object({ guestId: ZId });
export const ZGuestListInput = ZPageInput.extend({ search: ZSearch.optional(), currentOnly: z.boolean({ error: 'validation.flagInvalid' }).default(false) });
export type TGuestListInput = z.input<typeof ZGuestListInput>;
export const ZAddGuestInput = z.object({ stayId: ZId, guest: ZGuestInput });
export const ZRemoveGuestInput = z.object({ stayId: ZId, guestId: ZId });

/** Stay list filters (spec: state, dates, room, guest). `current` = reserved, in house or expired. */
export const STAY_FILTERS = ['all', 'current', ...STAY_STATES] as const;
export const ZStayListInput = ZPageInput.extend({
  state: z.enum(STAY_FILTERS, { error: 'validation.stateInvalid' }).default('all'),
  from: ZLocalDate.optional(),
  to: ZLocalDate.optional(),
  roomId: ZId.optional(),
  guest: ZSearch.optional(),
}).refine((v) => !v.from || !v.to || v.from <= v.to, { error: 'validation.endAfterStart', path: ['to'], ...WHEN_FIELDS_VALID });
export type TStayListInput = z.input<typeof ZStayListInput>;

export const ZBreakfastListInput = z.object({ date: ZLocalDate });
export const BREAKFAST_WARNINGS = ['more_than_guests'] as const;
export const ZBreakfastServeInput = z.object({
  stayId: ZId,
  date: ZLocalDate,
  guests: zInt({ min: 1, max: LIMITS.breakfastGuestsMax }, 'validation.guestsCountInvalid').optional(),
  acknowledge: z
    .array(z.enum(BREAKFAST_WARNINGS, { error: 'validation.invalid' }), { error: 'validation.invalid' })
    .max(1, { error: 'validation.invalid' })
    .default([]),
});

export const QUICK_RANGES = ['today', 'yesterday', 'week'] as const;

/** What an unlock record says happened (stored as codes, translated by the console). */
export const UNLOCK_EVENTS = ['opened', 'open_refused', 'locked', 'tamper_alarm', 'keypad_locked_out'] as const;
export type TUnlockEvent = (typeof UNLOCK_EVENTS)[number];
/** Where an unlock record came from. */
export const UNLOCK_SOURCES = ['lock', 'gateway', 'cloud', 'console', 'app'] as const;
export type TUnlockSource = (typeof UNLOCK_SOURCES)[number];
export const UNLOCK_STYLES = ['password', 'card', 'face', 'fingerprint', 'bluetooth', 'remote', 'key', 'other'] as const;
export const ZUnlockRecordListInput = ZPageInput.extend({
  roomId: ZId,
  from: ZLocalDate.optional(),
  to: ZLocalDate.optional(),
}).refine((v) => !v.from || !v.to || v.from <= v.to, { error: 'validation.endAfterStart', path: ['to'], ...WHEN_FIELDS_VALID });
