import type { QueryClient } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';

/** Invoices and credit notes (issue 36, docs/invoices.md): the queries of the bill's section, and the printable page (the settings card's legal details: features/settings). */
export const invoiceQueries = {
  /** What the dialog proposes for a stay's bill, and whether it can be invoiced now. */
  draft: (stayId: number) => trpc.invoice.draft.queryOptions({ stayId }, { meta: { showsErrors: true } }),
  /** The invoices and credit notes of a stay's bill, newest first. */
  ofStay: (stayId: number) => trpc.invoice.list.queryOptions({ stayId, page: 1, pageSize: 50 }, { meta: { showsErrors: true } }),
  one: (id: number) => trpc.invoice.get.queryOptions({ id }, { meta: { showsErrors: true } }),
};

/** An invoice issued or credited: the bill's invoices and what it proposes. */
export const invalidateInvoices = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.invoice.pathKey() });

/** Where the browser downloads an invoice's PDF (written in the invoice's language; errors in the console's). */
export const invoicePdfUrl = (id: number, lang: string) => `/api/invoices/${id}/pdf?${new URLSearchParams({ lang }).toString()}`;
