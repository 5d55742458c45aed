import { createFileRoute } from '@tanstack/react-router';
import { InvoicePage } from '@/features/invoices/invoice-page';

/** An invoice or credit note as issued, printable (issue 36, docs/invoices.md). */
export const Route = createFileRoute('/_auth/invoice/$invoiceId')({
  staticData: { titleKey: 'route.invoice', sectionKey: 'menu.orders' },
  component: InvoicePage,
});
