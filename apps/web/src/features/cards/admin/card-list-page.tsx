import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Ban, CreditCard, Plus, ShieldAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cardQueries, invalidateCards } from '../api';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError } from '@/components/form-error';
import { IconAction } from '@/components/icon-action';
import { ListPage, urlPagination } from '@/components/list-page';
import { ListSearchInput } from '@/components/list-search';
import { ActionsHead, ListTable, RowActions } from '@/components/list-table';
import { RefreshButton } from '@/components/refresh-button';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { formatDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import type { SearchOf } from '@/lib/url-search';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { useSearchBox } from '@/lib/use-search-box';
import { CardRooms, CardIssueState, CardValidity } from './card-bits';
import type { cardListSearchSchema } from './card-admin-search';
import { resetDraft, type AdminCardKind } from './card-draft';
import type { CardIssue } from './card-writer';

export type CardListSearch = SearchOf<typeof cardListSearchSchema>;
const SCOPES = ['active', 'history', 'all'] as const;

const ADD_PATH = { management: '/center/personalCenter/addCard', universal: '/center/personalCenter/addUniversalCard' } as const;
const TITLE = { management: 'route.managementCards', universal: 'route.universalCards' } as const;

interface CardListPageProps {
  kind: AdminCardKind;
  search: CardListSearch;
  onSearch(patch: Partial<CardListSearch>): void;
}

/**
 * The personal centre's `cardList` (management cards) and `universalCardList` (universal, master
 * cards): the hotel's cards of the kind, newest first, with their note, rooms, validity and state;
 * searched by card number or note; active, past or all. An issued card is revoked or reported lost
 * after a confirmation: its locks refuse it from then on (it is denylisted on them; the row says
 * so while that is under way).
 */
export function CardListPage({ kind, search, onSearch }: CardListPageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { timeZone } = useHotelSettings();
  const canManage = hasPermission(useUserInfo(), 'credential.manage');
  const [ending, setEnding] = useState<{ card: CardIssue; how: 'revoke' | 'lost' } | null>(null);
  const { ref: searchBox, text: searchText, setText: setSearchText } = useSearchBox(search.search, (text) => onSearch({ search: text, page: 1 }));
  const list = useQuery(cardQueries.adminList(kind, search));
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / search.pageSize));
  const isPastEnd = list.data !== undefined && !list.isPlaceholderData && search.page > lastPage;
  useEffect(() => {
    if (isPastEnd) onSearch({ page: lastPage });
  }, [isPastEnd, lastPage, onSearch]);

  const onEnded = (card: CardIssue, how: 'revoke' | 'lost') => {
    toast.success(how === 'revoke' ? t('cardAdmin.list.revoked', { number: card.cardNumber }) : t('cardAdmin.list.reportedLost', { number: card.cardNumber }));
    setEnding(null);
  };
  const revoke = useMutation(trpc.card.revoke.mutationOptions({ meta: { showsErrors: true }, onSettled: () => void invalidateCards(queryClient) }));
  const reportLost = useMutation(
    trpc.card.reportLost.mutationOptions({
      meta: { showsErrors: true },
      onSettled: () => void invalidateCards(queryClient),
    }),
  );
  const ender = ending?.how === 'lost' ? reportLost : revoke;

  const addButton = canManage && (
    <Button
      onClick={() => {
        resetDraft(kind);
        void navigate({ to: ADD_PATH[kind] });
      }}
      data-testid="card-add"
    >
      <Plus aria-hidden />
      {t(`cardAdmin.list.add.${kind}`)}
    </Button>
  );
  const isFiltered = search.search !== '' || search.scope !== 'active';

  return (
    <>
      <ListPage
        title={t(TITLE[kind])}
        actions={addButton}
        beforeList={<p className="text-muted-foreground max-w-3xl text-sm">{t(`cardAdmin.list.intro.${kind}`)}</p>}
        query={list}
        what={t(`cardAdmin.list.what.${kind}`)}
        search={
          <ListSearchInput
            ref={searchBox}
            text={searchText}
            onTextChange={setSearchText}
            placeholder={t('cardAdmin.list.searchPlaceholder')}
            data-testid="cards-search"
          />
        }
        filters={
          <ToggleGroup
            type="single"
            value={search.scope}
            onValueChange={(value) => value && onSearch({ scope: value as CardListSearch['scope'], page: 1 })}
            aria-label={t('cardAdmin.list.scope')}
            data-testid="cards-scope"
          >
            {SCOPES.map((scope) => (
              <ToggleGroupItem key={scope} value={scope} data-testid={`cards-scope-${scope}`}>
                {t(`cardAdmin.list.scopes.${scope}`)}
              </ToggleGroupItem>
            ))}
          </ToggleGroup>
        }
        activeFilters={search.scope !== 'active' ? 1 : 0}
        toolbarEnd={<RefreshButton onRefresh={list.refetch} fetching={list.isFetching} />}
        isEmpty={items.length === 0}
        empty={
          <EmptyState
            icon={CreditCard}
            title={isFiltered ? t('cardAdmin.list.emptySearchTitle') : t(`cardAdmin.list.emptyTitle.${kind}`)}
            description={isFiltered ? t('cardAdmin.list.emptySearchText') : t(`cardAdmin.list.emptyText.${kind}`)}
            action={isFiltered ? undefined : addButton}
            data-testid="cards-empty"
          />
        }
        pagination={urlPagination(search, onSearch, total)}
        data-testid={`${kind}-cards`}
      >
        <ListTable
          data-testid="cards-table"
          head={
            <>
              <TableHead>{t('cardAdmin.columns.number')}</TableHead>
              <TableHead>{t('cardAdmin.columns.note')}</TableHead>
              <TableHead>{t('cardAdmin.columns.rooms')}</TableHead>
              <TableHead>{t('cardAdmin.columns.validity')}</TableHead>
              <TableHead>{t('cardAdmin.columns.state')}</TableHead>
              <TableHead className="hidden lg:table-cell">{t('cardAdmin.columns.writtenAt')}</TableHead>
              {canManage && <ActionsHead />}
            </>
          }
        >
          {items.map((card) => (
            <TableRow key={card.id} data-testid={`card-row-${card.cardNumber}`} data-state={card.state}>
              <TableCell className="font-mono text-xs tabular-nums" dir="ltr">
                {card.cardNumber}
              </TableCell>
              <TableCell className="max-w-56 truncate" dir="auto" title={card.note}>
                {card.note || <span className="text-muted-foreground">—</span>}
              </TableCell>
              <TableCell>
                <CardRooms issue={card} />
              </TableCell>
              <TableCell>
                <CardValidity from={card.validFrom} until={card.validUntil} timeZone={timeZone} />
              </TableCell>
              <TableCell>
                <CardIssueState issue={card} />
              </TableCell>
              <TableCell className="text-muted-foreground hidden whitespace-nowrap tabular-nums lg:table-cell">
                {card.issuedAt ? <time dateTime={card.issuedAt}>{formatDateTime(card.issuedAt, timeZone)}</time> : '—'}
              </TableCell>
              {canManage && (
                <RowActions>
                  {card.state === 'issued' && (
                    <>
                      <IconAction
                        label={t('cardAdmin.list.reportLost')}
                        onClick={() => {
                          reportLost.reset();
                          setEnding({ card, how: 'lost' });
                        }}
                        testId={`card-lost-${card.cardNumber}`}
                      >
                        <ShieldAlert aria-hidden />
                      </IconAction>
                      <IconAction
                        label={t('cardAdmin.list.revoke')}
                        onClick={() => {
                          revoke.reset();
                          setEnding({ card, how: 'revoke' });
                        }}
                        testId={`card-revoke-${card.cardNumber}`}
                        destructive
                      >
                        <Ban aria-hidden />
                      </IconAction>
                    </>
                  )}
                </RowActions>
              )}
            </TableRow>
          ))}
        </ListTable>
      </ListPage>

      <ConfirmDialog
        open={ending !== null}
        onOpenChange={(open) => !open && setEnding(null)}
        title={ending?.how === 'lost' ? t('cardAdmin.list.lostTitle') : t('cardAdmin.list.revokeTitle')}
        description={
          ending
            ? t(ending.how === 'lost' ? 'cardAdmin.list.lostText' : 'cardAdmin.list.revokeText', {
                number: ending.card.cardNumber,
                note: ending.card.note || '—',
              })
            : ''
        }
        confirmLabel={ending?.how === 'lost' ? t('cardAdmin.list.reportLost') : t('cardAdmin.list.revoke')}
        destructive
        pending={ender.isPending}
        onConfirm={() => {
          if (!ending) return;
          const { card, how } = ending;
          ender.mutate({ issueId: card.id }, { onSuccess: () => onEnded(card, how) });
        }}
        data-testid="card-end-dialog"
        confirmTestId="card-end-confirm"
      >
        <FormError error={ender.error} safeToRetry={false} />
      </ConfirmDialog>
    </>
  );
}
