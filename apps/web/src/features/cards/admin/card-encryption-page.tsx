import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRound, Plus, ShieldCheck, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cardQueries, invalidateCards, invalidateDoorKeyStates, invalidateKeySets, storeKeyStates } from '../api';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError } from '@/components/form-error';
import { IconAction } from '@/components/icon-action';
import { PageHeader } from '@/components/list-page';
import { LoadError, failedQuery } from '@/components/load-error';
import { RefreshButton } from '@/components/refresh-button';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { SkeletonRows } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDateTime, formatNumber } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { LockKeys, lockKeyRows } from './lock-keys';
import { NewKeySetDialog, type KeySet } from './new-key-set-dialog';

/**
 * `/cardEncryption/cardEncryption` (spec §2, shown with apiKeyAuth; issue 8 §1): the hotel's card
 * key sets, never their keys (name, sector, fingerprint, in use or retired until its last card
 * expires, the cards issued under it); a new set (rotation, after a confirmation that says what
 * it does), deleting a retired set no card uses (confirmed; the server refuses while cards use
 * it), and sending the keys to the locks with each lock's state, followed live until every lock
 * has answered.
 */
export function CardEncryptionPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { timeZone } = useHotelSettings();
  const user = useUserInfo();
  const canSync = hasPermission(user, 'credential.manage');
  const keySets = useQuery(cardQueries.keySets());
  const keyStates = useQuery(cardQueries.keyStates());
  const doorKeyStates = useQuery(cardQueries.doorKeyStates());
  const [isCreateOpen, setIsCreateOpen] = useState(false);
  const [toDelete, setToDelete] = useState<KeySet | null>(null);
  const sets = keySets.data ?? [];
  const active = sets.find((k) => k.isActive) ?? null;

  const refreshAll = () => void invalidateCards(queryClient);
  const remove = useMutation(
    trpc.card.deleteKeySet.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t('cardAdmin.keys.deleted'));
        setToDelete(null);
      },
      onSettled: refreshAll,
    }),
  );
  const sync = useMutation(
    trpc.card.syncKeys.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (states) => {
        storeKeyStates(queryClient, states);
        toast.success(t('cardAdmin.locks.sending', { n: formatNumber(states.length + (doorKeyStates.data?.length ?? 0)) }));
      },
      onSettled: () => {
        void invalidateKeySets(queryClient);
        void invalidateDoorKeyStates(queryClient);
      },
    }),
  );

  const newButton = (
    <Button onClick={() => setIsCreateOpen(true)} data-testid="key-set-new">
      <Plus aria-hidden />
      {t('cardAdmin.keys.new')}
    </Button>
  );

  return (
    <div className="flex flex-col gap-4" data-testid="card-encryption">
      <PageHeader title={t('route.cardEncryption')} isBusy={keySets.isFetching && !keySets.isLoading} actions={newButton} />
      <p className="text-muted-foreground max-w-3xl text-sm">{t('cardAdmin.keys.intro')}</p>

      <Card className="gap-0 p-0">
        <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2 border-b p-4">
          <div className="grid gap-1">
            <CardTitle className="flex items-center gap-2">
              <KeyRound className="size-4" aria-hidden />
              {t('cardAdmin.keys.title')}
            </CardTitle>
            <CardDescription>{t('cardAdmin.keys.text')}</CardDescription>
          </div>
          <RefreshButton onRefresh={keySets.refetch} fetching={keySets.isFetching} />
        </CardHeader>
        {keySets.isError && !keySets.data ? (
          <LoadError query={failedQuery(keySets)} what={t('cardAdmin.keys.what')} />
        ) : keySets.isLoading ? (
          <SkeletonRows rows={3} label={t('common.loading')} />
        ) : sets.length === 0 ? (
          <EmptyState
            icon={KeyRound}
            title={t('cardAdmin.keys.emptyTitle')}
            description={t('cardAdmin.keys.emptyText')}
            action={newButton}
            data-testid="key-sets-empty"
          />
        ) : (
          <Table data-testid="key-sets">
            <TableHeader>
              <TableRow>
                <TableHead>{t('cardAdmin.keys.name')}</TableHead>
                <TableHead>{t('cardAdmin.keys.sector')}</TableHead>
                <TableHead>{t('cardAdmin.keys.fingerprint')}</TableHead>
                <TableHead>{t('cardAdmin.keys.state')}</TableHead>
                <TableHead className="text-end">{t('cardAdmin.keys.cards')}</TableHead>
                <TableHead className="hidden md:table-cell">{t('cardAdmin.keys.created')}</TableHead>
                <TableHead className="text-end">{t('common.actions')}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {sets.map((k) => (
                <TableRow key={k.id} data-testid={`key-set-${k.id}`} data-active={k.isActive} data-fingerprint={k.fingerprint}>
                  <TableCell className="max-w-48 truncate font-medium" dir="auto" title={k.name}>
                    {k.name}
                  </TableCell>
                  <TableCell className="tabular-nums">{formatNumber(k.sector)}</TableCell>
                  <TableCell className="font-mono text-xs" dir="ltr" data-testid={`key-set-fingerprint-${k.id}`}>
                    {k.fingerprint}
                  </TableCell>
                  <TableCell data-testid={`key-set-state-${k.id}`}>
                    <KeySetState keySet={k} timeZone={timeZone} />
                  </TableCell>
                  <TableCell className="text-end tabular-nums" data-testid={`key-set-cards-${k.id}`}>
                    {formatNumber(k.issuedCards)}
                  </TableCell>
                  <TableCell className="text-muted-foreground hidden whitespace-nowrap tabular-nums md:table-cell">
                    <time dateTime={k.createdAt}>{formatDateTime(k.createdAt, timeZone)}</time>
                  </TableCell>
                  <TableCell className="text-end">
                    {!k.isActive && (
                      <IconAction
                        label={t('cardAdmin.keys.delete')}
                        onClick={() => {
                          remove.reset();
                          setToDelete(k);
                        }}
                        testId={`key-set-delete-${k.id}`}
                        destructive
                      >
                        <Trash2 aria-hidden />
                      </IconAction>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Card>

      <LockKeys
        query={lockKeyRows(keyStates, doorKeyStates)}
        canSync={canSync}
        syncing={sync.isPending}
        onSync={() => sync.mutate({})}
        syncError={sync.error}
        hasKeys={active !== null}
        timeZone={timeZone}
      />

      {isCreateOpen && <NewKeySetDialog active={active} count={sets.length} onClose={() => setIsCreateOpen(false)} onCreated={refreshAll} />}
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title={t('cardAdmin.keys.deleteTitle')}
        description={toDelete ? t('cardAdmin.keys.deleteText', { name: toDelete.name, fingerprint: toDelete.fingerprint }) : ''}
        confirmLabel={t('common.delete')}
        destructive
        pending={remove.isPending}
        onConfirm={() => toDelete && remove.mutate({ id: toDelete.id })}
        data-testid="key-set-delete-dialog"
        confirmTestId="key-set-delete-confirm"
      >
        <FormError error={remove.error} safeToRetry={false} />
      </ConfirmDialog>
    </div>
  );
}

/** In use, or retired and kept on the locks until its last card ends. */
function KeySetState({ keySet, timeZone }: { keySet: KeySet; timeZone: string }) {
  const { t } = useTranslation();
  const [now] = useState(() => Date.now());
  if (keySet.isActive) {
    return (
      <Badge variant="success" data-state="active">
        <ShieldCheck aria-hidden />
        {t('cardAdmin.keys.active')}
      </Badge>
    );
  }
  const over = keySet.keepUntil !== null && Date.parse(keySet.keepUntil) <= now;
  return (
    <span className="inline-flex flex-col gap-1">
      <Badge variant="secondary" data-state={over ? 'over' : 'retired'}>
        {t('cardAdmin.keys.retired')}
      </Badge>
      <span className="text-muted-foreground text-xs">
        {keySet.keepUntil === null
          ? t('cardAdmin.keys.keptWhileNoEnd')
          : over
            ? t('cardAdmin.keys.keptUntilOver')
            : t('cardAdmin.keys.keptUntil', { at: formatDateTime(keySet.keepUntil, timeZone) })}
      </span>
    </span>
  );
}
