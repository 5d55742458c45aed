import { useEffect } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { ExternalLink, Link2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/form-error';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { lockAccountQueries } from './api';
import type { LockAccount } from './lock-accounts';

/**
 * "Link a lock brand account" of a connected Seam workspace (docs/seam.md, "Linking a lock account"):
 * Seam's own page (a connect webview) where the owner signs in to August, Yale, Schlage, igloohome or
 * another brand Seam reaches, opened in a new tab; this dialog waits for Seam to say it was completed
 * (asked every 3 s), then hands the account over to "get locks" (`onLinked`). Nothing is asked of Seam
 * until the owner asks for the page.
 */
export function SeamLinkDialog({ account, onClose, onLinked }: { account: LockAccount | null; onClose(): void; onLinked(account: LockAccount): void }) {
  if (!account) return null;
  return <SeamLink key={account.id} account={account} onClose={onClose} onLinked={onLinked} />;
}

function SeamLink({ account, onClose, onLinked }: { account: LockAccount; onClose(): void; onLinked(account: LockAccount): void }) {
  const { t } = useTranslation();
  const start = useMutation(trpc.lockAccount.seamLink.mutationOptions({ meta: { showsErrors: true } }));
  const link = start.data;
  const state = useQuery(lockAccountQueries.seamLinkState(account.id, link?.linkId));
  const linked = state.data?.state === 'linked';
  useEffect(() => {
    if (!linked) return;
    toast.success(t('lockAccounts.link.linked'));
    onClose();
    onLinked(account);
  }, [linked, account, onClose, onLinked, t]);
  const gaveUp = state.data?.state === 'failed';

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent data-testid="seam-link-dialog">
        <DialogHeader>
          <DialogTitle>{t('lockAccounts.link.title')}</DialogTitle>
          <DialogDescription>{t('lockAccounts.link.description')}</DialogDescription>
        </DialogHeader>
        {link && !gaveUp && (
          <div className="grid gap-3 text-sm" aria-live="polite">
            <Button asChild>
              <a href={link.url} target="_blank" rel="noopener noreferrer" data-testid="seam-link-open">
                <ExternalLink aria-hidden />
                {t('lockAccounts.link.open')}
              </a>
            </Button>
            <p className="text-muted-foreground flex items-center gap-2" data-testid="seam-link-waiting">
              <Spinner />
              {t('lockAccounts.link.waiting')}
            </p>
          </div>
        )}
        {gaveUp && (
          <p role="alert" className="text-destructive text-sm" data-testid="seam-link-gave-up">
            {t('lockAccounts.link.gaveUp')}
          </p>
        )}
        <FormError error={start.error ?? state.error} />
        <DialogFooter>
          <Button variant="outline" onClick={onClose} data-testid="seam-link-close">
            {t('common.close')}
          </Button>
          {(!link || gaveUp) && (
            <Button onClick={() => start.mutate({ accountId: account.id })} disabled={start.isPending} data-testid="seam-link-start">
              {start.isPending ? <Spinner /> : <Link2 aria-hidden />}
              {t(gaveUp ? 'lockAccounts.link.again' : 'lockAccounts.link.start')}
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
