import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { CreditCard, History, Plus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ListPagination } from '@/components/list-pagination';
import { LoadError, failedQuery } from '@/components/load-error';
import { RefreshButton } from '@/components/refresh-button';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { SkeletonRows } from '@/components/ui/skeleton';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { refetchWhileInFlight } from '@/lib/credentials';
import { requestRoomCards } from '@/lib/room-cards';
import { trpc } from '@/lib/trpc';
import { CardTable, useCardActions, type CardIssue } from './card-table';

type Scope = 'active' | 'history';
const PAGE_SIZE = 10;

export interface RoomCardsProps {
  room: { id: number; name: string; lockId: string | null };
  /** The room's current stay: cards can be written for it. */
  stay: { id: number; guestName: string } | null;
  timeZone: string;
  canManage: boolean;
}

/** A list of cards asks again every 1.5 s while one of its locks is still being told (a lost card's denylisting, for instance). */
function refetchWhileLocksWork(query: { state: { data?: { items: readonly CardIssue[] } } }): number | false {
  return refetchWhileInFlight({ state: { data: query.state.data && { items: query.state.data.items.flatMap((c) => c.grants) } } });
}

/**
 * The room's cards under the Credentials tab: in use (issued), or under History the ones
 * returned, lost, replaced by a new card, ended with their stay or never written, and why; each
 * lock's state (a lost or revoked card is denylisted on its locks, followed until they confirm);
 * report lost and revoke, each confirmed; and a card written for the current stay.
 */
export function RoomCards({ room, stay, timeZone, canManage }: RoomCardsProps) {
  const { t } = useTranslation();
  const [scope, setScope] = useState<Scope>('active');
  const [page, setPage] = useState(1);
  const actions = useCardActions();
  const list = useQuery(
    trpc.card.list.queryOptions({ roomId: room.id, scope, page, pageSize: PAGE_SIZE }, { placeholderData: keepPreviousData, refetchInterval: refetchWhileLocksWork, meta: { showsErrors: true } }),
  );
  const total = list.data?.total ?? 0;
  const items = list.data?.items ?? [];
  const lastPage = Math.max(1, Math.ceil(total / PAGE_SIZE));
  if (list.data && !list.isPlaceholderData && page > lastPage) setPage(lastPage);

  const write = () => stay && requestRoomCards({ stayId: stay.id, roomId: room.id, roomName: room.name, holderName: stay.guestName, count: 1, mode: 'ask' });
  const rewrite = (card: CardIssue) =>
    card.stayId !== null && requestRoomCards({ stayId: card.stayId, roomId: room.id, roomName: room.name, holderName: card.holderName, count: 1, mode: 'duplicate', rewrite: { issueId: card.id, cardNumber: card.cardNumber } });

  return (
    <Card className="gap-0 p-0" data-testid="room-cards" aria-labelledby="room-cards-heading">
      <div className="flex flex-wrap items-center gap-3 border-b p-3">
        <h2 id="room-cards-heading" className="flex items-center gap-2 font-semibold">
          <CreditCard className="size-4" aria-hidden />
          {t('cards.room.title')}
        </h2>
        <ToggleGroup
          type="single"
          value={scope}
          onValueChange={(value) => {
            if (!value) return;
            setScope(value as Scope);
            setPage(1);
          }}
          aria-label={t('cards.room.scopeLabel')}
        >
          <ToggleGroupItem value="active" data-testid="cards-scope-active">
            <CreditCard aria-hidden />
            {t('credentials.scopes.active')}
          </ToggleGroupItem>
          <ToggleGroupItem value="history" data-testid="cards-scope-history">
            <History aria-hidden />
            {t('credentials.scopes.history')}
          </ToggleGroupItem>
        </ToggleGroup>
        <div className="ms-auto flex items-center gap-2">
          <RefreshButton onRefresh={list.refetch} fetching={list.isFetching} size="icon-sm" />
          {canManage && stay && (
            <Button variant="outline" onClick={write} data-testid="room-cards-write">
              <Plus aria-hidden />
              {t('cards.writeCard')}
            </Button>
          )}
        </div>
      </div>

      {list.isError && !list.data ? (
        <LoadError query={failedQuery(list)} what={t('cards.room.loadWhat')} />
      ) : list.isLoading ? (
        <SkeletonRows rows={2} label={t('common.loading')} />
      ) : total === 0 ? (
        scope === 'active' ? (
          <EmptyState icon={CreditCard} title={t('cards.room.emptyActiveTitle')} description={t('cards.room.emptyActiveText')} data-testid="room-cards-empty" />
        ) : (
          <EmptyState icon={History} title={t('cards.room.emptyHistoryTitle')} description={t('cards.room.emptyHistoryText')} data-testid="room-cards-history-empty" />
        )
      ) : (
        <>
          {list.isError && <LoadError query={failedQuery(list)} what={t('cards.room.loadWhat')} className="m-3" />}
          <CardTable cards={items} timeZone={timeZone} label={t('cards.room.tableLabel', { room: room.name })} canManage={canManage} actions={actions} onRewrite={rewrite} />
        </>
      )}

      {total > PAGE_SIZE && (
        <div className="border-t p-3">
          <ListPagination page={page} pageSize={PAGE_SIZE} total={total} onPageChange={setPage} />
        </div>
      )}
      {actions.dialogs}
    </Card>
  );
}
