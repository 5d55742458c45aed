import { z } from 'zod';
import { LIMITS, PRICE_MODES, STAY_LENGTH_UNITS, ZReservationInput, addDays, daysBetween, localDate } from '@console/shared';
import { fromInputValue } from '@/lib/hotel-time';
import type { RouterInputs } from '@/lib/trpc-types';
import {
  ZDepositMethodField,
  ZGuestForm,
  checkDateTime,
  checkDeposit,
  checkMoney,
  depositInput,
  emptyGuest,
  isLongEnough,
  take,
  toGuestInput,
} from './form-rules';

export type ReservationInput = RouterInputs['stay']['reserve'];

/** Where the reservation goes: one room, or any room of a group that the server finds free for the dates. */
export const RESERVATION_TARGETS = ['room', 'group'] as const;

/**
 * The reservation form (issue 17 §4) as its inputs hold it: a room or a group, arrival, nights and
 * departure (the hotel's wall clock), the main guest (the check-in form's guest fields), the price
 * (computed or set), the deposit and how it was paid, a note. Its rules are the shared ones of
 * ZReservationInput and the guest's, plus what the desk can check before asking: an arrival not
 * before today and a departure not in the past.
 */
export function reservationFormSchema(timeZone: string, currency: string) {
  return z
    .object({
      target: z.enum(RESERVATION_TARGETS),
      room: z.object({ id: z.number(), name: z.string() }).nullable(),
      groupId: z.number().nullable(),
      checkInAt: z.string(),
      nights: z.string(),
      lengthUnit: z.enum(STAY_LENGTH_UNITS),
      expectedCheckOutAt: z.string(),
      guests: z.array(ZGuestForm).min(1).max(LIMITS.guestsPerStayMax),
      priceMode: z.enum(PRICE_MODES),
      fixedPrice: z.string(),
      depositAmount: z.string(),
      depositMethod: ZDepositMethodField,
      remark: ZReservationInput.shape.remark,
    })
    .superRefine((v, ctx) => {
      if (v.target === 'room' && !v.room) ctx.addIssue({ code: 'custom', message: 'reservations.validation.roomOrGroup', path: ['room'] });
      if (v.target === 'group' && v.groupId === null) ctx.addIssue({ code: 'custom', message: 'reservations.validation.roomOrGroup', path: ['groupId'] });
      const checkIn = take(ctx, ['checkInAt'], checkDateTime(v.checkInAt, timeZone));
      const checkOut = take(ctx, ['expectedCheckOutAt'], checkDateTime(v.expectedCheckOutAt, timeZone));
      if (checkIn && localDate(new Date(checkIn), timeZone) < localDate(new Date(), timeZone)) {
        ctx.addIssue({ code: 'custom', message: 'reservations.validation.arrivalInPast', path: ['checkInAt'] });
      }
      if (checkIn && checkOut) {
        if (!isLongEnough(checkIn, checkOut)) ctx.addIssue({ code: 'custom', message: 'validation.checkOutAfterCheckIn', path: ['expectedCheckOutAt'] });
        else if (Date.parse(checkOut) <= Date.now()) ctx.addIssue({ code: 'custom', message: 'validation.checkOutInPast', path: ['expectedCheckOutAt'] });
      }
      if (v.priceMode === 'fixed') take(ctx, ['fixedPrice'], checkMoney(v.fixedPrice, currency, 'price'));
      checkDeposit(ctx, v.depositAmount, v.depositMethod, currency);
    });
}
export type ReservationFormValues = z.input<ReturnType<typeof reservationFormSchema>>;
export type ReservationFormOutput = z.output<ReturnType<typeof reservationFormSchema>>;

/** The calendar date of a form's `YYYY-MM-DDTHH:mm` value, and its time of day. */
const dateOf = (value: string) => value.slice(0, 10);
const timeOf = (value: string, fallback: string) => (/T\d{2}:\d{2}$/.test(value) ? value.slice(11, 16) : fallback);

/**
 * A new reservation: arriving tomorrow at the hotel's check-in time for one night, leaving at its
 * check-out time; the room it was opened from (or none), a guest to fill in.
 */
export function reservationDefaults(
  timeZone: string,
  hotel: { checkInTime: string; checkOutTime: string },
  room: { id: number; name: string } | null,
  dates?: { arrival: string; nights: number },
): ReservationFormValues {
  const tomorrow = dates?.arrival ?? addDays(localDate(new Date(), timeZone), 1);
  const nights = dates?.nights ?? 1;
  return {
    target: 'room',
    room,
    groupId: null,
    checkInAt: `${tomorrow}T${hotel.checkInTime}`,
    nights: String(nights),
    lengthUnit: 'day',
    expectedCheckOutAt: `${addDays(tomorrow, nights)}T${hotel.checkOutTime}`,
    guests: [{ ...emptyGuest }],
    priceMode: 'computed',
    fixedPrice: '',
    depositAmount: '',
    depositMethod: '',
    remark: '',
  };
}

/** The departure that `nights` nights after the arrival makes, at the departure's time of day. */
export function departureAfter(checkInAt: string, nights: string, expectedCheckOutAt: string, checkOutTime: string): string | null {
  const count = Number(nights);
  if (!/^\d{4}-\d{2}-\d{2}/.test(checkInAt) || !Number.isInteger(count) || count < 1 || count > 366) return null;
  return `${addDays(dateOf(checkInAt), count)}T${timeOf(expectedCheckOutAt, checkOutTime)}`;
}

/** The nights between an arrival and a departure (calendar days), or null when they do not make one. */
export function nightsBetween(checkInAt: string, expectedCheckOutAt: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}/.test(checkInAt) || !/^\d{4}-\d{2}-\d{2}/.test(expectedCheckOutAt)) return null;
  const nights = daysBetween(dateOf(checkInAt), dateOf(expectedCheckOutAt));
  return nights >= 1 ? nights : null;
}

/** The API's reservation of valid form values; null if a time no longer converts. */
export function toReservationInput(
  values: ReservationFormOutput,
  context: { timeZone: string; currency: string; idempotencyKey: string },
): ReservationInput | null {
  const { timeZone, currency, idempotencyKey } = context;
  const start = fromInputValue(values.checkInAt, timeZone);
  const end = fromInputValue(values.expectedCheckOutAt, timeZone);
  const fixed = checkMoney(values.fixedPrice, currency, 'price');
  const deposit = checkMoney(values.depositAmount, currency, 'amount');
  if (!start || !end || 'error' in deposit) return null;
  return {
    ...(values.target === 'room' ? { roomId: values.room!.id } : { groupId: values.groupId! }),
    checkInAt: start,
    expectedCheckOutAt: end,
    lengthUnit: values.lengthUnit,
    guests: values.guests.map(toGuestInput),
    priceMode: values.priceMode,
    fixedPrice: values.priceMode === 'fixed' && 'value' in fixed ? fixed.value : undefined,
    ...depositInput(deposit.value, values.depositMethod),
    remark: values.remark,
    idempotencyKey,
  };
}

/** Field names of the server's ZReservationInput errors, as the form names them. */
export function reservationField(name: string): string | null {
  if (name === 'roomId') return 'room';
  return /^(groupId|checkInAt|expectedCheckOutAt|fixedPrice|depositAmount|depositMethod|remark|guests\.\d+\.(name|gender|nationality|birthDate|idNumber|mobile|email))$/.test(
    name,
  )
    ? name
    : null;
}
