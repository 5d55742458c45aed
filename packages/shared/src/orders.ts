import { z } from 'zod';
import { ZMoneyMethod } from './prices';
import { CANCEL_REASONS, ZIdempotencyKey } from './stays';
import { LIMITS } from './limits';
import { MONEY_METHODS } from './money';
import { WHEN_FIELDS_VALID, ZId, ZLocalDate, ZPageInput, whenValid, zInt, zOptionalText } from './primitives';

/**
 * The orders ledger (docs/orders.md): what every face sends to record, refund, correct and settle
 * entries, and list them. Amounts are integers in the hotel currency's minor unit and always
 * positive here: the server gives each kind its sign (money received positive, charges and money
 * given back negative). Messages are i18n keys of `validation.*`, the group the transports take
 * a schema's messages from.
 */

export const ORDER_ENTRY_KINDS = ['room_charge', 'charge', 'deposit', 'payment', 'refund', 'recharge', 'correction'] as const;
export type TOrderEntryKind = (typeof ORDER_ENTRY_KINDS)[number];

/**
 * Every way an entry's money moved: the desk's, and `balance`: a deposit or payment taken from a
 * customer's balance (the entry names the customer; its refunds and corrections go back to it).
 */
export const PAYMENT_METHODS = [...MONEY_METHODS, 'balance'] as const;
export type TPaymentMethod = (typeof PAYMENT_METHODS)[number];

/** Kinds that are money received and can be refunded. */
export const REFUNDABLE_KINDS = ['deposit', 'payment', 'recharge'] as const satisfies readonly TOrderEntryKind[];

export const ORDER_LIMITS = {
  /** The largest single amount, in minor units (the ledger stores a PostgreSQL integer). */
  amountMax: 1_000_000_000,
  noteMaxLength: 200,
  reasonMaxLength: 200,
  /** Entries of a customer shown with their balance. */
  recentEntries: 20,
} as const;

export const ZOrderAmount = zInt({ min: 1, max: ORDER_LIMITS.amountMax }, 'validation.amountInvalid', 'validation.amountRequired');
export const ZPaymentMethod = z.enum(PAYMENT_METHODS, { error: 'validation.paymentMethodInvalid' });
export const ZOrderEntryKind = z.enum(ORDER_ENTRY_KINDS, { error: 'validation.orderKindInvalid' });
export const ZOrderNote = z.string({ error: 'validation.textInvalid' }).trim().max(ORDER_LIMITS.noteMaxLength, { error: 'validation.textTooLong' }).default('');
export const ZOrderReason = z
  .string({ error: 'validation.reasonRequired' })
  .trim()
  .min(1, { error: 'validation.reasonRequired' })
  .max(ORDER_LIMITS.reasonMaxLength, { error: 'validation.textTooLong' });
/** The client's id of a request that records money: the same id sent twice records one entry. */
export const ZOrderRequestId = ZIdempotencyKey;

export const ZFolioInput = z.object({ stayId: ZId });

/** A customer's mobile as the guest app registered it (digits, an optional leading +, dashes). */
export const ZCustomerMobile = z
  .string({ error: 'validation.phoneInvalid' })
  .trim()
  .regex(/^\+?[0-9][0-9-]{2,19}$/, { error: 'validation.phoneInvalid' });
/** A customer, by id or by mobile (the desk types the guest's number); with both, both must match. */
const customerRef = { customerId: ZId.optional(), mobile: ZCustomerMobile.optional() };
const namesCustomer = (v: { customerId?: number; mobile?: string }) => v.customerId !== undefined || v.mobile !== undefined;
const customerRequired = { error: 'validation.customerRequired', path: ['customerId'], ...WHEN_FIELDS_VALID };
/** Money taken from a customer's balance names the customer (by id or mobile). */
const balanceNamesCustomer = (v: { method: TPaymentMethod; customerId?: number; mobile?: string }) => v.method !== 'balance' || namesCustomer(v);

/**
 * A deposit or a payment received for a stay; `balance` takes it from the customer named (who must
 * have that much on their balance). A customer named with another way of paying is not used.
 */
export const ZStayMoneyInput = z
  .object({ stayId: ZId, amount: ZOrderAmount, method: ZPaymentMethod, ...customerRef, note: ZOrderNote, requestId: ZOrderRequestId.optional() })
  .refine(balanceNamesCustomer, customerRequired);
export type TStayMoneyInput = z.input<typeof ZStayMoneyInput>;

/** A charge to a stay other than the room (minibar, damage, late check-out): what for is required. */
export const ZChargeInput = z.object({ stayId: ZId, amount: ZOrderAmount, note: ZOrderReason, requestId: ZOrderRequestId.optional() });
export type TChargeInput = z.input<typeof ZChargeInput>;

export const ZRefundInput = z.object({
  entryId: ZId,
  amount: ZOrderAmount,
  reason: ZOrderReason,
  /** How the money goes back; by default the way it came (money from a balance always goes back to it). */
  method: ZMoneyMethod.optional(),
  requestId: ZOrderRequestId.optional(),
});
export type TRefundInput = z.input<typeof ZRefundInput>;

export const ZCorrectInput = z.object({ entryId: ZId, reason: ZOrderReason });
export type TCorrectInput = z.input<typeof ZCorrectInput>;

export const ZRechargeInput = z
  .object({ ...customerRef, amount: ZOrderAmount, method: ZMoneyMethod, note: ZOrderNote, requestId: ZOrderRequestId.optional() })
  .refine(namesCustomer, customerRequired);
export type TRechargeInput = z.input<typeof ZRechargeInput>;

export const ZCustomerBalanceInput = z.object(customerRef).refine(namesCustomer, customerRequired);
export type TCustomerBalanceInput = z.input<typeof ZCustomerBalanceInput>;

export const DEPOSIT_DECISIONS = ['refund', 'keep'] as const;
export type TDepositDecision = (typeof DEPOSIT_DECISIONS)[number];

/**
 * Settles a stay's folio at check-out: the room charge is brought to what the stay owes (an early
 * departure is recomputed with the pricing function), the deposit is refunded or kept (a reason
 * required), money due back is refunded, and what is still owed must be paid now (`payment`, its
 * amount exactly what the folio shows as owed). `checkOut` checks the stay out first.
 */
/**
 * Why a bill was left owing at check-out: the clerk's choice (paid by the company later, left
 * unpaid, another reason written out), or a legacy client's check-out that sent no way of paying.
 */
export const DESK_OWING_REASONS = ['company', 'unpaid', 'other'] as const;
export const OWING_REASONS = [...DESK_OWING_REASONS, 'legacy_check_out'] as const;
export type TOwingReason = (typeof OWING_REASONS)[number];

export const ZSettleInput = z
  .object({
    stayId: ZId,
    checkOut: z.boolean({ error: 'validation.flagInvalid' }).default(false),
    /** Whether the deposit held is refunded or kept: the clerk's choice, required when one is held (nothing is assumed). */
    deposit: z.enum(DEPOSIT_DECISIONS, { error: 'validation.depositDecisionInvalid' }).optional(),
    depositReason: zOptionalText(ORDER_LIMITS.reasonMaxLength),
    /** What is owed, paid now; `balance` takes it from the customer named. */
    payment: z
      .object({ amount: ZOrderAmount, method: ZPaymentMethod, ...customerRef }, { error: 'validation.paymentInvalid' })
      .refine(balanceNamesCustomer, customerRequired)
      .optional(),
    /** How money due back is returned: required when money is handed back (money from a balance always goes back to it). */
    refundMethod: ZMoneyMethod.optional(),
    /** Instead of the payment: the guest leaves owing what is owed, and why (the bill stays collectable). */
    leaveOwing: z
      .object(
        {
          reason: z.enum(DESK_OWING_REASONS, { error: 'validation.owingReasonInvalid' }),
          note: z.string({ error: 'validation.textInvalid' }).trim().max(ORDER_LIMITS.reasonMaxLength, { error: 'validation.textTooLong' }).default(''),
        },
        { error: 'validation.owingReasonInvalid' },
      )
      .refine((v) => v.reason !== 'other' || v.note !== '', { error: 'validation.owingNoteRequired', path: ['note'] })
      .optional(),
  })
  .refine((v) => !(v.payment && v.leaveOwing), { error: 'validation.paymentOrOwing', path: ['leaveOwing'], ...WHEN_FIELDS_VALID })
  .refine((v) => v.deposit !== 'keep' || v.depositReason !== '', { error: 'validation.depositReasonRequired', path: ['depositReason'], ...WHEN_FIELDS_VALID });
export type TSettleInput = z.input<typeof ZSettleInput>;

/**
 * A reservation cancelled before its guest arrived: a reason (and a note, required for `other`); and
 * when it holds money (a deposit), what becomes of it, the clerk's choice, never assumed (issue 36):
 * refunded, in a way the clerk names, or kept as a cancellation fee, with the reason.
 */
export const ZCancelReservationInput = z
  .object({
    stayId: ZId,
    reason: z.enum(CANCEL_REASONS, { error: 'reservations.validation.reasonRequired' }),
    note: zOptionalText(LIMITS.remarkMaxLength),
    deposit: z.enum(DEPOSIT_DECISIONS, { error: 'validation.depositDecisionInvalid' }).optional(),
    depositReason: zOptionalText(ORDER_LIMITS.reasonMaxLength),
    refundMethod: ZMoneyMethod.optional(),
  })
  .refine((v) => v.reason !== 'other' || v.note.length > 0, { error: 'reservations.validation.noteRequired', path: ['note'], ...whenValid('reason', 'note') })
  .refine((v) => v.deposit !== 'keep' || v.depositReason !== '', { error: 'validation.depositReasonRequired', path: ['depositReason'], ...WHEN_FIELDS_VALID })
  .refine((v) => v.deposit !== 'refund' || v.refundMethod !== undefined, {
    error: 'validation.refundMethodRequired',
    path: ['refundMethod'],
    ...WHEN_FIELDS_VALID,
  });
export type TCancelReservationInput = z.input<typeof ZCancelReservationInput>;

export const ZOrderListInput = ZPageInput.extend({
  kinds: z.array(ZOrderEntryKind, { error: 'validation.orderKindInvalid' }).max(ORDER_ENTRY_KINDS.length, { error: 'validation.orderKindInvalid' }).optional(),
  method: ZPaymentMethod.optional(),
  stayId: ZId.optional(),
  roomId: ZId.optional(),
  customerId: ZId.optional(),
  operatorId: ZId.optional(),
  /** Hotel calendar dates, both included. */
  from: ZLocalDate.optional(),
  to: ZLocalDate.optional(),
}).refine((v) => !v.from || !v.to || v.from <= v.to, { error: 'validation.endAfterStart', path: ['to'], ...WHEN_FIELDS_VALID });
export type TOrderListInput = z.input<typeof ZOrderListInput>;

/** A day's cash report (the shift hand-over): one hotel calendar date, optionally one operator. */
export const ZCashReportInput = z.object({ date: ZLocalDate, operatorId: ZId.optional() });
export type TCashReportInput = z.input<typeof ZCashReportInput>;

/**
 * Cashier shifts (docs/orders.md "Cashier shifts"): a clerk opens one with the cash float counted
 * (an amount the clerk types: no default), and closes it by counting what is in hand per way of
 * paying (cash at least, and every way the shift took money by). Counts are integers in minor units;
 * cash cannot be negative, a card terminal's batch can (refunds beyond takings).
 */
export const ZShiftOpenInput = z.object({
  openingFloat: zInt({ min: 0, max: ORDER_LIMITS.amountMax }, 'validation.amountInvalid', 'validation.amountRequired'),
  /** Why the float counted differs from what the last close left in the drawer (needed then). */
  note: ZOrderNote.optional(),
});
export type TShiftOpenInput = z.input<typeof ZShiftOpenInput>;

export const ZShiftCount = zInt({ min: -ORDER_LIMITS.amountMax, max: ORDER_LIMITS.amountMax }, 'validation.amountInvalid', 'validation.amountRequired');
/** The cash left in the drawer for the next shift at a close: 0 or more (within the cash counted: ZShiftCloseInput). */
export const ZShiftLeftInDrawer = zInt({ min: 0, max: ORDER_LIMITS.amountMax }, 'validation.amountInvalid', 'validation.amountRequired');

export const ZShiftCloseInput = z
  .object({
    shiftId: ZId,
    /** What was counted per way of paying (not `balance`: that money came in with the recharge). */
    counted: z.partialRecord(ZMoneyMethod, ZShiftCount, { error: 'validation.amountInvalid' }),
    note: ZOrderNote,
    /**
     * The cash left in the drawer for the next shift; the rest of the cash counted goes to the safe.
     * The console always asks; a legacy client that does not say leaves it unknown (no handover).
     */
    leftInDrawer: ZShiftLeftInDrawer.optional(),
  })
  .refine((v) => v.counted.cash !== undefined, { error: 'validation.amountRequired', path: ['counted', 'cash'] })
  .refine((v) => (v.counted.cash ?? 0) >= 0, { error: 'validation.amountInvalid', path: ['counted', 'cash'], ...WHEN_FIELDS_VALID })
  .refine((v) => v.leftInDrawer === undefined || v.leftInDrawer <= (v.counted.cash ?? 0), {
    error: 'shifts.validation.leftMoreThanCounted',
    path: ['leftInDrawer'],
    ...WHEN_FIELDS_VALID,
  });
export type TShiftCloseInput = z.input<typeof ZShiftCloseInput>;

/**
 * Whether a shift's count differs from what the ledger expects in hand, on any way of paying
 * (`expected` by way; a way counted that the shift never took expects 0). A count that differs
 * needs a note before the shift closes: a cashier supervisor reads why, never a bare difference
 * (issue 36 §7). Per way, not in total: 10.00 over in cash and 10.00 short by card is two mistakes.
 */
export function shiftCountDiffers(expected: Partial<Record<string, number>>, counted: Partial<Record<string, number | undefined>>): boolean {
  return Object.entries(counted).some(([method, amount]) => amount !== undefined && amount !== (expected[method] ?? 0));
}

export const ZShiftIdInput = z.object({ shiftId: ZId });

/** Shifts listed: every clerk's with `order.manage`, one's own otherwise; opened within the dates (hotel calendar, both included). */
export const ZShiftListInput = ZPageInput.extend({
  operatorId: ZId.optional(),
  from: ZLocalDate.optional(),
  to: ZLocalDate.optional(),
}).refine((v) => !v.from || !v.to || v.from <= v.to, { error: 'validation.endAfterStart', path: ['to'], ...WHEN_FIELDS_VALID });
export type TShiftListInput = z.input<typeof ZShiftListInput>;
