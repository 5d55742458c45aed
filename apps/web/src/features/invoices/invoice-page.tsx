import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { fromMinor, LANGUAGES, minorDigits } from '@console/shared';
import type { TInvoiceDocument } from '@console/shared/dto';
import { useTranslation } from 'react-i18next';
import { ArrowLeftIcon, FileDownIcon, PrinterIcon } from 'lucide-react';
import { LoadError, failedQuery } from '@/components/load-error';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { i18next, loadLanguageTexts } from '@/lib/i18n';
import type { RouterOutputs } from '@/lib/trpc-types';
import { useUserInfo } from '@/lib/user-info';
import { invoicePdfUrl, invoiceQueries } from './api';

type Invoice = RouterOutputs['invoice']['get'];

/**
 * An invoice or credit note as issued (docs/invoices.md), on a sheet written in the document's own
 * language (the guest's, chosen when it was issued), whatever the interface's: the hotel's legal
 * details, the buyer, the stay, the lines with their dates, the taxes, the payments and the totals.
 * "Print" prints the sheet alone; "Download PDF" is the server's PDF of the same document (to file or e-mail).
 */
export function InvoicePage() {
  const { t, i18n } = useTranslation();
  const { invoiceId } = useParams({ from: '/_auth/invoice/$invoiceId' });
  const query = useQuery(invoiceQueries.one(Number(invoiceId)));
  const language = query.data?.language;
  const texts = useQuery({
    queryKey: ['invoice-texts', language],
    queryFn: () => loadLanguageTexts(language!).then(() => true),
    enabled: Boolean(language),
    staleTime: Infinity,
  });
  return (
    <div className="mx-auto grid max-w-4xl gap-4" data-testid="invoice-page">
      {/* Only the sheet is printed. */}
      <style>
        {
          '@media print { body * { visibility: hidden !important; } #invoice-sheet, #invoice-sheet * { visibility: visible !important; } #invoice-sheet { position: absolute; inset: 0; box-shadow: none; border: 0; } }'
        }
      </style>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => window.history.back()} data-testid="invoice-back">
          <ArrowLeftIcon className="rtl:rotate-180" aria-hidden />
          {t('invoices.back')}
        </Button>
        <Button variant="outline" size="sm" className="ms-auto" asChild>
          <a href={invoicePdfUrl(Number(invoiceId), i18n.language)} download data-testid="invoice-pdf">
            <FileDownIcon aria-hidden />
            {t('invoices.downloadPdf')}
          </a>
        </Button>
        <Button size="sm" disabled={!texts.data} onClick={() => window.print()} data-testid="invoice-print">
          <PrinterIcon aria-hidden />
          {t('invoices.print')}
        </Button>
      </div>
      {query.isError ? (
        <LoadError query={failedQuery(query)} what={t('invoices.title')} />
      ) : query.data && texts.data ? (
        <InvoiceSheet invoice={query.data} />
      ) : (
        <Skeleton className="h-[40rem] w-full" />
      )}
    </div>
  );
}

function InvoiceSheet({ invoice }: { invoice: Invoice }) {
  const timeZone = useUserInfo()?.hotel.timeZone ?? 'UTC';
  const lang = invoice.language;
  const dir = LANGUAGES.find((l) => l.header === lang)?.dir ?? 'ltr';
  const t = useMemo(() => i18next.getFixedT(lang), [lang]);
  const f = useMemo(() => {
    const money = new Intl.NumberFormat(lang, { style: 'currency', currency: invoice.currency, minimumFractionDigits: minorDigits(invoice.currency) });
    const day = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' });
    const instant = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone });
    return {
      money: (minor: number) => money.format(fromMinor(minor, invoice.currency)),
      day: (date: string) => day.format(new Date(`${date}T00:00:00Z`)),
      instant: (iso: string) => instant.format(new Date(iso)),
    };
  }, [lang, invoice.currency, timeZone]);
  const doc: TInvoiceDocument = invoice.document;
  const title = t(invoice.kind === 'invoice' ? 'invoices.title' : 'invoices.creditNote');
  return (
    <article
      id="invoice-sheet"
      lang={lang}
      dir={dir}
      className="grid gap-6 rounded-md border bg-white p-8 text-sm text-neutral-900 shadow-sm"
      data-testid="invoice-sheet"
      data-number={invoice.number}
      data-kind={invoice.kind}
    >
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="grid gap-0.5">
          <p className="text-lg font-semibold" dir="auto">
            {doc.seller.legalName || doc.seller.name}
          </p>
          {doc.seller.legalName && <p dir="auto">{doc.seller.name}</p>}
          {doc.seller.address && <p dir="auto">{doc.seller.address}</p>}
          {doc.seller.tel && <p dir="ltr">{doc.seller.tel}</p>}
          {doc.seller.taxId && <p>{t('invoices.taxNumber', { taxId: doc.seller.taxId })}</p>}
        </div>
        <div className="grid gap-0.5 text-end">
          <h1 className="text-2xl font-semibold" data-testid="invoice-title">
            {title}
          </h1>
          <p className="font-medium tabular-nums" data-testid="invoice-number">
            {t('invoices.number', { number: String(invoice.number).padStart(6, '0') })}
          </p>
          <p>
            {t('invoices.issuedOn')}: {f.instant(invoice.issuedAt)}
          </p>
          <p>
            {t('invoices.businessDate')}: {f.day(invoice.businessDate)}
          </p>
        </div>
      </header>
      {invoice.credits && <p data-testid="invoice-credits">{t('invoices.credits', { number: String(invoice.credits.number).padStart(6, '0') })}</p>}
      {invoice.reason && <p>{t('invoices.reasonLine', { reason: invoice.reason })}</p>}
      {invoice.creditedBy && (
        <p className="font-medium text-red-700" data-testid="invoice-credited-by">
          {t('invoices.creditedBy', { number: String(invoice.creditedBy.number).padStart(6, '0') })}
        </p>
      )}
      <section className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-0.5" data-testid="invoice-buyer">
          <h2 className="text-xs font-semibold text-neutral-500 uppercase">{t('invoices.buyer')}</h2>
          <p className="font-medium" dir="auto">
            {doc.buyer.name}
          </p>
          {doc.buyer.address && <p dir="auto">{doc.buyer.address}</p>}
          {doc.buyer.taxId && <p>{t('invoices.taxNumber', { taxId: doc.buyer.taxId })}</p>}
        </div>
        <div className="grid gap-0.5">
          <h2 className="text-xs font-semibold text-neutral-500 uppercase">{t('invoices.stay')}</h2>
          <p>
            {t('invoices.guest')}: <bdi>{doc.stay.guestName}</bdi>
          </p>
          <p>
            {t('invoices.room')}: <bdi>{doc.stay.roomName}</bdi>
          </p>
          <p>
            {t('invoices.arrival')}: {f.instant(doc.stay.arrival)} · {t('invoices.departure')}: {f.instant(doc.stay.departure)}
          </p>
        </div>
      </section>
      <table className="w-full border-collapse" data-testid="invoice-lines">
        <thead>
          <tr className="border-b text-start text-xs text-neutral-500">
            <th className="py-1 text-start font-medium">{t('invoices.date')}</th>
            <th className="py-1 text-start font-medium">{t('invoices.description')}</th>
            <th className="py-1 text-end font-medium">{t('invoices.amount')}</th>
          </tr>
        </thead>
        <tbody>
          {doc.lines.map((line, i) => (
            <tr key={i} className="border-b border-neutral-200 align-top" data-testid="invoice-line" data-amount={line.amount} data-tax={line.tax || undefined}>
              <td className="py-1 pe-3 whitespace-nowrap">{f.day(line.date)}</td>
              <td className="py-1 pe-3">
                <bdi>{line.description}</bdi>
              </td>
              <td className="py-1 text-end whitespace-nowrap tabular-nums" dir="ltr">
                {f.money(line.amount)}
                {line.taxIncluded !== null && (
                  <span className="block text-xs text-neutral-500">{t('invoices.taxIncludedShort', { amount: f.money(line.taxIncluded) })}</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid content-start gap-1">
          {doc.taxes.length > 0 && (
            <>
              <h2 className="text-xs font-semibold text-neutral-500 uppercase">{t('invoices.taxesHeading')}</h2>
              {doc.taxes.map((tax, i) => (
                <p key={i} className="flex justify-between gap-3" data-testid="invoice-tax">
                  <span>
                    {tax.description}
                    {tax.included && <span className="text-neutral-500"> ({t('invoices.includedNote')})</span>}
                  </span>
                  <span className="tabular-nums" dir="ltr">
                    {f.money(tax.amount)}
                  </span>
                </p>
              ))}
            </>
          )}
          {doc.payments.length > 0 && (
            <>
              <h2 className="mt-2 text-xs font-semibold text-neutral-500 uppercase">{t('invoices.paymentsHeading')}</h2>
              {doc.payments.map((p, i) => (
                <p key={i} className="flex justify-between gap-3">
                  <span>
                    {f.day(p.date)} · {p.description}
                  </span>
                  <span className="tabular-nums" dir="ltr">
                    {f.money(p.amount)}
                  </span>
                </p>
              ))}
            </>
          )}
        </div>
        <dl className="grid content-start gap-1" data-testid="invoice-totals">
          {(['charges', 'taxes', 'paid', 'due'] as const).map((key) => (
            <div key={key} className={key === 'charges' || key === 'due' ? 'flex justify-between gap-3 font-semibold' : 'flex justify-between gap-3'}>
              <dt>{t(`invoices.totals.${key}`)}</dt>
              <dd className="tabular-nums" dir="ltr" data-testid={`invoice-total-${key}`}>
                {f.money(doc.totals[key])}
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </article>
  );
}
