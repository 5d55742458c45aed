import { z } from 'zod';
import { LIMITS } from './limits';
import { addDays, localDate, zonedToInstant } from './time';
import { WHEN_FIELDS_VALID, whenValid, ZId, ZInstant, ZLocalDate, ZPageInput, ZSearch, zInt, zOptionalCode, zOptionalText } from './primitives';
import { ZMinorAmount, ZMoneyMethod } from './prices';

/**
 * Stays, guests and reservations (spec §5, docs/room-status.md "Reservations"), shared by the web
 * console and the server: a stay's states, a guest's fields, check-in, renewal, arrival, room change,
 * rescheduling, a reservation taken at the desk, when it becomes a no-show, and the lists.
 */

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
  nationality: zOptionalText(GUEST_MAX.nationality),
  birthDate: ZLocalDate.refine((d) => d <= new Date().toISOString().slice(0, 10), { error: 'validation.birthDateInFuture', ...WHEN_FIELDS_VALID })
    .nullish()
    .transform((v) => v ?? null),
  idNumber: zOptionalCode(GUEST_MAX.idNumber),
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
    remark: zOptionalText(LIMITS.remarkMaxLength),
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
    remark: zOptionalText(LIMITS.remarkMaxLength),
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
