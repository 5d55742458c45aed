import { useTranslation } from 'react-i18next';
import type { TDeliveryState } from '@console/shared';
import { Spinner } from '@/components/ui/spinner';
import { deliveryErrorKey, isInFlight, isWaitingForAccount } from '@/lib/credentials';
import { formatShortDateTime } from '@/lib/format';
import { cn } from '@/lib/utils';

/**
 * Green only for `on_lock`: a credential is shown as active once the lock confirmed it, never
 * before. Work in flight (sending, removing) spins; failures are red; what is gone is grey.
 */
const STYLES: Record<TDeliveryState, string> = {
  pending: 'bg-sky-100 text-sky-900',
  on_lock: 'bg-emerald-100 text-emerald-800',
  failed: 'bg-red-100 text-red-800',
  removing: 'bg-slate-200 text-slate-800',
  removed: 'bg-slate-100 text-slate-600',
  remove_failed: 'bg-red-100 text-red-800',
  unknown: 'bg-amber-100 text-amber-900',
};

const DOTS: Partial<Record<TDeliveryState, string>> = {
  on_lock: 'bg-emerald-500',
  failed: 'bg-red-600',
  remove_failed: 'bg-red-600',
  removed: 'bg-slate-400',
  unknown: 'bg-amber-500',
};

/**
 * Where a credential stands with its lock, in words (`credentials.states.*`); `setting`: pending,
 * accepted by a lock platform that sets it later (Seam), said as being set on the lock.
 */
export function DeliveryStateBadge({ state, setting = false, className }: { state: TDeliveryState; setting?: boolean; className?: string }) {
  const { t } = useTranslation();
  return (
    <span
      className={cn(
        'inline-flex w-fit max-w-full items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap',
        STYLES[state],
        className,
      )}
      data-testid="delivery-state"
      data-state={state}
      data-setting={setting || undefined}
    >
      {isInFlight(state) ? <Spinner className="size-3" /> : <span className={cn('size-1.5 shrink-0 rounded-full', DOTS[state])} aria-hidden />}
      <span className="truncate">{t(setting && state === 'pending' ? 'credentials.states.setting' : `credentials.states.${state}`)}</span>
    </span>
  );
}

/**
 * A credential's state with its lock, as its list rows show it: the badge, the reason of the last
 * failure (red once final, "trying again: ..." while work is in flight, "waiting: ..." while it
 * waits for its lock account or the lock cloud's call limit) and, once it is coming or has come
 * off, why it was taken off.
 */
export function DeliveryStatus({
  state,
  lastError,
  revokeReason,
  errorTestId,
  setting,
}: {
  state: TDeliveryState;
  lastError: string | null;
  revokeReason?: string | null;
  errorTestId?: string;
  setting?: boolean;
}) {
  const { t } = useTranslation();
  const errorKey = deliveryErrorKey(lastError);
  const isGone = state === 'removed' || state === 'removing';
  return (
    <div aria-live="polite" className="grid gap-1">
      <DeliveryStateBadge state={state} setting={setting} />
      {errorKey && (state === 'failed' || state === 'remove_failed' || state === 'unknown') && (
        <span className="text-destructive text-xs" data-testid={errorTestId}>
          {t(errorKey)}
        </span>
      )}
      {errorKey && isInFlight(state) && (
        <span
          className={isWaitingForAccount(state, lastError) ? 'text-xs text-amber-800' : 'text-muted-foreground text-xs'}
          data-testid={errorTestId}
          data-waiting={isWaitingForAccount(state, lastError) || undefined}
        >
          {t(isWaitingForAccount(state, lastError) ? 'credentials.waiting' : 'credentials.retrying', { reason: t(errorKey) })}
        </span>
      )}
      {revokeReason && isGone && <span className="text-muted-foreground text-xs">{t(`credentials.revokeReasons.${revokeReason}`)}</span>}
    </div>
  );
}

/** A credential's validity: from - until, or permanent, in the hotel's time. */
export function ValidityRange({ from, until, timeZone }: { from: string; until: string | null; timeZone: string }) {
  const { t } = useTranslation();
  return (
    <>
      <time dateTime={from}>{formatShortDateTime(from, timeZone)}</time>
      {' – '}
      {until ? <time dateTime={until}>{formatShortDateTime(until, timeZone)}</time> : t('credentials.permanent')}
    </>
  );
}
