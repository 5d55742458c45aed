import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CreditCard, Plus, Undo2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ACTIVE_STAY_STATES, type TStayState } from '@console/shared';
import { LoadError, failedQuery } from '@/components/load-error';
import { RefreshButton } from '@/components/refresh-button';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { SkeletonRows } from '@/components/ui/skeleton';
import { useHotelSettings } from '@/lib/hotel-settings';
import { requestRoomCards } from '@/lib/room-cards';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { cardQueries } from './api';
import { CardTable, useCardActions, type CardIssue } from './card-table';
import { ReturnCardDialog } from './return-card-dialog';

export interface GuestCardsProps {
  stay: { id: number; roomId: number; roomName: string; state: TStayState };
  guestName: string;
}

/**
 * The guest page's cards (spec §2 `/room/thetouristsDetails`, reached by reading a card): the
 * stay's room cards, in use first, with each lock's state; "Return a card" (the card on the reader
 * taken back and erased, asked first), "Report lost" and "Revoke" (asked first), "Write again"
 * for a renewed stay, and a new card for the stay while it lasts.
 */
export function GuestCards({ stay, guestName }: GuestCardsProps) {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const canManage = hasPermission(useUserInfo(), 'credential.manage');
  const [isReturnOpen, setIsReturnOpen] = useState(false);
  const actions = useCardActions();
  const list = useQuery(cardQueries.stayCards(stay.id));
  // In use first, then the rest, newest first within each.
  const items = [...(list.data?.items ?? [])].sort((a, b) => Number(b.state === 'issued') - Number(a.state === 'issued'));
  const inUse = items.filter((c) => c.state === 'issued');
  const isActive = (ACTIVE_STAY_STATES as readonly string[]).includes(stay.state);
  const rewrite = (card: CardIssue) =>
    requestRoomCards({
      stayId: stay.id,
      roomId: stay.roomId,
      roomName: stay.roomName,
      holderName: card.holderName,
      count: 1,
      mode: 'duplicate',
      rewrite: { issueId: card.id, cardNumber: card.cardNumber },
    });

  return (
    <Card className="gap-0 p-0 lg:col-span-2" data-testid="guest-cards" aria-labelledby="guest-cards-heading">
      <div className="flex flex-wrap items-center gap-3 border-b p-3">
        <h2 id="guest-cards-heading" className="flex items-center gap-2 font-semibold">
          <CreditCard className="text-muted-foreground size-5" aria-hidden />
          {t('cards.guest.title')}
        </h2>
        <div className="ms-auto flex flex-wrap items-center gap-2">
          <RefreshButton onRefresh={list.refetch} fetching={list.isFetching} size="icon-sm" />
          {canManage && inUse.length > 0 && (
            <Button variant="outline" onClick={() => setIsReturnOpen(true)} data-testid="guest-card-return">
              <Undo2 className="rtl:-scale-x-100" aria-hidden />
              {t('cards.guest.return')}
            </Button>
          )}
          {canManage && isActive && (
            <Button
              variant="outline"
              onClick={() => requestRoomCards({ stayId: stay.id, roomId: stay.roomId, roomName: stay.roomName, holderName: guestName, count: 1, mode: 'ask' })}
              data-testid="guest-card-write"
            >
              <Plus aria-hidden />
              {t('cards.writeCard')}
            </Button>
          )}
        </div>
      </div>
      <div>
        {list.isError && !list.data ? (
          <LoadError query={failedQuery(list)} what={t('cards.guest.loadWhat')} />
        ) : list.isLoading ? (
          <SkeletonRows rows={2} label={t('common.loading')} />
        ) : items.length === 0 ? (
          <EmptyState icon={CreditCard} title={t('cards.guest.noneTitle')} description={t('cards.guest.noneText')} data-testid="guest-cards-empty" />
        ) : (
          <>
            {list.isError && <LoadError query={failedQuery(list)} what={t('cards.guest.loadWhat')} className="m-3" />}
            <CardTable cards={items} timeZone={timeZone} label={t('cards.guest.title')} canManage={canManage} actions={actions} onRewrite={rewrite} />
          </>
        )}
      </div>
      {actions.dialogs}
      <ReturnCardDialog open={isReturnOpen} onOpenChange={setIsReturnOpen} cardNumbers={inUse.map((c) => c.cardNumber)} />
    </Card>
  );
}
