import type { ReactNode } from 'react';
import { AlertTriangle, RefreshCw, WifiOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { appErrorOf } from '@/lib/api-errors';
import { cn } from '@/lib/utils';

interface FailedQuery {
  error: unknown;
  isError: boolean;
  isFetching: boolean;
  /** True when earlier data is still on screen (a refresh failed). */
  hasData: boolean;
  refetch(): unknown;
}

/** A TanStack query as `LoadError` needs it. */
export function failedQuery(query: { error: unknown; isError: boolean; isFetching: boolean; data: unknown; refetch(): unknown }): FailedQuery {
  return { error: query.error, isError: query.isError, isFetching: query.isFetching, hasData: query.data !== undefined, refetch: () => query.refetch() };
}

/**
 * What a list or a page shows when its data could not be loaded: what failed and why (no answer,
 * or the server's message), and a retry button. It stays until a retry succeeds, so a failed load
 * is never mistaken for an empty list. When earlier data is still shown, it is a slim banner above it.
 */
export function LoadError({ query, what, className, children }: { query: FailedQuery; what: string; className?: string; children?: ReactNode }) {
  const { t } = useTranslation();
  if (!query.isError) return null;
  const app = appErrorOf(query.error);
  const reason = app ? app.message : t('common.loadFailedNoAnswer');
  const Icon = app ? AlertTriangle : WifiOff;
  const retry = (
    <Button variant="outline" size="sm" onClick={() => void query.refetch()} disabled={query.isFetching} data-testid="load-error-retry">
      {query.isFetching ? <Spinner /> : <RefreshCw aria-hidden />}
      {t('common.retry')}
    </Button>
  );
  if (query.hasData) {
    return (
      <div
        role="alert"
        className={cn('border-destructive/40 bg-destructive/5 flex flex-wrap items-center gap-3 rounded-md border px-3 py-2 text-sm', className)}
        data-testid="load-error"
      >
        <Icon className="text-destructive size-4 shrink-0" aria-hidden />
        <span className="min-w-0 flex-1">
          {t('common.refreshFailed', { what })} {reason}
        </span>
        {retry}
      </div>
    );
  }
  return (
    <div role="alert" className={cn('flex flex-col items-center justify-center gap-3 px-6 py-12 text-center', className)} data-testid="load-error">
      <div className="bg-destructive/10 flex size-12 items-center justify-center rounded-full">
        <Icon className="text-destructive size-6" aria-hidden />
      </div>
      <div className="flex max-w-md flex-col gap-1">
        <p className="text-base font-medium">{t('common.loadFailed', { what })}</p>
        <p className="text-muted-foreground text-sm">{reason}</p>
      </div>
      {children}
      {retry}
    </div>
  );
}
