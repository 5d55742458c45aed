import { ZCashReportInput, ZChargeInput, ZCorrectInput, ZCustomerBalanceInput, ZFolioInput, ZOrderListInput, ZRechargeInput, ZRefundInput, ZSettleInput, ZStayMoneyInput } from '@console/shared';
import { correctEntry, customerBalance, postRoomCharge, rechargeCustomer, recordCharge, recordDeposit, recordPayment, refundEntry } from '../modules/orders/ledger.service';
import { cashReport, listOrders } from '../modules/orders/order-list';
import { getFolio, settleFolio } from '../modules/orders/settlement.service';
import { authedProcedure, router } from './init';

/** The orders ledger (docs/orders.md): a stay's folio and its settlement, refunds, corrections, recharges, the order list and the cash report. */
export const orderRouter = router({
  folio: authedProcedure.input(ZFolioInput).query(({ ctx, input }) => getFolio(ctx, input)),
  postRoomCharge: authedProcedure.input(ZFolioInput).mutation(({ ctx, input }) => postRoomCharge(ctx, input)),
  recordCharge: authedProcedure.input(ZChargeInput).mutation(({ ctx, input }) => recordCharge(ctx, input)),
  recordDeposit: authedProcedure.input(ZStayMoneyInput).mutation(({ ctx, input }) => recordDeposit(ctx, input)),
  recordPayment: authedProcedure.input(ZStayMoneyInput).mutation(({ ctx, input }) => recordPayment(ctx, input)),
  refund: authedProcedure.input(ZRefundInput).mutation(({ ctx, input }) => refundEntry(ctx, input)),
  correct: authedProcedure.input(ZCorrectInput).mutation(({ ctx, input }) => correctEntry(ctx, input)),
  settle: authedProcedure.input(ZSettleInput).mutation(({ ctx, input }) => settleFolio(ctx, input)),
  recharge: authedProcedure.input(ZRechargeInput).mutation(({ ctx, input }) => rechargeCustomer(ctx, input)),
  customerBalance: authedProcedure.input(ZCustomerBalanceInput).query(({ ctx, input }) => customerBalance(ctx, input)),
  list: authedProcedure.input(ZOrderListInput).query(({ ctx, input }) => listOrders(ctx, input)),
  cashReport: authedProcedure.input(ZCashReportInput).query(({ ctx, input }) => cashReport(ctx, input)),
});
