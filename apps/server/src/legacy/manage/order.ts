import { z } from 'zod';
import {
  LIMITS,
  ORDER_ENTRY_KINDS,
  WHEN_FIELDS_VALID,
  ZCustomerMobile,
  ZId,
  ZLocalDate,
  ZOrderNote,
  ZOrderRequestId,
  ZMoneyMethod,
  ZPaymentMethod,
  localDate,
} from '@console/shared';
import type { AuthedContext } from '../../context';
import type { OrderEntryDto } from '../../modules/orders/entries';
import { customerBalance, rechargeCustomer } from '../../modules/orders/balances';
import type { FolioSummary } from '../../modules/orders/ledger-entry';
import { recordDeposit, recordPayment } from '../../modules/orders/payments';
import { postRoomCharge, recordCharge } from '../../modules/orders/posting';
import { refundEntry } from '../../modules/orders/refunds';
import type { CashLine } from '../../modules/orders/cash-lines';
import { cashReport, listOrders } from '../../modules/orders/order-list';
import { sessionAction } from './action';
import { ZLegacyMoney, legacyPage, money, toMinorOrFail, zLegacyPaging } from './convert';
import { legacyTime } from './format';

/**
 * `/manage/order/*` (spec §7; docs/orders.md): the orders ledger for legacy clients. The spec names
 * the actions only; their fields follow the protocol's conventions: snake_case, money as decimals in
 * the hotel currency's major unit (signed as the ledger signs it: money received positive, charges
 * and refunds negative), times `YYYY-MM-DD HH:mm:ss` in the hotel's zone, lists `{ list, total,
 * page, limit }`. An entry is an "order": `id`, `type` (room_charge, charge, deposit, payment,
 * refund, recharge, correction) and `pay_type` (cash, bank_card, wechat, alipay, transfer, other, or
 * balance: taken from a member's balance), each with its text in the request's language.
 *
 * - `setCashData`: money or a charge recorded on a stay's folio (`type` payment by default, deposit,
 *   charge, or room_charge: the stay's room charge brought to its price, no amount); `pay_type`
 *   balance takes a payment or deposit from the member named by `customer_id` or `mobile`.
 * - `macMember`: a member's (customer's) balance, by `customer_id` or `mobile`, with their newest orders.
 * - `refund`: part or all of a payment, deposit or recharge (`order_id`) given back, with a `reason`.
 * - `recharge`: money put on a member's balance.
 * - `orderList`: every order that matches, newest first, with `sum` of them all.
 * - `cash`: a day's cash report per operator for the shift hand-over (`date`, default today).
 */

function legacyOrder(e: OrderEntryDto, ctx: AuthedContext) {
  const t = (key: string) => ctx.deps.i18n.t(ctx.meta.lang, key);
  return {
    id: e.id,
    type: e.kind,
    type_text: t(`orders.kinds.${e.kind}`),
    amount: money(e.amount, ctx.actor),
    currency: e.currency,
    pay_type: e.method,
    pay_type_text: e.method ? t(`orders.methods.${e.method}`) : null,
    note: e.note,
    stay_id: e.stayId,
    room_id: e.roomId,
    room_name: e.roomName,
    customer_id: e.customerId,
    customer_name: e.customerName,
    /** A refund: the order it refunds; a correction: the order it reverses. */
    related_id: e.linkedEntryId,
    refundable: e.refundable === null ? null : money(e.refundable, ctx.actor),
    /** What it did to the member's balance (null when it names no member): pay_type balance takes from it. */
    balance_change: e.balanceChange === null ? null : money(e.balanceChange, ctx.actor),
    corrected: e.correctedById !== null ? 1 : 0,
    /** A tax charge (a rate added on top of a charge, or the city tax): 1; added compatibly (issue 36). */
    tax: e.tax ? 1 : 0,
    /** The taxes a charge's amount includes, as the journal booked them (null: none); added compatibly (issue 36). */
    tax_included: e.taxIncluded === null ? null : money(e.taxIncluded, ctx.actor),
    operator_id: e.operator?.id ?? null,
    operator_name: e.operator?.nickname ?? null,
    create_time: legacyTime(e.createdAt, ctx.actor.timeZone),
  };
}

function legacyFolio(f: FolioSummary | null, ctx: AuthedContext) {
  if (!f) return null;
  return {
    folio_id: f.folioId,
    balance: money(f.balance, ctx.actor),
    owed: money(f.owed, ctx.actor),
    due_back: money(f.dueBack, ctx.actor),
    deposit: money(f.depositHeld, ctx.actor),
    settled: f.settled ? 1 : 0,
  };
}

/** A line of money by one way of paying (the cash report's, a shift's, a day report's). */
export function legacyCashLine(l: CashLine, ctx: AuthedContext) {
  return {
    pay_type: l.method,
    pay_type_text: ctx.deps.i18n.t(ctx.meta.lang, `orders.methods.${l.method}`),
    deposit: money(l.deposits, ctx.actor),
    payment: money(l.payments, ctx.actor),
    recharge: money(l.recharges, ctx.actor),
    refund: money(l.refunds, ctx.actor),
    correction: money(l.corrections, ctx.actor),
    total: money(l.net, ctx.actor),
    count: l.count,
  };
}

const SET_CASH_TYPES = ['payment', 'deposit', 'charge', 'room_charge'] as const;
const ZNote = ZOrderNote.optional();
const ZReason = z.string({ error: 'validation.reasonRequired' }).max(LIMITS.textMaxLength, { error: 'validation.textTooLong' });

export const orderActions = [
  sessionAction({
    path: 'order/setCashData',
    input: z
      .object({
        stay_id: ZId,
        type: z.enum(SET_CASH_TYPES, { error: 'validation.orderKindInvalid' }).default('payment'),
        amount: ZLegacyMoney.optional(),
        pay_type: ZPaymentMethod.default('cash'),
        /** pay_type balance: the member whose balance pays (one of the two). */
        customer_id: ZId.optional(),
        mobile: ZCustomerMobile.optional(),
        note: z.string({ error: 'validation.textInvalid' }).max(LIMITS.textMaxLength, { error: 'validation.textTooLong' }).optional(),
        /** The same value on every retry of one request: one order is recorded. */
        request_id: ZOrderRequestId.optional(),
      })
      .refine((v) => v.type === 'room_charge' || v.amount !== undefined, { error: 'validation.amountRequired', path: ['amount'], ...WHEN_FIELDS_VALID }),
    services: [recordPayment, recordDeposit, recordCharge, postRoomCharge],
    fields: { method: 'pay_type', requestId: 'request_id', customerId: 'customer_id' },
    async handle(ctx, input) {
      if (input.type === 'room_charge') {
        const result = await postRoomCharge(ctx, { stayId: input.stay_id });
        return { list: result.entries.map((e) => legacyOrder(e, ctx)), folio: legacyFolio(result.folio, ctx) };
      }
      const amount = toMinorOrFail(input.amount!, ctx.actor, 'amount');
      const common = { stayId: input.stay_id, amount, requestId: input.request_id };
      const result =
        input.type === 'charge'
          ? await recordCharge(ctx, { ...common, note: input.note ?? '' })
          : await (input.type === 'deposit' ? recordDeposit : recordPayment)(ctx, {
              ...common,
              method: input.pay_type,
              customerId: input.customer_id,
              mobile: input.mobile,
              note: input.note ?? '',
            });
      return { list: [legacyOrder(result.entry, ctx)], folio: legacyFolio(result.folio, ctx), replayed: result.replayed ? 1 : 0 };
    },
  }),

  sessionAction({
    path: 'order/macMember',
    input: z.object({ customer_id: ZId.optional(), mobile: ZCustomerMobile.optional() }).refine((v) => v.customer_id !== undefined || v.mobile !== undefined, {
      error: 'validation.customerRequired',
      path: ['customer_id'],
      ...WHEN_FIELDS_VALID,
    }),
    services: [customerBalance],
    fields: { customerId: 'customer_id' },
    async handle(ctx, input) {
      const result = await customerBalance(ctx, { customerId: input.customer_id, mobile: input.mobile });
      return {
        customer_id: result.customer.id,
        nickname: result.customer.nickname,
        mobile: result.customer.mobile,
        status: result.customer.frozen ? 1 : 0,
        balance: money(result.balance, ctx.actor),
        currency: result.currency,
        list: result.recent.map((e) => legacyOrder(e, ctx)),
      };
    },
  }),

  sessionAction({
    path: 'order/refund',
    input: z.object({ order_id: ZId, amount: ZLegacyMoney, reason: ZReason, pay_type: ZMoneyMethod.optional(), request_id: ZOrderRequestId.optional() }),
    services: [refundEntry],
    fields: { entryId: 'order_id', method: 'pay_type', requestId: 'request_id' },
    async handle(ctx, input) {
      const result = await refundEntry(ctx, {
        entryId: input.order_id,
        amount: toMinorOrFail(input.amount, ctx.actor, 'amount'),
        reason: input.reason,
        method: input.pay_type,
        requestId: input.request_id,
      });
      return {
        order: legacyOrder(result.entry, ctx),
        refundable: money(result.refundableLeft, ctx.actor),
        folio: legacyFolio(result.folio, ctx),
        replayed: result.replayed ? 1 : 0,
      };
    },
  }),

  sessionAction({
    path: 'order/recharge',
    input: z
      .object({
        customer_id: ZId.optional(),
        mobile: ZCustomerMobile.optional(),
        amount: ZLegacyMoney,
        pay_type: ZMoneyMethod.default('cash'),
        note: ZNote,
        request_id: ZOrderRequestId.optional(),
      })
      .refine((v) => v.customer_id !== undefined || v.mobile !== undefined, {
        error: 'validation.customerRequired',
        path: ['customer_id'],
        ...WHEN_FIELDS_VALID,
      }),
    services: [rechargeCustomer],
    fields: { customerId: 'customer_id', method: 'pay_type', requestId: 'request_id' },
    async handle(ctx, input) {
      const result = await rechargeCustomer(ctx, {
        customerId: input.customer_id,
        mobile: input.mobile,
        amount: toMinorOrFail(input.amount, ctx.actor, 'amount'),
        method: input.pay_type,
        note: input.note,
        requestId: input.request_id,
      });
      return { order: legacyOrder(result.entry, ctx), balance: money(result.balance, ctx.actor), replayed: result.replayed ? 1 : 0 };
    },
  }),

  sessionAction({
    path: 'order/orderList',
    input: z
      .object({
        ...zLegacyPaging(),
        type: z.enum(ORDER_ENTRY_KINDS, { error: 'validation.orderKindInvalid' }).optional(),
        pay_type: ZPaymentMethod.optional(),
        stay_id: ZId.optional(),
        room_id: ZId.optional(),
        customer_id: ZId.optional(),
        operator_id: ZId.optional(),
        start_date: ZLocalDate.optional(),
        end_date: ZLocalDate.optional(),
      })
      .refine((v) => !v.start_date || !v.end_date || v.start_date <= v.end_date, {
        error: 'validation.endAfterStart',
        path: ['end_date'],
        ...WHEN_FIELDS_VALID,
      }),
    services: [listOrders],
    fields: { kinds: 'type', method: 'pay_type', customerId: 'customer_id', operatorId: 'operator_id', from: 'start_date', to: 'end_date' },
    async handle(ctx, input) {
      const result = await listOrders(ctx, {
        page: input.page,
        pageSize: input.limit,
        kinds: input.type ? [input.type] : undefined,
        method: input.pay_type,
        stayId: input.stay_id,
        roomId: input.room_id,
        customerId: input.customer_id,
        operatorId: input.operator_id,
        from: input.start_date,
        to: input.end_date,
      });
      return { ...legacyPage(result, (e) => legacyOrder(e, ctx)), sum: money(result.sum, ctx.actor), currency: result.currency };
    },
  }),

  sessionAction({
    path: 'order/cash',
    input: z.object({ date: ZLocalDate.optional(), operator_id: ZId.optional() }),
    services: [cashReport],
    fields: { operatorId: 'operator_id' },
    async handle(ctx, input) {
      const report = await cashReport(ctx, { date: input.date ?? localDate(new Date(), ctx.actor.timeZone), operatorId: input.operator_id });
      return {
        date: report.date,
        time_zone: report.timeZone,
        currency: report.currency,
        start_time: legacyTime(report.from, report.timeZone),
        end_time: legacyTime(report.to, report.timeZone),
        list: report.operators.map((o) => ({
          operator_id: o.operator?.id ?? null,
          operator_name: o.operator?.nickname ?? null,
          total: money(o.net, ctx.actor),
          cash: money(o.cash, ctx.actor),
          count: o.count,
          pay_types: o.methods.map((l) => legacyCashLine(l, ctx)),
        })),
        pay_types: report.methods.map((l) => legacyCashLine(l, ctx)),
        total: money(report.net, ctx.actor),
        cash: money(report.cash, ctx.actor),
      };
    },
  }),
];
