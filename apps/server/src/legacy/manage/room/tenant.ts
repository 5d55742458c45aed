import { z } from 'zod';
import {
  CHECK_IN_WARNINGS,
  LIMITS,
  ZMoneyMethod,
  WHEN_FIELDS_VALID,
  STAY_FILTERS,
  STAY_LENGTH_UNITS,
  ZId,
  ZIdempotencyKey,
  ZLocalDate,
  ZSearch,
  UPGRADE_CHOICES,
} from '@console/shared';
import { checkIn } from '../../../modules/stays/check-in';
import { checkOutWithBill } from '../../../modules/orders/legacy-check-out';
import { addGuest, removeGuest } from '../../../modules/stays/guests';
import { renewStay } from '../../../modules/stays/renewal';
import { changeRoom } from '../../../modules/stays/room-change';
import { listStays } from '../../../modules/stays/stay-list';
import { sessionAction } from '../action';
import {
  ZFlag,
  ZLegacyGuest,
  ZLegacyMoney,
  ZLegacyTime,
  guestFromLegacy,
  instantOrFail,
  legacyPage,
  legacyStay,
  money,
  toMinorOrFail,
  zLegacyPaging,
} from '../convert';

/** `/manage/room/*` actions of stays ("tenants"): the tenant list, check-in and out, renewal, room change, co-guests. */
export const roomTenantActions = [
  sessionAction({
    path: 'room/tenant/list',
    input: z
      .object({
        ...zLegacyPaging(),
        state: z.enum(STAY_FILTERS, { error: 'validation.stateInvalid' }).default('all'),
        start_date: ZLocalDate.optional(),
        end_date: ZLocalDate.optional(),
        room_id: ZId.optional(),
        keyword: ZSearch.optional(),
      })
      .refine((v) => !v.start_date || !v.end_date || v.start_date <= v.end_date, {
        error: 'validation.endAfterStart',
        path: ['end_date'],
        ...WHEN_FIELDS_VALID,
      }),
    services: [listStays],
    fields: { from: 'start_date', to: 'end_date', guest: 'keyword' },
    async handle(ctx, input) {
      const result = await listStays(ctx, {
        page: input.page,
        pageSize: input.limit,
        state: input.state,
        from: input.start_date,
        to: input.end_date,
        roomId: input.room_id,
        guest: input.keyword,
      });
      return legacyPage(result, (s) => legacyStay(s, ctx.actor));
    },
  }),

  sessionAction({
    path: 'room/tenant/update/checkIn',
    input: z.object({
      room_id: ZId,
      check_in_time: ZLegacyTime,
      check_out_time: ZLegacyTime,
      time_unit: z.enum(STAY_LENGTH_UNITS, { error: 'validation.unitInvalid' }).default('day'),
      breakfast: ZFlag.default(false),
      guests: z
        .array(ZLegacyGuest, { error: 'validation.guestRequired' })
        .min(1, { error: 'validation.guestRequired' })
        .max(LIMITS.guestsPerStayMax, { error: 'validation.tooManyGuests' }),
      disable_old_cards: ZFlag.default(false),
      id_card_unlock: ZFlag.default(false),
      /** A set price for the stay; without it the pricing function decides. */
      price: ZLegacyMoney.optional(),
      deposit: ZLegacyMoney.optional(),
      /** How the deposit was paid (optional, added compatibly; default cash: a legacy client's deposit is money taken). */
      pay_type: ZMoneyMethod.default('cash'),
      other_information: z.string({ error: 'validation.textInvalid' }).trim().max(LIMITS.remarkMaxLength, { error: 'validation.textTooLong' }).optional(),
      /** The same value on every retry of one check-in. */
      request_id: ZIdempotencyKey,
      /** 1: go ahead despite the warnings (guest in another room, dirty room). */
      confirm: ZFlag.default(false),
    }),
    services: [checkIn],
    fields: { acknowledge: 'confirm', priceMode: 'price', depositMethod: 'pay_type' },
    async handle(ctx, input) {
      const stay = await checkIn(ctx, {
        roomId: input.room_id,
        checkInAt: instantOrFail(input.check_in_time, ctx.actor, 'check_in_time'),
        expectedCheckOutAt: instantOrFail(input.check_out_time, ctx.actor, 'check_out_time'),
        lengthUnit: input.time_unit,
        breakfast: input.breakfast,
        guests: input.guests.map(guestFromLegacy),
        disableOldCards: input.disable_old_cards,
        idCardUnlock: input.id_card_unlock,
        priceMode: input.price !== undefined ? 'fixed' : 'computed',
        fixedPrice: input.price !== undefined ? toMinorOrFail(input.price, ctx.actor, 'price') : undefined,
        depositAmount: input.deposit !== undefined ? toMinorOrFail(input.deposit, ctx.actor, 'deposit') : 0,
        depositMethod: input.pay_type,
        remark: input.other_information,
        idempotencyKey: input.request_id,
        acknowledge: input.confirm ? [...CHECK_IN_WARNINGS] : [],
      });
      return legacyStay(stay, ctx.actor);
    },
  }),

  sessionAction({
    path: 'room/checkOut',
    // `pay_type` (optional, added compatibly): how what the guest owes was paid; without it a bill owing money is left owing.
    input: z.object({ stay_id: ZId, pay_type: ZMoneyMethod.optional() }),
    services: [checkOutWithBill],
    async handle(ctx, input) {
      const { bill, ...stay } = await checkOutWithBill(ctx, { stayId: input.stay_id, method: input.pay_type });
      return {
        ...legacyStay(stay, ctx.actor),
        revoked_credentials: stay.revokedCredentials,
        bill: { state: bill.state, owed: money(bill.owed, ctx.actor), due_back: money(bill.dueBack, ctx.actor), paid: money(bill.paid, ctx.actor) },
      };
    },
  }),

  sessionAction({
    path: 'room/setRenew',
    input: z.object({ stay_id: ZId, check_out_time: ZLegacyTime, price: ZLegacyMoney.optional() }),
    services: [renewStay],
    fields: { priceMode: 'price' },
    async handle(ctx, input) {
      const stay = await renewStay(ctx, {
        stayId: input.stay_id,
        expectedCheckOutAt: instantOrFail(input.check_out_time, ctx.actor, 'check_out_time'),
        priceMode: input.price !== undefined ? 'fixed' : 'computed',
        fixedPrice: input.price !== undefined ? toMinorOrFail(input.price, ctx.actor, 'price') : undefined,
      });
      return {
        ...legacyStay(stay, ctx.actor),
        added_price: money(stay.addedPrice, ctx.actor),
        replaced_passwords: stay.replacedPasswords,
        // Added compatibly: what the locks learn, and the written cards that still end at the old check-out (write them again).
        extended_credentials: stay.extendedCredentials,
        rewrite_cards: stay.rewriteCards.map((c) => ({ id: c.issueId, card_num: c.cardNumber })),
      };
    },
  }),

  sessionAction({
    path: 'room/exchangeHouses',
    // `upgrade` added compatibly: a legacy client that does not send it has a dearer room's difference charged, as always.
    input: z.object({ stay_id: ZId, room_id: ZId, upgrade: z.enum(UPGRADE_CHOICES).optional() }),
    services: [changeRoom],
    fields: { targetRoomId: 'room_id' },
    async handle(ctx, input) {
      const stay = await changeRoom(ctx, { stayId: input.stay_id, targetRoomId: input.room_id, upgrade: input.upgrade ?? 'charge' });
      return {
        ...legacyStay(stay, ctx.actor),
        price_difference: money(stay.priceDifference, ctx.actor),
        // Added compatibly: the guest's keys followed to the new room (docs/legacy-protocol.md, "Room change").
        moved_credentials: stay.credentialMoves.map((m) => ({
          kind: m.kind,
          from_id: m.fromId,
          to_id: m.toId,
          outcome: m.outcome,
          undeliverable: m.blocked,
          undeliverable_text: m.blocked ? ctx.deps.i18n.t(ctx.meta.lang, `credentials.errors.${m.blocked}`) : null,
          password_type: m.passwordKind,
          password: m.code,
          card_num: m.cardNumber,
          face_id: m.faceId,
          holder: m.holderName,
        })),
        cards_to_write: stay.credentialMoves.filter((m) => m.outcome === 'ended').length,
      };
    },
  }),

  sessionAction({
    path: 'room/addPassenger',
    input: ZLegacyGuest.extend({ stay_id: ZId }),
    services: [addGuest],
    fields: { guest: '' },
    handle: async (ctx, input) => legacyStay(await addGuest(ctx, { stayId: input.stay_id, guest: guestFromLegacy(input) }), ctx.actor),
  }),

  sessionAction({
    path: 'room/deletePassenger',
    input: z.object({ stay_id: ZId, manage_id: ZId }),
    services: [removeGuest],
    handle: async (ctx, input) => legacyStay(await removeGuest(ctx, { stayId: input.stay_id, guestId: input.manage_id }), ctx.actor),
  }),
];
