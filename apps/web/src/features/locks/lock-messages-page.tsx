import { useEffect, useState } from 'react';
import type { TFunction } from 'i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { BellOff, CheckCheck, MailCheck, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError } from '@/components/form-error';
import { IconAction } from '@/components/icon-action';
import { ClearFiltersButton, ListPage, urlPagination } from '@/components/list-page';
import { RefreshButton } from '@/components/refresh-button';
import { RoomFilter } from '@/components/room-filter';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { formatDateTime, formatNumber } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import type { SearchOf } from '@/lib/url-search';
import { cn } from '@/lib/utils';
import { invalidateLockMessages, lockQueries } from './api';
import type { LockMessageShow, lockMessagesSearchSchema } from './lock-messages-search';

type LockMessage = RouterOutputs['lock']['messages']['items'][number];
type LockMessagesSearch = SearchOf<typeof lockMessagesSearchSchema>;

const route = getRouteApi('/_auth/lock-messages');

/** A message as a sentence: its kind, with what it is about (a battery level) in it. */
export function lockMessageText(t: TFunction, message: Pick<LockMessage, 'kind' | 'content'>): string {
  const content = /^\d+$/.test(message.content) ? formatNumber(Number(message.content)) : message.content;
  return t(`lockMessages.kinds.${message.kind}`, { content });
}

/**
 * `/lock-messages`: alarms and notices from the rooms' locks (low battery, offline, tamper, ...),
 * newest first, filtered to the unread ones or a room. A message is marked read one by one or a
 * page at a time, and deleted after a confirmation. The navbar's count follows.
 */
export function LockMessagesPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const queryClient = useQueryClient();
  const { timeZone } = useHotelSettings();
  const [toDelete, setToDelete] = useState<LockMessage | null>(null);

  const setSearch = (patch: Partial<LockMessagesSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true });
  const list = useQuery(lockQueries.messages(search));
  // The chosen room is named from the URL's id (a reload, a shared link).
  const filterRoom = useQuery(lockQueries.filterRoom(search.roomId));

  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const unreadOnPage = items.filter((m) => !m.read).map((m) => m.id);
  const isFiltered = search.show !== 'all' || search.roomId !== undefined;

  // A page left empty (its last messages deleted or read while only unread ones are shown) gives way to the last one.
  const lastPage = Math.max(1, Math.ceil(total / search.pageSize));
  const isPastEnd = list.data !== undefined && !list.isPlaceholderData && search.page > lastPage;
  useEffect(() => {
    if (isPastEnd) void navigate({ search: (prev) => ({ ...prev, page: lastPage }), replace: true });
  }, [isPastEnd, lastPage, navigate]);

  const changed = () => invalidateLockMessages(queryClient);
  const markRead = useMutation(trpc.lock.markMessagesRead.mutationOptions({ onSettled: changed }));
  const remove = useMutation(
    trpc.lock.deleteMessages.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t('common.deleted'));
        setToDelete(null);
      },
      onSettled: changed,
    }),
  );

  const clearFilters = () => setSearch({ show: 'all', roomId: undefined, page: 1 });

  return (
    <>
      <ListPage
        title={t('route.lockMessages')}
        query={list}
        what={t('lockMessages.listWhat')}
        actions={
          list.data && list.data.unread > 0 ? (
            <span className="text-muted-foreground text-sm" data-testid="lock-messages-unread">
              {t('lockMessages.unreadCount', { number: formatNumber(list.data.unread) })}
            </span>
          ) : undefined
        }
        search={
          <ToggleGroup
            type="single"
            value={search.show}
            onValueChange={(value) => value && setSearch({ show: value as LockMessageShow, page: 1 })}
            aria-label={t('lockMessages.show')}
            className="self-end"
          >
            <ToggleGroupItem value="all" data-testid="lock-messages-show-all">
              {t('lockMessages.showAll')}
            </ToggleGroupItem>
            <ToggleGroupItem value="unread" data-testid="lock-messages-show-unread">
              {t('lockMessages.showUnread')}
            </ToggleGroupItem>
          </ToggleGroup>
        }
        activeFilters={search.roomId === undefined ? 0 : 1}
        filters={
          <RoomFilter
            id="lock-messages-room"
            roomId={search.roomId}
            roomName={filterRoom.data?.name}
            onChange={(roomId) => setSearch({ roomId, page: 1 })}
            className="self-start"
            data-testid="lock-messages-room-filter"
          />
        }
        toolbarEnd={
          <>
            {isFiltered && <ClearFiltersButton onClick={clearFilters} />}
            <Button
              variant="outline"
              disabled={unreadOnPage.length === 0 || markRead.isPending}
              onClick={() => markRead.mutate({ ids: unreadOnPage })}
              data-testid="lock-messages-read-page"
            >
              <CheckCheck aria-hidden />
              {t('lockMessages.markPageRead')}
            </Button>
            <RefreshButton onRefresh={list.refetch} fetching={list.isFetching} />
          </>
        }
        isEmpty={total === 0 || items.length === 0}
        empty={
          <EmptyState
            icon={BellOff}
            title={isFiltered ? t('lockMessages.emptyFilteredTitle') : t('lockMessages.emptyTitle')}
            description={isFiltered ? t('lockMessages.emptyFilteredText') : t('lockMessages.emptyText')}
            action={isFiltered ? <ClearFiltersButton variant="outline" onClick={clearFilters} /> : undefined}
            data-testid="lock-messages-empty"
          />
        }
        pagination={urlPagination(search, setSearch, total)}
        data-testid="lock-messages"
      >
        <Table data-testid="lock-messages-table">
          <TableHeader>
            <TableRow>
              <TableHead className="w-8">
                <span className="sr-only">{t('lockMessages.state')}</span>
              </TableHead>
              <TableHead>{t('stays.room')}</TableHead>
              <TableHead>{t('lockMessages.message')}</TableHead>
              <TableHead className="hidden sm:table-cell">{t('common.time')}</TableHead>
              <TableHead className="w-24">
                <span className="sr-only">{t('common.actions')}</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {items.map((message) => (
              <TableRow
                key={message.id}
                data-testid={`lock-message-${message.id}`}
                data-kind={message.kind}
                data-read={message.read}
                className={cn(!message.read && 'bg-primary/5')}
              >
                <TableCell>
                  <span className={cn('block size-2 rounded-full', message.read ? 'bg-transparent' : 'bg-primary')} aria-hidden />
                  <span className="sr-only">{message.read ? t('lockMessages.read') : t('lockMessages.unread')}</span>
                </TableCell>
                <TableCell className="font-medium">
                  <Link
                    to="/room/$roomId"
                    params={{ roomId: message.roomId }}
                    className="focus-visible:ring-ring rounded-sm outline-none hover:underline focus-visible:ring-2"
                  >
                    {message.roomName}
                  </Link>
                </TableCell>
                <TableCell
                  className={cn(
                    !message.read && 'font-medium',
                    (message.kind === 'lock_offline' || message.kind === 'tamper' || message.kind === 'low_battery') && 'text-destructive',
                  )}
                >
                  {lockMessageText(t, message)}
                  {/* On a phone the time goes under the message, so that the row's buttons fit. */}
                  <time dateTime={message.createdAt} className="text-muted-foreground block text-xs font-normal tabular-nums sm:hidden">
                    {formatDateTime(message.createdAt, timeZone)}
                  </time>
                </TableCell>
                <TableCell className="text-muted-foreground hidden whitespace-nowrap tabular-nums sm:table-cell">
                  <time dateTime={message.createdAt}>{formatDateTime(message.createdAt, timeZone)}</time>
                </TableCell>
                <TableCell>
                  <div className="flex justify-end gap-1">
                    {!message.read && (
                      <IconAction
                        label={t('lockMessages.markRead')}
                        onClick={() => markRead.mutate({ ids: [message.id] })}
                        testId={`lock-message-read-${message.id}`}
                      >
                        <MailCheck aria-hidden />
                      </IconAction>
                    )}
                    <IconAction label={t('common.delete')} onClick={() => setToDelete(message)} testId={`lock-message-delete-${message.id}`} destructive>
                      <Trash2 aria-hidden />
                    </IconAction>
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </ListPage>

      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => {
          if (open) return;
          setToDelete(null);
          remove.reset();
        }}
        title={t('lockMessages.deleteTitle')}
        description={toDelete ? t('lockMessages.deleteText', { message: lockMessageText(t, toDelete), room: toDelete.roomName }) : ''}
        confirmLabel={t('common.delete')}
        destructive
        pending={remove.isPending}
        onConfirm={() => toDelete && remove.mutate({ ids: [toDelete.id] })}
        data-testid="lock-message-delete-dialog"
        confirmTestId="lock-message-delete-confirm"
      >
        <FormError error={remove.error} safeToRetry={false} />
      </ConfirmDialog>
    </>
  );
}
