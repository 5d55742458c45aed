import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { KeyRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { DeliveryStateBadge } from '@/components/delivery-state-badge';
import { Skeleton } from '@/components/ui/skeleton';
import { deliveryErrorKey, isWaitingForAccount } from '@/lib/credentials';
import { StaySharedDoors } from '@/components/shared-doors/shared-door-strip';
import { STAY_CARD_SHOWN, stayQueries } from './api';

/**
 * The lock passwords and faces of a stay on its card, each with where it stands with the lock
 * (followed while it is being sent or removed), and a link to the room's Credentials tab to issue,
 * revoke or try again.
 */
export function StayCredentials({ stayId, roomId }: { stayId: number; roomId: number }) {
  const { t } = useTranslation();
  const list = useQuery(stayQueries.passwords(stayId));
  const faces = useQuery(stayQueries.faces(stayId));
  // The room's own; the copies on shared doors are shown with their doors (StaySharedDoors).
  const items = (list.data?.items ?? []).filter((p) => p.door === null);
  const faceItems = (faces.data?.items ?? []).filter((f) => f.door === null);
  return (
    <section className="grid gap-2" aria-labelledby="stay-credentials-heading" data-testid="stay-credentials">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id="stay-credentials-heading" className="text-muted-foreground flex items-center gap-1.5 text-xs">
          <KeyRound className="size-3.5" aria-hidden />
          {t('credentials.stayCard.title')}
        </h3>
        <Link
          to="/room/$roomId"
          params={{ roomId }}
          search={{ tab: 'credentials' }}
          className="text-primary focus-visible:ring-ring ms-auto rounded-sm text-xs underline-offset-4 outline-none hover:underline focus-visible:ring-2"
          data-testid="stay-credentials-manage"
        >
          {t('credentials.checkIn.openCredentials')}
        </Link>
      </div>
      {list.isLoading || faces.isLoading ? (
        <Skeleton className="h-6 w-64" aria-label={t('common.loading')} />
      ) : (list.isError && !list.data) || (faces.isError && !faces.data) ? (
        <p className="text-destructive text-sm">{t('common.loadFailed', { what: t('credentials.loadWhat') })}</p>
      ) : items.length === 0 && faceItems.length === 0 ? (
        <p className="text-muted-foreground text-sm" data-testid="stay-credentials-none">
          {t('credentials.stayCard.none')}
        </p>
      ) : (
        <ul className="flex flex-wrap gap-x-5 gap-y-2 text-sm">
          {items.map((password) => {
            const errorKey = deliveryErrorKey(password.lastError);
            return (
              <li
                key={password.id}
                className="flex flex-wrap items-center gap-2"
                data-testid={`stay-password-${password.id}`}
                data-state={password.deliveryState}
              >
                <span className="font-medium">{t(`credentials.kinds.${password.kind}`)}</span>
                <span className="text-muted-foreground truncate">{password.holderName}</span>
                <span aria-live="polite" className="inline-flex items-center gap-2">
                  <DeliveryStateBadge state={password.deliveryState} setting={password.setting} />
                  {errorKey && (password.deliveryState === 'failed' || password.deliveryState === 'remove_failed') && (
                    <span className="text-destructive text-xs">{t(errorKey)}</span>
                  )}
                  {errorKey && isWaitingForAccount(password.deliveryState, password.lastError) && (
                    <span className="text-xs text-amber-800">{t('credentials.waiting', { reason: t(errorKey) })}</span>
                  )}
                </span>
                {password.replacesId !== null && (
                  <span className="text-xs font-medium text-amber-800" data-testid={`stay-password-${password.id}-replaces`}>
                    {t('credentials.replacesNote')}
                  </span>
                )}
              </li>
            );
          })}
          {faceItems.map((authorization) => {
            const errorKey = deliveryErrorKey(authorization.lastError);
            return (
              <li
                key={`face-${authorization.id}`}
                className="flex flex-wrap items-center gap-2"
                data-testid={`stay-face-${authorization.id}`}
                data-state={authorization.deliveryState}
              >
                <span className="font-medium">{t('credentials.stayCard.face')}</span>
                <span className="text-muted-foreground truncate" dir="auto">
                  {authorization.face.faceId} · {authorization.face.note}
                </span>
                <span aria-live="polite" className="inline-flex items-center gap-2">
                  <DeliveryStateBadge state={authorization.deliveryState} />
                  {errorKey && (authorization.deliveryState === 'failed' || authorization.deliveryState === 'remove_failed') && (
                    <span className="text-destructive text-xs">{t(errorKey)}</span>
                  )}
                  {errorKey && isWaitingForAccount(authorization.deliveryState, authorization.lastError) && (
                    <span className="text-xs text-amber-800">{t('credentials.waiting', { reason: t(errorKey) })}</span>
                  )}
                </span>
              </li>
            );
          })}
          {((list.data?.total ?? 0) > STAY_CARD_SHOWN || (faces.data?.total ?? 0) > STAY_CARD_SHOWN) && (
            <li className="text-muted-foreground text-xs">{t('credentials.stayCard.more')}</li>
          )}
        </ul>
      )}
      <StaySharedDoors stayId={stayId} />
    </section>
  );
}
