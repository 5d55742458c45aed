import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatShortDateTime } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { invoiceQueries } from './api';
import { CreditInvoiceDialog } from './credit-invoice-dialog';
import { IssueInvoiceDialog } from './issue-invoice-dialog';

/**
 * The invoices of a final bill (settled, or left owing; docs/invoices.md), under its entries: each
 * with its number, date and total and a link to its printable page; "Issue invoice" while none
 * stands; a manager cancels one with a credit note.
 */
export function BillInvoices({ stayId, timeZone }: { stayId: number; timeZone: string }) {
  const { t } = useTranslation();
  const canCredit = hasPermission(useUserInfo(), 'order.manage');
  const draft = useQuery(invoiceQueries.draft(stayId));
  const list = useQuery(invoiceQueries.ofStay(stayId));
  const [issuing, setIssuing] = useState(false);
  const [crediting, setCrediting] = useState<{ id: number; number: number } | null>(null);
  const [issued, setIssued] = useState<number | null>(null);
  const navigate = useNavigate();
  // The invoice issued opens once its dialog is gone (a form still on screen would ask to discard its text).
  useEffect(() => {
    if (issued !== null && !issuing) void navigate({ to: '/invoice/$invoiceId', params: { invoiceId: String(issued) } });
  }, [issued, issuing, navigate]);
  const items = list.data?.items ?? [];
  return (
    <div className="grid gap-2 border-t pt-3" data-testid="bill-invoices">
      <div className="flex flex-wrap items-center gap-2">
        <h4 className="text-sm font-semibold">{t('invoices.heading')}</h4>
        {draft.data?.state === 'ready' && (
          <Button size="sm" className="ms-auto" onClick={() => setIssuing(true)} data-testid="invoice-issue">
            {t('invoices.issue')}
          </Button>
        )}
      </div>
      {list.data && items.length === 0 && <p className="text-muted-foreground text-sm">{t('invoices.none')}</p>}
      <ul className="grid gap-1">
        {items.map((invoice) => (
          <li
            key={invoice.id}
            className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm"
            data-testid="bill-invoice"
            data-number={invoice.number}
            data-kind={invoice.kind}
          >
            <span className="font-medium">
              {t(invoice.kind === 'invoice' ? 'invoices.title' : 'invoices.creditNote')} {t('invoices.number', { number: invoice.number })}
            </span>
            <span className="text-muted-foreground tabular-nums">{formatShortDateTime(invoice.issuedAt, timeZone)}</span>
            <span className="tabular-nums" dir="ltr">
              {formatMoney(invoice.total, invoice.currency)}
            </span>
            {invoice.creditedBy && <Badge variant="outline">{t('invoices.creditedBy', { number: invoice.creditedBy.number })}</Badge>}
            <span className="ms-auto flex gap-2">
              <Button asChild size="sm" variant="ghost">
                <Link to="/invoice/$invoiceId" params={{ invoiceId: String(invoice.id) }} data-testid="bill-invoice-view">
                  {t('invoices.view')}
                </Link>
              </Button>
              {canCredit && invoice.kind === 'invoice' && !invoice.creditedBy && (
                <Button size="sm" variant="ghost" onClick={() => setCrediting({ id: invoice.id, number: invoice.number })} data-testid="bill-invoice-credit">
                  {t('invoices.credit')}
                </Button>
              )}
            </span>
          </li>
        ))}
      </ul>
      {draft.data && issuing && (
        <IssueInvoiceDialog stayId={stayId} draft={draft.data} open={issuing} onOpenChange={setIssuing} onIssued={(invoice) => setIssued(invoice.id)} />
      )}
      <CreditInvoiceDialog invoice={crediting} onClose={() => setCrediting(null)} />
    </div>
  );
}
