import { useQuery } from '@tanstack/react-query';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { PRICE_MODES } from '@console/shared';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { formatMoney } from '@/lib/money';
import { cn } from '@/lib/utils';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { formatNight, type QuoteDto } from './stay-helpers';
import { stayQueries } from '../api';

export type QuoteInput = { roomId: number; checkInAt: string; expectedCheckOutAt: string; kind: 'stay' | 'renewal' };

const QUOTE_DEBOUNCE_MS = 400;

/**
 * The live quote of the pricing function (`price.quote`), asked once the times have stopped
 * changing for a moment; `input` is null while the times are not valid (nothing is asked then).
 */
export function usePriceQuote(input: QuoteInput | null, idleReason: string): QuoteState {
  const key = input ? JSON.stringify([input.roomId, input.checkInAt, input.expectedCheckOutAt, input.kind]) : '';
  const settledKey = useDebouncedValue(key, QUOTE_DEBOUNCE_MS);
  const settled = settledKey === key ? input : null;
  const query = useQuery(stayQueries.priceQuote(settled));
  if (!input) return { kind: 'idle', reason: idleReason };
  const waiting = settledKey !== key;
  if (query.data) return { kind: 'ready', quote: query.data, refreshing: waiting || query.isFetching || query.isPlaceholderData };
  if (query.isError && !waiting) return { kind: 'error' };
  return { kind: 'loading' };
}

/** "Computed" (the pricing function) or "set price" (typed by the user), as radio buttons. */
export function PriceModeField({ idPrefix, registration }: { idPrefix: string; registration: UseFormRegisterReturn }) {
  const { t } = useTranslation();
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-sm leading-none font-medium">{t('frontDesk.stay.priceMode')}</legend>
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        {PRICE_MODES.map((mode) => (
          <div key={mode} className="flex items-center gap-2">
            <input
              type="radio"
              id={`${idPrefix}-${mode}`}
              value={mode}
              className="accent-primary size-4"
              data-testid={`${idPrefix}-${mode}`}
              {...registration}
            />
            <Label htmlFor={`${idPrefix}-${mode}`} className="font-normal">
              {t(mode === 'computed' ? 'frontDesk.stay.priceComputed' : 'frontDesk.stay.priceFixed')}
            </Label>
          </div>
        ))}
      </div>
    </fieldset>
  );
}

export type QuoteState = { kind: 'idle'; reason: string } | { kind: 'loading' } | { kind: 'error' } | { kind: 'ready'; quote: QuoteDto; refreshing: boolean };

const SOURCE_STYLE: Record<QuoteDto['nights'][number]['source'], string> = {
  usual: '',
  weekend: 'border-amber-300',
  date: 'border-sky-300',
  renewal: 'border-violet-300',
};

/** The live price of a stay or a renewal: the total and each night, compactly. */
export function QuoteSummary({ state, currency, testId, label }: { state: QuoteState; currency: string; testId: string; label: string }) {
  const { t } = useTranslation();
  return (
    <div
      className="bg-muted/40 grid gap-2 rounded-md border p-3 text-sm"
      data-testid={testId}
      data-state={state.kind}
      aria-live="polite"
      aria-busy={state.kind === 'loading' || (state.kind === 'ready' && state.refreshing)}
    >
      {state.kind === 'idle' && <p className="text-muted-foreground">{state.reason}</p>}
      {state.kind === 'loading' && (
        <p className="text-muted-foreground flex items-center gap-2">
          <Spinner />
          {t('frontDesk.stay.quoteLoading')}
        </p>
      )}
      {state.kind === 'error' && <p className="text-destructive">{t('frontDesk.stay.quoteFailed')}</p>}
      {state.kind === 'ready' && (
        <>
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <span className="text-muted-foreground">{label}</span>
            <span className="flex items-center gap-2">
              {state.refreshing && <Spinner className="text-muted-foreground" />}
              <span className="text-base font-semibold tabular-nums" data-testid={`${testId}-total`}>
                {formatMoney(state.quote.total, state.quote.currency || currency)}
              </span>
            </span>
          </div>
          {state.quote.nights.length > 0 ? (
            <>
              <p className="text-muted-foreground text-xs">{t('frontDesk.stay.nightCount', { count: state.quote.nights.length })}</p>
              <ul className="flex max-h-24 flex-wrap gap-1.5 overflow-y-auto" aria-label={t('frontDesk.stay.quoteNightList')}>
                {state.quote.nights.map((night) => (
                  <li key={night.date} className={cn('bg-background rounded border px-1.5 py-0.5 text-xs tabular-nums', SOURCE_STYLE[night.source])}>
                    <span className="text-muted-foreground">{formatNight(night.date)}</span> {formatMoney(night.price, state.quote.currency || currency)}
                    {night.source !== 'usual' && <span className="text-muted-foreground"> · {t(`frontDesk.stay.nightSource.${night.source}`)}</span>}
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <p className="text-muted-foreground text-xs">{t('frontDesk.stay.quoteNoNights')}</p>
          )}
        </>
      )}
    </div>
  );
}
