import { useTranslation } from 'react-i18next';
import type { TDeliveryState } from '@console/shared';
import { Spinner } from '@/components/ui/spinner';
import { isInFlight } from '@/lib/credentials';
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

/** Where a credential stands with its lock, in words (`credentials.states.*`). */
export function DeliveryStateBadge({ state, className }: { state: TDeliveryState; className?: string }) {
  const { t } = useTranslation();
  return (
    <span
      className={cn('inline-flex w-fit max-w-full items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap', STYLES[state], className)}
      data-testid="delivery-state"
      data-state={state}
    >
      {isInFlight(state) ? <Spinner className="size-3" /> : <span className={cn('size-1.5 shrink-0 rounded-full', DOTS[state])} aria-hidden />}
      <span className="truncate">{t(`credentials.states.${state}`)}</span>
    </span>
  );
}
