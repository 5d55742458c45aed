import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRound, Lock, Plus, Send, ShieldCheck, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cardQueries, invalidateCards, invalidateDoorKeyStates, invalidateKeySets, storeKeyStates } from '../api';
import { CARD_RULES, ZCardKeySetCreateInput, type TDeliveryState, type TSharedDoorKind } from '@console/shared';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { DeliveryStateBadge } from '@/components/delivery-state-badge';
import { FormError } from '@/components/form-error';
import { IconAction } from '@/components/icon-action';
import { PageHeader } from '@/components/list-page';
import { LoadError, failedQuery } from '@/components/load-error';
import { RefreshButton } from '@/components/refresh-button';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { SkeletonRows } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { appErrorOf } from '@/lib/api-errors';
import { deliveryErrorKey, isInFlight, isWaitingForAccount } from '@/lib/credentials';
import { fieldMessage } from '@/lib/field-message';
import { formatDateTime, formatNumber } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { useAppForm } from '@/lib/use-app-form';
import { hasPermission, useUserInfo } from '@/lib/user-info';

type KeySet = RouterOutputs['card']['keySets'][number];
/** A lock's row on the page: a room's lock, or a shared door's (room cards name the doors their room is served by). */
interface LockKeyRow {
  key: string;
  testId: string;
  name: string;
  door: TSharedDoorKind | null;
  providerLockId: string;
  deliveryState: TDeliveryState | 'never';
  lastError: string | null;
  deliveredAt: string | null;
}

const SECTORS = Array.from({ length: 15 }, (_, i) => i + 1);

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

/** A new key set: what rotation does, then its name (and sector); the old set retires. */
function NewKeySetDialog({ active, count, onClose, onCreated }: { active: KeySet | null; count: number; onClose(): void; onCreated(): void }) {
  const { t } = useTranslation();
  // Left empty, the server names it "Key set n" as a code, so every reader sees it in their language.
  const form = useAppForm(ZCardKeySetCreateInput, { name: '', sector: active?.sector ?? 1 });
  const create = useMutation(
    trpc.card.createKeySet.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (created) => {
        toast.success(t('cardAdmin.keys.createdToast', { name: created.name, fingerprint: created.fingerprint }));
        onCreated();
        onClose();
      },
      onError: (failure) => form.applyServerErrors(failure),
    }),
  );
  const serverNameError = appErrorOf(create.error)?.fields?.name;
  const submit = form.handleSubmit((input) => create.mutate(input));
  const error = fieldMessage(t, form.formState.errors.name?.message);
  const sector = form.watch('sector');
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={active ? t('cardAdmin.keys.rotateTitle') : t('cardAdmin.keys.firstTitle')}
      description={active ? t('cardAdmin.keys.rotateText', { name: active.name }) : t('cardAdmin.keys.firstText')}
      confirmLabel={active ? t('cardAdmin.keys.rotateConfirm') : t('cardAdmin.keys.firstConfirm')}
      pending={create.isPending}
      onConfirm={() => void submit()}
      data-testid="key-set-new-dialog"
      confirmTestId="key-set-new-confirm"
    >
      {active && (
        <ul className="text-muted-foreground grid list-disc gap-1 ps-5 text-sm" data-testid="key-set-rotation-points">
          <li>{t('cardAdmin.keys.rotateNewCards')}</li>
          <li>{t('cardAdmin.keys.rotateOldCards')}</li>
          <li>{t('cardAdmin.keys.rotateLocks')}</li>
        </ul>
      )}
      <form className="grid gap-2 sm:grid-cols-[1fr_auto] sm:gap-3" onSubmit={(event) => void submit(event)}>
        <FormField id="key-set-name" label={t('cardAdmin.keys.name')} hint={t('cardAdmin.keys.nameOptional')} error={error}>
          <Input
            {...fieldControlProps('key-set-name', error)}
            {...form.register('name')}
            placeholder={t('cardAdmin.keys.defaultName', { n: formatNumber(count + 1) })}
            maxLength={CARD_RULES.nameMaxLength + 10}
            autoComplete="off"
            data-testid="key-set-name"
          />
        </FormField>
        <FormField id="key-set-sector" label={t('cardAdmin.keys.sector')} hint={t('cardAdmin.keys.sectorHint')}>
          <Select value={String(sector)} onValueChange={(value) => form.setValue('sector', Number(value), { shouldDirty: true })}>
            <SelectTrigger {...fieldControlProps('key-set-sector', undefined, true)} className="w-full sm:w-28" data-testid="key-set-sector">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {SECTORS.map((s) => (
                <SelectItem key={s} value={String(s)}>
                  {formatNumber(s)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </FormField>
        <button type="submit" hidden />
      </form>
      <FormError error={serverNameError ? null : create.error} safeToRetry={false} />
    </ConfirmDialog>
  );
}

type KeyStatesQuery<T> = { data: T[] | undefined; error: unknown; isError: boolean; isFetching: boolean; isLoading: boolean; refetch(): unknown };

/** The rooms' locks, then the shared doors, as one list with one loading state, error and refresh. */
function lockKeyRows(
  rooms: KeyStatesQuery<RouterOutputs['card']['keyStates'][number]>,
  doors: KeyStatesQuery<RouterOutputs['card']['doorKeyStates'][number]>,
): KeyStatesQuery<LockKeyRow> {
  const data =
    rooms.data && doors.data
      ? [
          ...rooms.data.map((r) => ({ ...r, key: `room-${r.roomId}`, testId: `lock-key-${r.roomId}`, name: r.roomName, door: null, providerLockId: r.lockId })),
          ...doors.data.map((d) => ({ ...d, key: `door-${d.lockId}`, testId: `lock-key-door-${d.lockId}`, door: d.kind })),
        ]
      : undefined;
  const failed = rooms.isError ? rooms : doors;
  return {
    data,
    error: failed.error,
    isError: rooms.isError || doors.isError,
    isFetching: rooms.isFetching || doors.isFetching,
    isLoading: rooms.isLoading || doors.isLoading,
    refetch: () => Promise.all([rooms.refetch(), doors.refetch()]),
  };
}

interface LockKeysProps {
  query: KeyStatesQuery<LockKeyRow>;
  canSync: boolean;
  syncing: boolean;
  onSync(): void;
  syncError: unknown;
  hasKeys: boolean;
  timeZone: string;
}

/** Each lock's state with the hotel's card keys, and "Send keys to locks" with its progress. */
function LockKeys({ query, canSync, syncing, onSync, syncError, hasKeys, timeZone }: LockKeysProps) {
  const { t } = useTranslation();
  const [show, setShow] = useState<'all' | 'missing'>('all');
  const states = query.data ?? [];
  const shown = show === 'all' ? states : states.filter((s) => s.deliveryState !== 'on_lock');
  const onLock = states.filter((s) => s.deliveryState === 'on_lock').length;
  const pending = states.filter((s) => s.deliveryState !== 'never' && isInFlight(s.deliveryState)).length;
  const failed = states.filter((s) => s.deliveryState === 'failed' || s.deliveryState === 'unknown').length;
  const progress = states.length ? Math.round((onLock / states.length) * 100) : 0;
  return (
    <Card className="gap-0 p-0" data-testid="lock-keys">
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2 border-b p-4">
        <div className="grid gap-1">
          <CardTitle className="flex items-center gap-2">
            <Lock className="size-4" aria-hidden />
            {t('cardAdmin.locks.title')}
          </CardTitle>
          <CardDescription>{t('cardAdmin.locks.text')}</CardDescription>
        </div>
        <div className="flex items-center gap-2">
          <RefreshButton onRefresh={query.refetch} fetching={query.isFetching} />
          {canSync && (
            <Button variant="outline" onClick={onSync} disabled={syncing || states.length === 0} data-testid="keys-sync">
              {syncing ? <Spinner /> : <Send className="rtl:-scale-x-100" aria-hidden />}
              {t('cardAdmin.locks.send')}
            </Button>
          )}
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 p-0">
        <FormError error={syncError} className="m-4 mb-0" />
        {states.length > 0 && (
          <div className="grid gap-2 px-4 pt-4" data-testid="lock-keys-summary" data-on-lock={onLock} data-pending={pending} data-total={states.length}>
            <p className="text-sm" role="status" aria-live="polite">
              {pending > 0
                ? t('cardAdmin.locks.progress', { done: formatNumber(onLock), total: formatNumber(states.length) })
                : t('cardAdmin.locks.summary', { done: formatNumber(onLock), total: formatNumber(states.length) })}
              {failed > 0 && <span className="text-destructive ms-2">{t('cardAdmin.locks.failedCount', { n: formatNumber(failed) })}</span>}
            </p>
            <div
              className="bg-muted h-2 overflow-hidden rounded-full"
              role="progressbar"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={progress}
              aria-label={t('cardAdmin.locks.title')}
            >
              <div className="bg-primary h-full transition-[width]" style={{ width: `${progress}%` }} />
            </div>
            {!hasKeys && <p className="text-muted-foreground text-sm">{t('cardAdmin.locks.noKeysYet')}</p>}
            <ToggleGroup
              type="single"
              value={show}
              onValueChange={(value) => value && setShow(value as 'all' | 'missing')}
              aria-label={t('cardAdmin.locks.show')}
              className="mt-1"
              data-testid="lock-keys-show"
            >
              <ToggleGroupItem value="all" data-testid="lock-keys-show-all">
                {t('cardAdmin.locks.showAll')}
              </ToggleGroupItem>
              <ToggleGroupItem value="missing" data-testid="lock-keys-show-missing">
                {t('cardAdmin.locks.showMissing')}
              </ToggleGroupItem>
            </ToggleGroup>
          </div>
        )}
        {query.isError && !query.data ? (
          <LoadError query={failedQuery(query)} what={t('cardAdmin.locks.what')} />
        ) : query.isLoading ? (
          <SkeletonRows rows={4} label={t('common.loading')} />
        ) : states.length === 0 ? (
          <EmptyState icon={Lock} title={t('cardAdmin.locks.emptyTitle')} description={t('cardAdmin.locks.emptyText')} data-testid="lock-keys-empty" />
        ) : shown.length === 0 ? (
          <EmptyState icon={ShieldCheck} title={t('cardAdmin.locks.allHaveKeys')} data-testid="lock-keys-all-done" />
        ) : (
          <Table data-testid="lock-keys-table">
            <TableHeader>
              <TableRow>
                <TableHead>{t('cardAdmin.locks.where')}</TableHead>
                <TableHead className="hidden sm:table-cell">{t('cardAdmin.locks.lock')}</TableHead>
                <TableHead>{t('cardAdmin.locks.state')}</TableHead>
                <TableHead className="hidden md:table-cell">{t('cardAdmin.locks.deliveredAt')}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {shown.map((s) => (
                <TableRow key={s.key} data-testid={s.testId} data-state={s.deliveryState}>
                  <TableCell className="font-medium">
                    <span dir="auto">{s.name}</span>
                    {s.door && (
                      <span className="text-muted-foreground ms-2 text-xs font-normal" data-testid="lock-key-door-kind">
                        {t('sharedDoors.section')} · {t(`sharedDoors.kinds.${s.door}`)}
                      </span>
                    )}
                  </TableCell>
                  <TableCell className="hidden font-mono text-xs sm:table-cell" dir="ltr">
                    {s.providerLockId}
                  </TableCell>
                  <TableCell>
                    <LockKeyStatus state={s.deliveryState} lastError={s.lastError} testId={s.testId.replace('lock-key-', 'lock-key-error-')} />
                  </TableCell>
                  <TableCell className="text-muted-foreground hidden whitespace-nowrap tabular-nums md:table-cell">
                    {s.deliveredAt ? <time dateTime={s.deliveredAt}>{formatDateTime(s.deliveredAt, timeZone)}</time> : '—'}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

/** A lock's state with the keys (never sent, or a delivery state) and the last error, translated. */
function LockKeyStatus({ state, lastError, testId }: { state: TDeliveryState | 'never'; lastError: string | null; testId: string }) {
  const { t } = useTranslation();
  const errorKey = deliveryErrorKey(lastError);
  return (
    <div className="grid gap-1" aria-live="polite">
      {state === 'never' ? (
        <Badge variant="outline" data-testid="delivery-state" data-state="never">
          {t('cards.keySync.never')}
        </Badge>
      ) : (
        <DeliveryStateBadge state={state} />
      )}
      {errorKey && state !== 'on_lock' && (
        <span className={state === 'pending' ? 'text-muted-foreground text-xs' : 'text-destructive text-xs'} data-testid={testId}>
          {state === 'pending'
            ? t(isWaitingForAccount(state, lastError) ? 'credentials.waiting' : 'credentials.retrying', { reason: t(errorKey) })
            : t(errorKey)}
        </span>
      )}
    </div>
  );
}
