import { useQuery } from '@tanstack/react-query';
import { Info } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LoadError, failedQuery } from '@/components/load-error';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDate } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { roomDetailQueries } from './api';
import { ApplyTemplateCard } from './apply-template-card';
import { RoomPriceForm, type RoomPrice } from './room-price-form';

/** The room's prices: everyone sees them, members who manage prices change them or apply a template. */
export function RoomPriceTab({ roomId, currency, canEdit }: { roomId: number; currency: string; canEdit: boolean }) {
  const { t } = useTranslation();
  const price = useQuery(roomDetailQueries.price(roomId));
  const templates = useQuery(roomDetailQueries.priceTemplates());

  if (price.isError && !price.data) {
    return (
      <Card className="p-0">
        <LoadError query={failedQuery(price)} what={t('frontDesk.detail.loadWhat.price')} />
      </Card>
    );
  }
  if (price.isLoading || !price.data) {
    return (
      <Card className="p-6" aria-busy="true" role="status" aria-label={t('common.loading')}>
        <div className="grid gap-4 md:grid-cols-2">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-14 w-full" />
          ))}
        </div>
      </Card>
    );
  }
  const data = price.data;
  // The server's currency wins over the stored user info.
  const money = data.currency || currency;
  const template = data.priceTemplateId === null ? undefined : templates.data?.find((tpl) => tpl.id === data.priceTemplateId);

  return (
    <div className="space-y-4" data-testid="room-price">
      <LoadError query={failedQuery(price)} what={t('frontDesk.detail.loadWhat.price')} />
      {data.priceTemplateId !== null && (
        <p className="bg-muted text-muted-foreground flex items-start gap-2 rounded-lg border p-3 text-sm" data-testid="price-template-note">
          <Info className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>
            {t('frontDesk.detail.followsTemplate', { name: template?.name ?? `#${data.priceTemplateId}` })}
            {canEdit && ` ${t('frontDesk.detail.followsTemplateEdit')}`}
          </span>
        </p>
      )}
      {canEdit ? (
        <>
          {/* A new answer of the server (saved, template applied) starts the form afresh. */}
          <RoomPriceForm key={JSON.stringify(data)} roomId={roomId} price={data} currency={money} />
          <ApplyTemplateCard roomId={roomId} templates={templates} currency={money} />
        </>
      ) : (
        <RoomPriceView price={data} currency={money} />
      )}
    </div>
  );
}

function RoomPriceView({ price, currency }: { price: RoomPrice; currency: string }) {
  const { t } = useTranslation();
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('frontDesk.detail.priceTitle')}</CardTitle>
        <CardDescription>{t('frontDesk.detail.priceReadOnly')}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <dl className="grid grid-cols-2 gap-4 text-sm md:grid-cols-4">
          {(
            [
              ['usualPrice', price.usualPrice],
              ['weekendPrice', price.weekendPrice],
              ['renewalPrice', price.renewalPrice],
              ['deposit', price.depositAmount],
            ] as const
          ).map(([key, amount]) => (
            <div key={key}>
              <dt className="text-muted-foreground text-xs">{t(`frontDesk.detail.${key}`)}</dt>
              <dd className="font-medium tabular-nums" data-testid={`price-${key}`}>
                {formatMoney(amount, currency)}
              </dd>
            </div>
          ))}
        </dl>
        <DatePricesView datePrices={price.datePrices} currency={currency} />
      </CardContent>
    </Card>
  );
}

function DatePricesView({ datePrices, currency }: { datePrices: RoomPrice['datePrices']; currency: string }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-2">
      <h3 className="text-sm font-semibold">{t('frontDesk.detail.datePrices')}</h3>
      {datePrices.length === 0 ? (
        <p className="text-muted-foreground text-sm">{t('frontDesk.detail.noDatePrices')}</p>
      ) : (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>{t('frontDesk.detail.date')}</TableHead>
              <TableHead>{t('frontDesk.detail.datePrice')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {datePrices.map((d) => (
              <TableRow key={d.date}>
                <TableCell>{formatDate(d.date)}</TableCell>
                <TableCell className="tabular-nums">{formatMoney(d.price, currency)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </div>
  );
}
