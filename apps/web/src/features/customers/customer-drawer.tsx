import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LoadError, failedQuery } from '@/components/load-error';
import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime, formatNumber } from '@/lib/format';
import { customerQueries } from './api';

/** The detail drawer of a customer, opened with `?id=` so it survives a reload. */
export function CustomerDrawer({ customerId, timeZone, onClose }: { customerId?: number; timeZone: string; onClose(): void }) {
  const { t } = useTranslation();
  const detail = useQuery(customerQueries.detail(customerId));
  const c = detail.data;
  return (
    <Sheet open={customerId !== undefined} onOpenChange={(open) => !open && onClose()}>
      <SheetContent side="end" closeLabel={t('common.close')} className="w-full sm:max-w-md" data-testid="customer-drawer">
        <SheetHeader>
          <SheetTitle>{t('customer.detailTitle')}</SheetTitle>
          <SheetDescription>{c ? `#${c.id}` : '\u00a0'}</SheetDescription>
        </SheetHeader>
        {detail.isError && <LoadError query={failedQuery(detail)} what={t('customer.detailWhat')} className={c ? 'mx-4' : undefined} />}
        {detail.isError && !c ? null : detail.isLoading || !c ? (
          <div className="space-y-3 p-4">
            <Skeleton className="size-16 rounded-full" />
            <Skeleton className="h-6 w-2/3" />
            <Skeleton className="h-24 w-full" />
          </div>
        ) : (
          <div className="space-y-6 overflow-y-auto p-4">
            <div className="flex items-center gap-4">
              <Avatar className="size-16">
                {c.avatar && <AvatarImage src={c.avatar} alt="" />}
                <AvatarFallback className="text-xl">{(c.nickname || '?').slice(0, 1).toUpperCase()}</AvatarFallback>
              </Avatar>
              <div className="min-w-0">
                <div className="truncate text-lg font-semibold">{c.nickname || t('customer.noNickname')}</div>
                {c.frozen ? <Badge variant="destructive">{t('customer.stateFrozen')}</Badge> : <Badge variant="success">{t('customer.stateActive')}</Badge>}
              </div>
            </div>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-3 text-sm">
              <dt className="text-muted-foreground">{t('customer.mobile')}</dt>
              <dd dir="ltr" className="text-end rtl:text-start">
                {c.mobile ?? '—'}
              </dd>
              <dt className="text-muted-foreground">{t('customer.email')}</dt>
              <dd dir="ltr" className="text-end break-all rtl:text-start">
                {c.email ?? '—'}
              </dd>
              <dt className="text-muted-foreground">{t('customer.registeredAt')}</dt>
              <dd className="text-end">{formatDateTime(c.registeredAt, timeZone)}</dd>
              {c.frozenAt && (
                <>
                  <dt className="text-muted-foreground">{t('customer.frozenAt')}</dt>
                  <dd className="text-end">{formatDateTime(c.frozenAt, timeZone)}</dd>
                </>
              )}
            </dl>
            <div className="grid grid-cols-3 gap-2">
              <Stat label={t('customer.stayCount')} value={c.stayCount} />
              <Stat label={t('customer.credentialCount')} value={c.activeCredentialCount} />
              <Stat label={t('customer.sessionCount')} value={c.activeSessionCount} />
            </div>
          </div>
        )}
      </SheetContent>
    </Sheet>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="bg-muted rounded-lg p-3 text-center">
      <div className="text-xl font-semibold tabular-nums">{formatNumber(value)}</div>
      <div className="text-muted-foreground text-xs">{label}</div>
    </div>
  );
}
