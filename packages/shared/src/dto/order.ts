import { z } from 'zod';
import { ORDER_ENTRY_KINDS, OWING_REASONS, PAYMENT_METHODS } from '../orders';

export const ZOrderEntryDto = z.object({
  id: z.number(),
  kind: z.enum(ORDER_ENTRY_KINDS),
  amount: z.number(),
  currency: z.string(),
  method: z.enum(PAYMENT_METHODS).nullable(),
  note: z.string(),
  stayId: z.number().nullable(),
  roomId: z.number().nullable(),
  roomName: z.string().nullable(),
  customerId: z.number().nullable(),
  customerName: z.string().nullable(),
  folioId: z.number().nullable(),
  linkedEntryId: z.number().nullable(),
  operator: z.object({ id: z.number(), nickname: z.string() }).nullable(),
  createdAt: z.string(),
  refundable: z.number().nullable(),
  correctedById: z.number().nullable(),
  balanceChange: z.number().nullable(),
});
export type TOrderEntryDto = z.infer<typeof ZOrderEntryDto>;

export const ZSettlementPreview = z.object({
  departureAt: z.string(),
  early: z.boolean(),
  roomCharge: z.object({ full: z.number(), due: z.number(), posted: z.number() }),
  unusedNights: z.array(z.object({ date: z.string(), price: z.number() })),
  depositHeld: z.number(),
  ifDepositRefunded: z.object({ refunded: z.number(), owed: z.number() }),
  ifDepositKept: z.object({ refunded: z.number(), owed: z.number(), kept: z.number() }),
});
export type TSettlementPreview = z.infer<typeof ZSettlementPreview>;

export const ZFolioDto = z.object({
  folioId: z.number().nullable(),
  stayId: z.number(),
  stayIds: z.array(z.number()),
  roomId: z.number(),
  roomName: z.string(),
  currency: z.string(),
  state: z.enum(['open', 'owing', 'settled']),
  settledAt: z.string().nullable(),
  owing: z.object({ at: z.string(), amount: z.number(), reason: z.enum(OWING_REASONS), note: z.string() }).nullable(),
  settlement: z.unknown(),
  entries: z.array(ZOrderEntryDto),
  totals: z.object({
    refund: z.number(),
    deposit: z.number(),
    payment: z.number(),
    recharge: z.number(),
    room_charge: z.number(),
    charge: z.number(),
    correction: z.number(),
  }),
  balance: z.number(),
  owed: z.number(),
  dueBack: z.number(),
  depositHeld: z.number(),
  preview: ZSettlementPreview.nullable(),
});
export type TFolioDto = z.infer<typeof ZFolioDto>;

export const ZFolioSummary = z.object({
  folioId: z.number(),
  balance: z.number(),
  owed: z.number(),
  dueBack: z.number(),
  depositHeld: z.number(),
  settled: z.boolean(),
});
export type TFolioSummary = z.infer<typeof ZFolioSummary>;

export const ZEntryResult = z.object({ entry: ZOrderEntryDto, folio: ZFolioSummary.nullable(), replayed: z.boolean() });
export type TEntryResult = z.infer<typeof ZEntryResult>;

export const ZCustomerBalanceDto = z.object({
  customer: z.object({ id: z.number(), nickname: z.string(), mobile: z.string().nullable(), frozen: z.boolean() }),
  balance: z.number(),
  currency: z.string(),
  recent: z.array(ZOrderEntryDto),
});
export type TCustomerBalanceDto = z.infer<typeof ZCustomerBalanceDto>;

export const ZOrderListResult = z.object({
  items: z.array(ZOrderEntryDto),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  sum: z.number(),
  totals: z.object({ received: z.number(), refunded: z.number(), charged: z.number(), corrected: z.number(), net: z.number() }),
  currency: z.string(),
});
export type TOrderListResult = z.infer<typeof ZOrderListResult>;

export const ZCashLine = z.object({
  method: z.enum(PAYMENT_METHODS),
  deposits: z.number(),
  payments: z.number(),
  recharges: z.number(),
  refunds: z.number(),
  corrections: z.number(),
  net: z.number(),
  count: z.number(),
});
export type TCashLine = z.infer<typeof ZCashLine>;

export const ZCashReport = z.object({
  date: z.string(),
  timeZone: z.string(),
  currency: z.string(),
  from: z.string(),
  to: z.string(),
  operators: z.array(
    z.object({
      operator: z.object({ id: z.number(), nickname: z.string() }).nullable(),
      methods: z.array(ZCashLine),
      net: z.number(),
      cash: z.number(),
      count: z.number(),
    }),
  ),
  methods: z.array(ZCashLine),
  net: z.number(),
  cash: z.number(),
});
export type TCashReport = z.infer<typeof ZCashReport>;

export const ZOrderFolioOutput = ZFolioDto;
export const ZOrderPostRoomChargeOutput = z.object({ entries: z.array(ZOrderEntryDto), folio: ZFolioSummary });
export const ZOrderRecordChargeOutput = ZEntryResult;
export const ZOrderRecordDepositOutput = ZEntryResult;
export const ZOrderRecordPaymentOutput = ZEntryResult;
export const ZOrderRefundOutput = z.object({ entry: ZOrderEntryDto, folio: ZFolioSummary.nullable(), replayed: z.boolean(), refundableLeft: z.number() });
export const ZOrderCorrectOutput = ZEntryResult;
export const ZOrderSettleOutput = ZFolioDto;
export const ZOrderRechargeOutput = z.object({ entry: ZOrderEntryDto, folio: ZFolioSummary.nullable(), replayed: z.boolean(), balance: z.number() });
export const ZOrderCustomerBalanceOutput = ZCustomerBalanceDto;
export const ZOrderListOutput = ZOrderListResult;
export const ZOrderCashReportOutput = ZCashReport;
