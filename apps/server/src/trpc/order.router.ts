import {
  ZOrderFolioOutput,
  ZOrderPostRoomChargeOutput,
  ZOrderRecordChargeOutput,
  ZOrderRecordDepositOutput,
  ZOrderRecordPaymentOutput,
  ZOrderRefundOutput,
  ZOrderCorrectOutput,
  ZOrderSettleOutput,
  ZOrderRechargeOutput,
  ZOrderCustomerBalanceOutput,
  ZOrderListOutput,
  ZOrderCashReportOutput,
  ZOrderShiftOpenOutput,
  ZOrderShiftCurrentOutput,
  ZOrderShiftHandoverOutput,
  ZOrderShiftCloseOutput,
  ZOrderShiftGetOutput,
  ZOrderShiftsOutput,
  ZDayReport,
  ZAuditChecks,
  ZReportRange,
  ZTrialBalance,
  ZJournalLinesOutput,
  ZAccountCodes,
} from '@console/shared/dto';
import {
  ZCashReportInput,
  ZChargeInput,
  ZCorrectInput,
  ZCustomerBalanceInput,
  ZFolioInput,
  ZOrderListInput,
  ZRechargeInput,
  ZRefundInput,
  ZSettleInput,
  ZStayMoneyInput,
  ZShiftCloseInput,
  ZShiftIdInput,
  ZShiftListInput,
  ZShiftOpenInput,
  ZDayReportInput,
  ZReportRangeInput,
  ZTrialBalanceInput,
  ZJournalLinesInput,
  ZAccountCodesInput,
} from '@console/shared';
import { customerBalance, rechargeCustomer } from '../modules/orders/balances';
import { recordDeposit, recordPayment } from '../modules/orders/payments';
import { postRoomCharge, recordCharge } from '../modules/orders/posting';
import { correctEntry, refundEntry } from '../modules/orders/refunds';
import { cashReport, listOrders } from '../modules/orders/order-list';
import { getFolio, settleFolio } from '../modules/orders/settlement.service';
import { closeShift, currentShift, getShift, listShifts, openShift, shiftHandover } from '../modules/orders/shifts';
import { dayReport, reportRange } from '../modules/reports/day-report';
import { closeDay } from '../modules/reports/day-close';
import { auditChecks } from '../modules/reports/audit-checks';
import { trialBalance } from '../modules/journal/trial-balance';
import { journalLines } from '../modules/journal/journal-lines';
import { accountCodes, setAccountCodes } from '../modules/journal/account-codes';
import { authedProcedure, router } from './init';

/** The orders ledger (docs/orders.md): a stay's folio and its settlement, refunds, corrections, recharges, the order list and the cash report. */
export const orderRouter = router({
  folio: authedProcedure
    .input(ZFolioInput)

    .output(ZOrderFolioOutput)
    .query(({ ctx, input }) => getFolio(ctx, input)),
  postRoomCharge: authedProcedure
    .input(ZFolioInput)

    .output(ZOrderPostRoomChargeOutput)
    .mutation(({ ctx, input }) => postRoomCharge(ctx, input)),
  recordCharge: authedProcedure
    .input(ZChargeInput)

    .output(ZOrderRecordChargeOutput)
    .mutation(({ ctx, input }) => recordCharge(ctx, input)),
  recordDeposit: authedProcedure
    .input(ZStayMoneyInput)

    .output(ZOrderRecordDepositOutput)
    .mutation(({ ctx, input }) => recordDeposit(ctx, input)),
  recordPayment: authedProcedure
    .input(ZStayMoneyInput)

    .output(ZOrderRecordPaymentOutput)
    .mutation(({ ctx, input }) => recordPayment(ctx, input)),
  refund: authedProcedure
    .input(ZRefundInput)

    .output(ZOrderRefundOutput)
    .mutation(({ ctx, input }) => refundEntry(ctx, input)),
  correct: authedProcedure
    .input(ZCorrectInput)

    .output(ZOrderCorrectOutput)
    .mutation(({ ctx, input }) => correctEntry(ctx, input)),
  settle: authedProcedure
    .input(ZSettleInput)

    .output(ZOrderSettleOutput)
    .mutation(({ ctx, input }) => settleFolio(ctx, input)),
  recharge: authedProcedure
    .input(ZRechargeInput)

    .output(ZOrderRechargeOutput)
    .mutation(({ ctx, input }) => rechargeCustomer(ctx, input)),
  customerBalance: authedProcedure
    .input(ZCustomerBalanceInput)

    .output(ZOrderCustomerBalanceOutput)
    .query(({ ctx, input }) => customerBalance(ctx, input)),
  list: authedProcedure
    .input(ZOrderListInput)

    .output(ZOrderListOutput)
    .query(({ ctx, input }) => listOrders(ctx, input)),
  cashReport: authedProcedure
    .input(ZCashReportInput)

    .output(ZOrderCashReportOutput)
    .query(({ ctx, input }) => cashReport(ctx, input)),
  // Cashier shifts (docs/orders.md "Cashier shifts").
  shiftOpen: authedProcedure
    .input(ZShiftOpenInput)
    .output(ZOrderShiftOpenOutput)
    .mutation(({ ctx, input }) => openShift(ctx, input)),
  shiftCurrent: authedProcedure.output(ZOrderShiftCurrentOutput).query(({ ctx }) => currentShift(ctx)),
  shiftHandover: authedProcedure.output(ZOrderShiftHandoverOutput).query(({ ctx }) => shiftHandover(ctx)),
  shiftClose: authedProcedure
    .input(ZShiftCloseInput)
    .output(ZOrderShiftCloseOutput)
    .mutation(({ ctx, input }) => closeShift(ctx, input)),
  shift: authedProcedure
    .input(ZShiftIdInput)
    .output(ZOrderShiftGetOutput)
    .query(({ ctx, input }) => getShift(ctx, input)),
  shifts: authedProcedure
    .input(ZShiftListInput)
    .output(ZOrderShiftsOutput)
    .query(({ ctx, input }) => listShifts(ctx, input)),
  // The manager's day (docs/reports.md).
  dayReport: authedProcedure
    .input(ZDayReportInput)
    .output(ZDayReport)
    .query(({ ctx, input }) => dayReport(ctx, input)),
  // The night audit's checks of a day, read before its close.
  auditChecks: authedProcedure
    .input(ZDayReportInput)
    .output(ZAuditChecks)
    .query(({ ctx, input }) => auditChecks(ctx, input)),
  closeDay: authedProcedure
    .input(ZDayReportInput)
    .output(ZDayReport)
    .mutation(({ ctx, input }) => closeDay(ctx, input)),
  reportRange: authedProcedure
    .input(ZReportRangeInput)
    .output(ZReportRange)
    .query(({ ctx, input }) => reportRange(ctx, input)),
  // The journal's trial balance of a business date (docs/journal.md).
  trialBalance: authedProcedure
    .input(ZTrialBalanceInput)
    .output(ZTrialBalance)
    .query(({ ctx, input }) => trialBalance(ctx, input)),
  // Its drill-down: the day's lines on one account (and way of paying, and shift).
  journalLines: authedProcedure
    .input(ZJournalLinesInput)
    .output(ZJournalLinesOutput)
    .query(({ ctx, input }) => journalLines(ctx, input)),
  // The hotel's chart-of-accounts codes, which the general-ledger export writes.
  accountCodes: authedProcedure.output(ZAccountCodes).query(({ ctx }) => accountCodes(ctx)),
  setAccountCodes: authedProcedure
    .input(ZAccountCodesInput)
    .output(ZAccountCodes)
    .mutation(({ ctx, input }) => setAccountCodes(ctx, input)),
});
