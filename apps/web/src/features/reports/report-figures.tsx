import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Money, WRAP, WRAP_END } from '@/components/money';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatNumber } from '@/lib/format';
import { currentLanguage } from '@/lib/language';
import { formatMoney } from '@/lib/money';
import type { DayFigures } from './api';

/** Occupancy (a percent with one decimal) in the console's language. */
export const formatPercent = (value: number) =>
  new Intl.NumberFormat(currentLanguage().header, { style: 'percent', maximumFractionDigits: 1 }).format(value / 100);

function Fact({ label, children, hint, testId }: { label: string; children: ReactNode; hint?: ReactNode; testId?: string }) {
  return (
    <div className="bg-card grid content-start gap-0.5 rounded-lg border p-3" data-testid={testId}>
      <dt className="text-muted-foreground text-sm">{label}</dt>
      <dd className="text-lg font-semibold">{children}</dd>
      {hint && <dd className="text-muted-foreground text-xs">{hint}</dd>}
    </div>
  );
}

/** The figures of a day or of a range's sums. */
export function Figures({ figures: f, currency }: { figures: DayFigures; currency: string }) {
  const { t } = useTranslation();
  return (
    <dl
      className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4"
      data-testid="report-figures"
      data-sold={f.rooms.sold}
      data-available={f.rooms.available}
      data-occupancy={f.occupancy}
      data-revenue={f.revenue.total}
      data-received={f.received}
      data-refunded={f.refunded}
      data-arrivals={f.arrivals}
      data-departures={f.departures}
    >
      <Fact label={t('reports.columns.occupancy')} hint={t('reports.soldOf', { sold: formatNumber(f.rooms.sold), available: formatNumber(f.rooms.available) })}>
        {formatPercent(f.occupancy)}
      </Fact>
      <Fact label={t('reports.figures.adr')}>
        <Money minor={f.adr} currency={currency} />
      </Fact>
      <Fact label={t('reports.figures.revpar')}>
        <Money minor={f.revpar} currency={currency} />
      </Fact>
      <Fact
        label={t('reports.figures.revenue')}
        hint={
          t('reports.revenueParts', {
            rooms: formatMoney(f.revenue.roomCharges, currency),
            other: formatMoney(f.revenue.charges, currency),
          }) + (f.revenue.taxes ? ` · ${t('reports.taxesIncluded', { taxes: formatMoney(f.revenue.taxes, currency) })}` : '')
        }
      >
        <Money minor={f.revenue.total} currency={currency} />
      </Fact>
      <Fact label={t('reports.figures.received')}>
        <Money minor={f.received} currency={currency} />
      </Fact>
      <Fact label={t('reports.figures.refunded')}>
        <Money minor={f.refunded} currency={currency} />
      </Fact>
      <Fact label={t('reports.figures.owing')} hint={t('reports.bills', { count: f.owing.count })}>
        <Money minor={f.owing.total} currency={currency} />
      </Fact>
      <Fact label={t('reports.figures.depositsHeld')}>
        <Money minor={f.depositsHeld} currency={currency} />
      </Fact>
      <Fact label={t('reports.columns.arrivals')}>{formatNumber(f.arrivals)}</Fact>
      <Fact label={t('reports.columns.departures')}>{formatNumber(f.departures)}</Fact>
      <Fact label={t('reports.columns.stayOvers')}>{formatNumber(f.stayOvers)}</Fact>
      <Fact label={t('reports.figures.noShowsCancellations')}>{`${formatNumber(f.noShows)} · ${formatNumber(f.cancellations)}`}</Fact>
    </dl>
  );
}

/** Money that changed hands by way of paying (as the cash report's lines). */
export function MethodTable({ figures, currency }: { figures: DayFigures; currency: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="space-y-2">
      <h2 id={headingId} className="text-lg font-semibold">
        {t('reports.methods.title')}
      </h2>
      {figures.methods.length === 0 ? (
        <p className="text-muted-foreground text-sm" data-testid="report-methods-empty">
          {t('reports.methods.none')}
        </p>
      ) : (
        <Table phoneCards data-testid="report-methods" aria-labelledby={headingId}>
          <TableHeader>
            <TableRow>
              <TableHead className={WRAP}>{t('orders.columns.method')}</TableHead>
              {(['deposits', 'payments', 'recharges', 'refunds', 'corrections', 'net'] as const).map((k) => (
                <TableHead key={k} className={WRAP_END}>
                  {t(`reports.methods.${k}`, { currency })}
                </TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {figures.methods.map((line) => (
              <TableRow key={line.method} data-testid="report-method" data-method={line.method} data-net={line.net}>
                <TableCell className="font-medium">{t(`orders.methods.${line.method}`)}</TableCell>
                {(['deposits', 'payments', 'recharges', 'refunds', 'corrections', 'net'] as const).map((k) => (
                  <TableCell key={k} className="text-end" data-label={t(`reports.methods.${k}`, { currency })}>
                    <Money minor={line[k]} currency={currency} />
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </section>
  );
}
