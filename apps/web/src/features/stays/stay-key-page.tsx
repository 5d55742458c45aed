import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { stayQueries, storeKeyPageLink } from './api';

/**
 * The guest's key page link of a stay (issue 20 §4, docs/key-page.md): the link to copy or open, until
 * when it opens the page, and "revoke and make a new one" (confirmed first; the old link stops at once).
 */
export function StayKeyPage({ stayId, timeZone, canManage }: { stayId: number; timeZone: string; canManage: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [isConfirmOpen, setIsConfirmOpen] = useState(false);
  const link = useQuery(stayQueries.keyPage(stayId, canManage));
  const regenerate = useMutation(
    trpc.keyPage.regenerate.mutationOptions({
      onSuccess: (data) => {
        storeKeyPageLink(queryClient, stayId, data.link);
        setIsConfirmOpen(false);
      },
    }),
  );
  if (!canManage) return null;
  const current = link.data?.link ?? null;
  const address = current ? (current.url ?? `${window.location.origin}${current.path}`) : '';
  const copy = () =>
    void navigator.clipboard.writeText(address).then(
      () => toast.success(t('keyPage.console.copied')),
      () => undefined,
    );
  return (
    <section className="grid gap-2" aria-labelledby="stay-key-page-heading" data-testid="stay-key-page">
      <h3 id="stay-key-page-heading" className="text-muted-foreground flex items-center gap-1.5 text-xs">
        <KeyRound className="size-3.5" aria-hidden />
        {t('keyPage.console.title')}
      </h3>
      {link.isLoading ? (
        <Skeleton className="h-6 w-64" aria-label={t('common.loading')} />
      ) : link.isError && !link.data ? (
        <p className="text-destructive text-sm">{t('common.loadFailed', { what: t('keyPage.console.title') })}</p>
      ) : !current ? (
        <div className="flex flex-wrap items-center gap-2">
          <p className="text-muted-foreground text-sm" data-testid="stay-key-page-none">
            {t('keyPage.console.none')}
          </p>
          <Button
            type="button"
            size="sm"
            variant="outline"
            disabled={regenerate.isPending}
            onClick={() => regenerate.mutate({ stayId })}
            data-testid="stay-key-page-make"
          >
            {t('keyPage.console.make')}
          </Button>
        </div>
      ) : (
        <div className="grid gap-2">
          <a
            href={address}
            target="_blank"
            rel="noreferrer noopener"
            dir="ltr"
            className="text-primary truncate text-sm underline"
            data-testid="stay-key-page-link"
          >
            {address}
          </a>
          <p className="text-muted-foreground text-xs" data-testid="stay-key-page-validity">
            {current.valid ? t('keyPage.console.validUntil', { at: formatDateTime(current.expiresAt, timeZone) }) : t('keyPage.console.ended')}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button type="button" size="sm" variant="outline" onClick={copy} data-testid="stay-key-page-copy">
              {t('keyPage.console.copy')}
            </Button>
            <Button type="button" size="sm" variant="outline" onClick={() => setIsConfirmOpen(true)} data-testid="stay-key-page-renew">
              {t('keyPage.console.renew')}
            </Button>
          </div>
        </div>
      )}
      <ConfirmDialog
        open={isConfirmOpen}
        onOpenChange={setIsConfirmOpen}
        title={t('keyPage.console.renewConfirmTitle')}
        description={t('keyPage.console.renewConfirmText')}
        confirmLabel={t('keyPage.console.renewConfirm')}
        destructive
        pending={regenerate.isPending}
        onConfirm={() => regenerate.mutate({ stayId })}
        data-testid="stay-key-page-renew-dialog"
        confirmTestId="stay-key-page-renew-confirm"
      />
    </section>
  );
}
