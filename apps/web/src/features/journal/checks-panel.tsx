import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { CircleCheck, CircleX } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Money } from '@/components/money';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { formatNumber } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import type { TrialBalance } from './api';

/**
 * Whether the day's books tie, said plainly: the three checks, each holding or not and why; a bill
 * whose ledgers differ from its entries is named with its room and guest and links to the guest's
 * page (their stay and its bill); a customer whose balance differs is named with both figures.
 */
export function ChecksPanel({ tb }: { tb: TrialBalance }) {
  const { t } = useTranslation();
  const currency = tb.currency;
  const folios = tb.checks.foliosOff.length;
  const customers = tb.checks.customersOff.length;
  return (
    <Card className="gap-3 p-4" data-testid="tb-checks" data-ties={tb.ties} aria-labelledby="tb-checks-title">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="tb-checks-title" className="text-lg font-semibold">
          {t('journal.checks.title')}
        </h2>
        {tb.ties ? (
          <Badge variant="success" data-testid="tb-ties">
            <CircleCheck aria-hidden />
            {t('journal.checks.ties')}
          </Badge>
        ) : (
          <Badge variant="destructive" data-testid="tb-does-not-tie">
            <CircleX aria-hidden />
            {t('journal.checks.doesNotTie')}
          </Badge>
        )}
      </div>
      <ul className="grid gap-2 text-sm">
        <Check ok={tb.checks.balanced} testId="tb-check-balanced" title={t('journal.checks.balanced')}>
          {!tb.checks.balanced &&
            t('journal.checks.balancedWhy', { opening: formatMoney(tb.totals.opening, currency), closing: formatMoney(tb.totals.closing, currency) })}
        </Check>
        <Check ok={folios === 0} testId="tb-check-folios" title={t('journal.checks.folios')}>
          {folios > 0 && (
            <>
              <p>{t('journal.checks.foliosWhy', { number: formatNumber(folios) })}</p>
              <ul className="mt-1 grid gap-1">
                {tb.offFolios.map((f) => (
                  <li
                    key={f.folioId}
                    className="flex flex-wrap items-baseline gap-x-2"
                    data-testid="tb-folio-off"
                    data-folio={f.folioId}
                    data-stay={f.stayId ?? undefined}
                  >
                    {f.guestId !== null ? (
                      <Link
                        to="/room/thetouristsDetails"
                        search={{ id: f.guestId }}
                        className="text-primary font-medium underline-offset-4 hover:underline"
                        data-testid="tb-folio-off-link"
                      >
                        {t('journal.checks.folioName', { room: f.roomName ?? '—', guest: f.guestName ?? '' })}
                      </Link>
                    ) : (
                      <span className="font-medium">{t('journal.checks.folioNumber', { id: f.folioId })}</span>
                    )}
                    <span className="text-muted-foreground">
                      {t('journal.checks.folioFigures', { journal: formatMoney(f.journal, currency), bill: formatMoney(f.bill, currency) })}
                    </span>
                  </li>
                ))}
              </ul>
              {folios > tb.offFolios.length && (
                <p className="text-muted-foreground">{t('journal.checks.more', { number: formatNumber(folios - tb.offFolios.length) })}</p>
              )}
            </>
          )}
        </Check>
        <Check ok={customers === 0} testId="tb-check-customers" title={t('journal.checks.customers')}>
          {customers > 0 && (
            <>
              <p>{t('journal.checks.customersWhy', { number: formatNumber(customers) })}</p>
              <ul className="mt-1 grid gap-1">
                {tb.offCustomers.map((c) => (
                  <li key={c.customerId} className="flex flex-wrap items-baseline gap-x-2" data-testid="tb-customer-off" data-customer={c.customerId}>
                    <span className="font-medium" dir="auto">
                      {c.name || t('journal.checks.customerNumber', { id: c.customerId })}
                    </span>
                    <span className="text-muted-foreground">
                      {t('journal.checks.customerFigures', { journal: formatMoney(c.journal, currency), entries: formatMoney(c.entries, currency) })}
                    </span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </Check>
      </ul>
      <p className="text-muted-foreground text-sm" data-testid="tb-night-revenue" data-amount={tb.roomRevenueOfNight}>
        {t('journal.nightRevenue')} <Money minor={tb.roomRevenueOfNight} currency={currency} className="text-foreground font-medium" />
      </p>
    </Card>
  );
}

function Check({ ok, title, testId, children }: { ok: boolean; title: string; testId: string; children?: ReactNode }) {
  const { t } = useTranslation();
  const Icon = ok ? CircleCheck : CircleX;
  return (
    <li className="flex items-start gap-2" data-testid={testId} data-ok={ok}>
      <Icon aria-hidden className={ok ? 'text-success mt-0.5 size-4 shrink-0' : 'text-destructive mt-0.5 size-4 shrink-0'} />
      <div className="min-w-0">
        <p>
          <span className="sr-only">{t(ok ? 'journal.checks.holds' : 'journal.checks.fails')}</span>
          {title}
        </p>
        {children}
      </div>
    </li>
  );
}
