import { ZInvoiceDetails, ZInvoiceDraft, ZInvoiceDto, ZInvoiceList } from '@console/shared/dto';
import { ZCreditInvoiceInput, ZFolioInput, ZInvoiceDetailsInput, ZInvoiceIdInput, ZInvoiceListInput, ZIssueInvoiceInput } from '@console/shared';
import { creditInvoice, getInvoice, invoiceDetails, invoiceDraft, issueInvoice, listInvoices, setInvoiceDetails } from '../modules/invoices/invoices.service';
import { authedProcedure, router } from './init';

/** Invoices and credit notes (issue 36, docs/invoices.md). */
export const invoiceRouter = router({
  draft: authedProcedure
    .input(ZFolioInput)
    .output(ZInvoiceDraft)
    .query(({ ctx, input }) => invoiceDraft(ctx, input)),
  issue: authedProcedure
    .input(ZIssueInvoiceInput)
    .output(ZInvoiceDto)
    .mutation(({ ctx, input }) => issueInvoice(ctx, input)),
  credit: authedProcedure
    .input(ZCreditInvoiceInput)
    .output(ZInvoiceDto)
    .mutation(({ ctx, input }) => creditInvoice(ctx, input)),
  get: authedProcedure
    .input(ZInvoiceIdInput)
    .output(ZInvoiceDto)
    .query(({ ctx, input }) => getInvoice(ctx, input)),
  list: authedProcedure
    .input(ZInvoiceListInput)
    .output(ZInvoiceList)
    .query(({ ctx, input }) => listInvoices(ctx, input)),
  details: authedProcedure.output(ZInvoiceDetails).query(({ ctx }) => invoiceDetails(ctx)),
  setDetails: authedProcedure
    .input(ZInvoiceDetailsInput)
    .output(ZInvoiceDetails)
    .mutation(({ ctx, input }) => setInvoiceDetails(ctx, input)),
});
