import { z } from 'zod';
import { ZCreditInvoiceInput, ZId, ZIssueInvoiceInput } from '@console/shared';
import { ZInvoiceDto, ZInvoiceList } from '@console/shared/dto';
import { invoicePdf } from '../../modules/invoices/invoice-pdf';
import { creditInvoice, getInvoice, issueInvoice, listInvoices } from '../../modules/invoices/invoices.service';
import { ZCursorQuery, cursorPage, numberedPage, pageFrom } from './cursor';
import { apiRoute, fieldsOf, itemOf, type ApiRoute } from './route';

const ZStayPath = z.object({ stayId: ZId });
const ZInvoicePath = z.object({ invoiceId: ZId });

/**
 * Invoices and credit notes over the JSON API (issue 36, docs/invoices.md): the services of tRPC's
 * `invoice.*`, the same rules (a final bill only, numbers without gaps, a correction after invoicing
 * is a credit note), the `Idempotency-Key` being the request's id (sent again: the same document).
 */
export const INVOICE_ROUTES: ApiRoute[] = [
  apiRoute({
    method: 'GET',
    path: '/stays/{stayId}/invoices',
    operationId: 'listStayInvoices',
    tag: 'Invoices',
    summary: "The invoices and credit notes of a stay's bill",
    description:
      "Newest first, each with its number, its document (the hotel's legal details, the buyer, the lines and their taxes) and whether a credit note cancelled it.",
    permission: 'stay.manage',
    params: ZStayPath,
    query: ZCursorQuery,
    response: cursorPage(itemOf(ZInvoiceList)),
    async handle(ctx, { params, query }) {
      const { page, pageSize } = pageFrom(query.cursor, query.limit);
      const result = await listInvoices(ctx, { stayId: params.stayId, page, pageSize });
      return numberedPage(result.items, page, pageSize, result.total);
    },
  }),
  apiRoute({
    method: 'POST',
    path: '/stays/{stayId}/invoices',
    operationId: 'issueInvoice',
    tag: 'Invoices',
    summary: "Issue the invoice of a stay's bill",
    description:
      "Only a final bill (settled, or left owing) is invoiced, once (a second standing invoice is refused, 409); numbered without gaps per hotel, in the `language` asked for, to `buyer`. The `Idempotency-Key` is the request's id for good: sent again, it answers the same invoice.",
    permission: 'stay.manage',
    params: ZStayPath,
    body: fieldsOf(ZIssueInvoiceInput, 'stayId', 'requestId'),
    response: ZInvoiceDto,
    status: 201,
    handle: (ctx, { params, body, idempotencyKey }) => issueInvoice(ctx, { ...body, stayId: params.stayId, requestId: idempotencyKey }),
  }),
  apiRoute({
    method: 'GET',
    path: '/invoices/{invoiceId}',
    operationId: 'getInvoice',
    tag: 'Invoices',
    summary: 'An invoice or credit note',
    permission: 'stay.manage',
    params: ZInvoicePath,
    response: ZInvoiceDto,
    handle: (ctx, { params }) => getInvoice(ctx, { id: params.invoiceId }),
  }),
  apiRoute({
    method: 'GET',
    path: '/invoices/{invoiceId}/pdf',
    operationId: 'getInvoicePdf',
    tag: 'Invoices',
    summary: 'An invoice or credit note as a PDF',
    description:
      "The document as issued, on A4 pages in its own language (right to left in Arabic), with the hotel's legal details, the lines, the taxes and the totals: what the console's printable page shows, to file or to e-mail to the guest.",
    permission: 'stay.manage',
    params: ZInvoicePath,
    response: z.string().meta({ contentMediaType: 'application/pdf', description: 'The PDF document (`Content-Disposition` gives its file name).' }),
    file: 'application/pdf',
    handle: (ctx, { params }) => invoicePdf(ctx, { id: params.invoiceId }),
  }),
  apiRoute({
    method: 'POST',
    path: '/invoices/{invoiceId}/credit-note',
    operationId: 'creditInvoice',
    tag: 'Invoices',
    summary: 'Cancel an invoice by a credit note',
    description:
      "A correction after invoicing is a credit note, never an edit: it is numbered in the same series, says why (`reason`) and cancels the invoice once (a second is refused, 409). The `Idempotency-Key` is the request's id: sent again, it answers the same credit note.",
    permission: 'order.manage',
    params: ZInvoicePath,
    body: fieldsOf(ZCreditInvoiceInput, 'invoiceId', 'requestId'),
    response: ZInvoiceDto,
    status: 201,
    handle: (ctx, { params, body, idempotencyKey }) => creditInvoice(ctx, { ...body, invoiceId: params.invoiceId, requestId: idempotencyKey }),
  }),
];
