import { z } from 'zod';
import { CARD_RULES, LIMITS, PASSWORD_KINDS, PRICE_MODES, STAY_LENGTH_UNITS, ZCheckInInput, ZCustomPasswordCode } from '@console/shared';
import { fromInputValue } from '@/lib/hotel-time';
import { lastCheckInCardCount } from '@/lib/room-cards';
import type { RouterInputs } from '@/lib/trpc-types';
import {
  ZDepositMethodField,
  ZGuestForm,
  checkDateTime,
  checkDeposit,
  checkMoney,
  checkedBy,
  depositInput,
  emptyGuest,
  isLongEnough,
  take,
  toGuestInput,
} from './form-rules';
import { walkInTimes, type HotelClock } from './stay-times';

export type CheckInInput = RouterInputs['stay']['checkIn'];
export type PasswordCreateInput = RouterInputs['password']['create'];

/**
 * The check-in form (spec §3-§5) as the inputs hold it: times, length, guests, options, price,
 * deposit, remark, and an optional lock password for the new stay. Its rules are the shared ones
 * of ZCheckInInput (guest fields, the number of guests, the remark, amounts, the minimum stay) and
 * of a custom password (6 digits), plus what only the desk can check: a check-out not in the past.
 */
export function checkInFormSchema(timeZone: string, currency: string) {
  return z
    .object({
      checkInAt: z.string(),
      lengthValue: z.string(),
      lengthUnit: z.enum(STAY_LENGTH_UNITS),
      expectedCheckOutAt: z.string(),
      guests: z.array(ZGuestForm).min(1, { error: 'validation.guestRequired' }).max(LIMITS.guestsPerStayMax, { error: 'validation.tooManyGuests' }),
      breakfast: z.boolean(),
      disableOldCards: z.boolean(),
      idCardUnlock: z.boolean(),
      priceMode: z.enum(PRICE_MODES),
      fixedPrice: z.string(),
      depositAmount: z.string(),
      depositMethod: ZDepositMethodField,
      remark: ZCheckInInput.shape.remark,
      /** A lock password for the new stay, issued once the check-in has succeeded. */
      issuePassword: z.boolean(),
      passwordKind: z.enum(PASSWORD_KINDS),
      passwordCode: z.string(),
      /** Faces of the guest (found in the face database) to authorise on the lock for the new stay. */
      authorizeFaceIds: z.array(z.number()),
      /** Room cards to write at the desk once the check-in has succeeded (0: none), new or duplicates of the room's cards in use. */
      roomCards: z.string(),
      roomCardsMode: z.enum(['new', 'duplicate']),
    })
    .superRefine((v, ctx) => {
      const checkIn = take(ctx, ['checkInAt'], checkDateTime(v.checkInAt, timeZone));
      const checkOut = take(ctx, ['expectedCheckOutAt'], checkDateTime(v.expectedCheckOutAt, timeZone));
      if (checkIn && checkOut) {
        if (!isLongEnough(checkIn, checkOut)) ctx.addIssue({ code: 'custom', message: 'validation.checkOutAfterCheckIn', path: ['expectedCheckOutAt'] });
        else if (Date.parse(checkOut) <= Date.now()) ctx.addIssue({ code: 'custom', message: 'validation.checkOutInPast', path: ['expectedCheckOutAt'] });
      }
      if (v.priceMode === 'fixed') take(ctx, ['fixedPrice'], checkMoney(v.fixedPrice, currency, 'price'));
      checkDeposit(ctx, v.depositAmount, v.depositMethod, currency);
      // The shared rule of a custom password (6 digits), before the stay is made.
      if (v.issuePassword && v.passwordKind === 'custom') checkedBy(ZCustomPasswordCode, v.passwordCode.trim(), ctx, ['passwordCode']);
      if (roomCardCount(v.roomCards) === null) ctx.addIssue({ code: 'custom', message: 'cards.checkIn.countInvalid', path: ['roomCards'] });
    });
}
export type CheckInFormValues = z.input<ReturnType<typeof checkInFormSchema>>;
export type CheckInFormOutput = z.output<ReturnType<typeof checkInFormSchema>>;

/** A new check-in: a walk-in from now, one night to the hotel's check-out time (stay-times.ts), one guest to fill in. */
export function checkInDefaults(hotel: HotelClock, now = new Date()): CheckInFormValues {
  return {
    ...walkInTimes(now, hotel),
    lengthValue: '1',
    lengthUnit: 'day',
    guests: [{ ...emptyGuest }],
    breakfast: false,
    disableOldCards: false,
    idCardUnlock: false,
    priceMode: 'computed',
    fixedPrice: '',
    depositAmount: '',
    depositMethod: '',
    remark: '',
    issuePassword: false,
    passwordKind: 'custom',
    passwordCode: '',
    authorizeFaceIds: [],
    roomCards: String(lastCheckInCardCount()),
    roomCardsMode: 'new',
  };
}

/** The number of room cards asked for (empty: none), or null when it is not a whole number from 0 to the most a stay may have. */
export function roomCardCount(value: string): number | null {
  const text = value.trim();
  if (text === '') return 0;
  const count = Number(text);
  return Number.isInteger(count) && count >= 0 && count <= CARD_RULES.cardsPerStayMax ? count : null;
}

/** The API's check-in of valid form values; `null` if a time no longer converts (it was just checked). */
export function toCheckInInput(
  values: CheckInFormOutput,
  context: { roomId: number; timeZone: string; currency: string; idempotencyKey: string },
): CheckInInput | null {
  const { roomId, timeZone, currency, idempotencyKey } = context;
  const start = fromInputValue(values.checkInAt, timeZone);
  const end = fromInputValue(values.expectedCheckOutAt, timeZone);
  const fixed = checkMoney(values.fixedPrice, currency, 'price');
  const deposit = checkMoney(values.depositAmount, currency, 'amount');
  if (!start || !end || 'error' in deposit) return null;
  return {
    roomId,
    checkInAt: start,
    expectedCheckOutAt: end,
    lengthUnit: values.lengthUnit,
    breakfast: values.breakfast,
    guests: values.guests.map(toGuestInput),
    disableOldCards: values.disableOldCards,
    idCardUnlock: values.idCardUnlock,
    priceMode: values.priceMode,
    fixedPrice: values.priceMode === 'fixed' && 'value' in fixed ? fixed.value : undefined,
    ...depositInput(deposit.value, values.depositMethod),
    remark: values.remark,
    idempotencyKey,
    acknowledge: [],
  };
}

/** Field names of the server's ZCheckInInput errors that the form shows next to a field. */
export const isCheckInField = (name: string) =>
  /^(checkInAt|expectedCheckOutAt|fixedPrice|depositAmount|depositMethod|remark|guests\.\d+\.(name|gender|nationality|birthDate|idNumber|mobile|email))$/.test(
    name,
  );

/** The lock password to issue for a new stay (valid for the stay), or null when none was asked for. */
export function toStayPasswordInput(
  values: Pick<CheckInFormValues, 'issuePassword' | 'passwordKind' | 'passwordCode'>,
  stay: { id: number; roomId: number },
): PasswordCreateInput | null {
  if (!values.issuePassword) return null;
  return { roomId: stay.roomId, stayId: stay.id, kind: values.passwordKind, code: values.passwordKind === 'custom' ? values.passwordCode.trim() : undefined };
}
