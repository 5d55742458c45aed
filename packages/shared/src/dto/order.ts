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
  /** The taxes included in a charge's amount, as the journal booked them (null: none). */
  taxIncluded: z.number().nullable(),
  /** A tax charge (added on top of a charge, or the city tax): it follows its charge or the stay's nights, never corrected alone. */
  tax: z.boolean(),
});
export type TOrderEntryDto = z.infer<typeof ZOrderEntryDto>;

export const ZSettlementPreview = z.object({
  departureAt: z.string(),
  early: z.boolean(),
  roomCharge: z.object({ full: z.number(), due: z.number(), posted: z.number() }),
  unusedNights: z.array(z.object({ date: z.string(), price: z.number() })),
  depositHeld: z.number(),
  /**
   * `handedBack`: the part of `refunded` handed back in money (not to a customer's balance), in the
   * way the clerk names; `towardBill`: the part of the deposit that pays what is owed instead.
   */
  ifDepositRefunded: z.object({ refunded: z.number(), handedBack: z.number(), towardBill: z.number(), owed: z.number() }),
  ifDepositKept: z.object({ refunded: z.number(), handedBack: z.number(), owed: z.number(), kept: z.number() }),
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

/** A way of paying in a shift: what moved by it (as in the cash report), what the ledger says is in hand, what was counted. */
export const ZShiftLine = ZCashLine.extend({
  /** The float (cash only) plus what moved. */
  expected: z.number(),
  counted: z.number().nullable(),
  difference: z.number().nullable(),
});
export type TShiftLine = z.infer<typeof ZShiftLine>;

/** A close's drawer handed over: the shift closed, by whom and when, and the cash it left in the drawer. */
export const ZShiftHandover = z.object({
  shiftId: z.number(),
  operator: z.object({ id: z.number(), nickname: z.string() }),
  closedAt: z.string(),
  leftInDrawer: z.number(),
});
export type TShiftHandover = z.infer<typeof ZShiftHandover>;

export const ZShiftDto = z.object({
  id: z.number(),
  operator: z.object({ id: z.number(), nickname: z.string() }),
  openedAt: z.string(),
  closedAt: z.string().nullable(),
  closedBy: z.object({ id: z.number(), nickname: z.string() }).nullable(),
  openingFloat: z.number(),
  currency: z.string(),
  /** Every way of paying the shift moved money by, and cash always. */
  methods: z.array(ZShiftLine),
  /** What is handed over by the ledger (balance excluded), with the float. */
  expected: z.number(),
  counted: z.number().nullable(),
  difference: z.number().nullable(),
  count: z.number(),
  note: z.string(),
  /** At close: the cash left in the drawer for the next shift, and what went to the safe (the rest of the cash counted); null when not said. */
  leftInDrawer: z.number().nullable(),
  toSafe: z.number().nullable(),
  /** At open: the close it took the drawer over from, what that close left, and why the float differs from it. */
  handedOver: ZShiftHandover.nullable(),
  openingNote: z.string(),
});
export type TShiftDto = z.infer<typeof ZShiftDto>;

export const ZOrderShiftOpenOutput = ZShiftDto;
export const ZOrderShiftCurrentOutput = ZShiftDto.nullable();
/** The hotel's latest close that left cash in the drawer: what the next shift takes over (null: none). */
export const ZOrderShiftHandoverOutput = ZShiftHandover.nullable();
export const ZOrderShiftCloseOutput = ZShiftDto;
export const ZOrderShiftGetOutput = ZShiftDto;
export const ZOrderShiftsOutput = z.object({ items: z.array(ZShiftDto), total: z.number(), page: z.number(), pageSize: z.number() });

/** The figures of a hotel calendar day (docs/reports.md); amounts in minor units, occupancy in percent (one decimal). */
export const ZDayFigures = z.object({
  rooms: z.object({ total: z.number(), outOfOrder: z.number(), available: z.number(), sold: z.number() }),
  occupancy: z.number(),
  adr: z.number(),
  revpar: z.number(),
  arrivals: z.number(),
  departures: z.number(),
  stayOvers: z.number(),
  noShows: z.number(),
  cancellations: z.number(),
  /**
   * Revenue net of the taxes included in the price (docs/journal.md "Taxes"), and those taxes. A day
   * frozen before taxes were booked has none (0).
   */
  revenue: z.object({ roomCharges: z.number(), charges: z.number(), total: z.number(), taxes: z.number().default(0) }),
  /** Money that changed hands, by way of paying (as the cash report's lines). */
  methods: z.array(ZCashLine),
  received: z.number(),
  refunded: z.number(),
  owing: z.object({ count: z.number(), total: z.number() }),
  depositsHeld: z.number(),
});
export type TDayFigures = z.infer<typeof ZDayFigures>;

export const ZDayReport = ZDayFigures.extend({
  date: z.string(),
  timeZone: z.string(),
  currency: z.string(),
  /** Closed: the figures frozen at the close; open: as the ledger and the stays say now. */
  closed: z.boolean(),
  closedAt: z.string().nullable(),
  closedBy: z.object({ id: z.number(), nickname: z.string() }).nullable(),
  /** Closed by the hotel's set hour (`dayCloseTime`), not by a manager. */
  closedAutomatically: z.boolean(),
});
export type TDayReport = z.infer<typeof ZDayReport>;

export const ZReportRange = z.object({
  from: z.string(),
  to: z.string(),
  currency: z.string(),
  days: z.array(ZDayReport),
  /** The range's sums (rooms: room-nights; occupancy, ADR and RevPAR over the range's room-nights). */
  total: ZDayFigures,
});
export type TReportRange = z.infer<typeof ZReportRange>;
