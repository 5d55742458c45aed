import { z } from 'zod';
import {
  CANCEL_REASONS,
  DEPOSIT_DECISIONS,
  CHECK_IN_WARNINGS,
  LIMITS,
  STAY_LENGTH_UNITS,
  WHEN_FIELDS_VALID,
  ZId,
  ZIdempotencyKey,
  ZLocalDate,
  ZMoneyMethod,
} from '@console/shared';
import type { AuthedContext } from '../../../context';
import { arriveReservation } from '../../../modules/stays/arrival';
import { listArrivals } from '../../../modules/stays/arrivals';
import { cancelReservation } from '../../../modules/stays/check-out';
import { createReservation } from '../../../modules/stays/reservation';
import type { StayDto } from '../../../modules/base/stay-dto';
import { sessionAction } from '../action';
import { ZFlag, ZLegacyGuest, ZLegacyMoney, ZLegacyTime, guestFromLegacy, instantOrFail, legacyStay, toMinorOrFail } from '../convert';

/** A stay as legacy clients read it, with its cancellation reason's text in the request's language. */
function reservationStay(ctx: AuthedContext, s: StayDto) {
  return {
    ...legacyStay(s, ctx.actor),
    cancel_reason_text: s.cancelReason ? ctx.deps.i18n.t(ctx.meta.lang, `reservations.cancelReasons.${s.cancelReason}`) : null,
  };
}

const ZNote = z.string({ error: 'validation.textInvalid' }).trim().max(LIMITS.remarkMaxLength, { error: 'validation.textTooLong' });

/**
 * `/manage/room/reservation/*` (added compatibly, issue 17 §4): take a reservation for a room or
 * any free room of a category, list a day's arrivals and no-shows, record a guest's arrival, and
 * cancel with a reason. The rules are the stay services' (modules/stays/reservation.ts, arrival.ts,
 * check-out.ts, arrivals.ts), the same for the web console's `stay.reserve`, `stay.arrivals`,
 * `stay.arrive` and `stay.cancelReservation`.
 */
export const roomReservationActions = [
  sessionAction({
    path: 'room/reservation/add',
    input: z.object({
      room_id: ZId.optional(),
      /** Any free room of this category for the dates, instead of `room_id`. */
      category_id: ZId.optional(),
      check_in_time: ZLegacyTime,
      check_out_time: ZLegacyTime,
      time_unit: z.enum(STAY_LENGTH_UNITS, { error: 'validation.unitInvalid' }).default('day'),
      breakfast: ZFlag.default(false),
      guests: z
        .array(ZLegacyGuest, { error: 'validation.guestRequired' })
        .min(1, { error: 'validation.guestRequired' })
        .max(LIMITS.guestsPerStayMax, { error: 'validation.tooManyGuests' }),
      price: ZLegacyMoney.optional(),
      deposit: ZLegacyMoney.optional(),
      /** How the deposit was paid (default cash). */
      pay_type: ZMoneyMethod.default('cash'),
      other_information: ZNote.optional(),
      request_id: ZIdempotencyKey,
    }),
    services: [createReservation],
    fields: { priceMode: 'price', depositMethod: 'pay_type' },
    async handle(ctx, input) {
      const stay = await createReservation(ctx, {
        roomId: input.room_id,
        groupId: input.category_id,
        checkInAt: instantOrFail(input.check_in_time, ctx.actor, 'check_in_time'),
        expectedCheckOutAt: instantOrFail(input.check_out_time, ctx.actor, 'check_out_time'),
        lengthUnit: input.time_unit,
        breakfast: input.breakfast,
        guests: input.guests.map(guestFromLegacy),
        priceMode: input.price !== undefined ? 'fixed' : 'computed',
        fixedPrice: input.price !== undefined ? toMinorOrFail(input.price, ctx.actor, 'price') : undefined,
        depositAmount: input.deposit !== undefined ? toMinorOrFail(input.deposit, ctx.actor, 'deposit') : 0,
        depositMethod: input.pay_type,
        remark: input.other_information,
        idempotencyKey: input.request_id,
      });
      return reservationStay(ctx, stay);
    },
  }),

  sessionAction({
    path: 'room/reservation/list',
    input: z.object({ date: ZLocalDate.optional() }),
    services: [listArrivals],
    async handle(ctx, input) {
      const day = await listArrivals(ctx, { date: input.date });
      const list = (stays: StayDto[]) => stays.map((s) => reservationStay(ctx, s));
      return {
        date: day.date,
        time_zone: day.timeZone,
        list: list(day.expected),
        total: day.expectedTotal,
        arrived: list(day.arrived),
        arrived_total: day.arrivedTotal,
        no_shows: list(day.noShows),
        no_shows_total: day.noShowsTotal,
      };
    },
  }),

  sessionAction({
    path: 'room/reservation/arrive',
    input: z.object({
      stay_id: ZId,
      /** When the guest arrived (default now; not in the future). */
      check_in_time: ZLegacyTime.optional(),
      /** A new expected check-out; the price is then computed again unless `price` is sent. */
      check_out_time: ZLegacyTime.optional(),
      price: ZLegacyMoney.optional(),
      confirm: ZFlag.default(false),
    }),
    services: [arriveReservation],
    fields: { priceMode: 'price', acknowledge: 'confirm' },
    async handle(ctx, input) {
      const stay = await arriveReservation(ctx, {
        stayId: input.stay_id,
        checkInAt: input.check_in_time ? instantOrFail(input.check_in_time, ctx.actor, 'check_in_time') : undefined,
        expectedCheckOutAt: input.check_out_time ? instantOrFail(input.check_out_time, ctx.actor, 'check_out_time') : undefined,
        priceMode: input.price !== undefined ? 'fixed' : 'computed',
        fixedPrice: input.price !== undefined ? toMinorOrFail(input.price, ctx.actor, 'price') : undefined,
        acknowledge: input.confirm ? [...CHECK_IN_WARNINGS] : [],
      });
      return reservationStay(ctx, stay);
    },
  }),

  sessionAction({
    path: 'room/reservation/cancel',
    input: z
      .object({
        stay_id: ZId,
        reason: z.enum(CANCEL_REASONS, { error: 'reservations.validation.reasonRequired' }),
        note: ZNote.default(''),
        // What becomes of a deposit the reservation holds (required then): refunded (how) or kept (why).
        deposit: z.enum(DEPOSIT_DECISIONS, { error: 'validation.depositDecisionInvalid' }).optional(),
        deposit_reason: ZNote.default(''),
        refund_method: ZMoneyMethod.optional(),
      })
      .refine((v) => v.reason !== 'other' || v.note.length > 0, { error: 'reservations.validation.noteRequired', path: ['note'], ...WHEN_FIELDS_VALID }),
    services: [cancelReservation],
    async handle(ctx, input) {
      const stay = await cancelReservation(ctx, {
        stayId: input.stay_id,
        reason: input.reason,
        note: input.note,
        deposit: input.deposit,
        depositReason: input.deposit_reason,
        refundMethod: input.refund_method,
      });
      return { ...reservationStay(ctx, stay), revoked_credentials: stay.revokedCredentials };
    },
  }),
];
