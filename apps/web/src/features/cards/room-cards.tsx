import { Suspense, lazy, useState } from 'react';
import { CreditCard, History, Plus, RadioTower } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { CredentialSection, useSectionList } from '@/components/credential-section';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { useMountedOnce, usePrefetchWhenIdle } from '@/lib/lazy';
import { requestRoomCards } from '@/lib/room-cards';
import { cardQueries } from './api';
import { CardTable, useCardActions, type CardIssue } from './card-table';
import { LockCannotTake, lockTakes, type LockTakes } from '@/components/lock-cannot-take';

const noLoad = () => Promise.resolve();

/** "Send a card number to the lock" (a form with zod and the reader drivers) is a chunk of its own, loaded when the page is idle. */
const loadSendDialog = () => import('./send-card-dialog');
const SendCardDialog = lazy(() => loadSendDialog().then((m) => ({ default: m.SendCardDialog })));

export interface RoomCardsProps {
  room: { id: number; name: string; lockId: string | null; takes?: LockTakes | null };
  /** The room's current stay: cards can be written, or their numbers sent to the lock, for it. */
  stay: { id: number; guestName: string; expectedCheckOutAt: string } | null;
  timeZone: string;
  canManage: boolean;
}

/**
 * The room's cards under the Credentials tab: in use (issued), or under History the ones
 * returned, lost, replaced by a new card, ended with their stay or never written, and why; each
 * lock's state (a lost or revoked card is denylisted on its locks, followed until they confirm);
 * report lost and revoke, each confirmed; a card written for the current stay; and a card's
 * number sent to the room's lock over the air (nothing written on the card), for the stay or a period.
 */
export function RoomCards({ room, stay, timeZone, canManage }: RoomCardsProps) {
  const { t } = useTranslation();
  const actions = useCardActions();
  const [isSendOpen, setIsSendOpen] = useState(false);
  // A hotel card system's door takes the system's cards, encoded at the desk (the host's encoder dialog): no number sent.
  const encodes = room.takes?.encodedCards === true;
  const canSend = canManage && room.lockId !== null && !encodes;
  usePrefetchWhenIdle(canSend ? loadSendDialog : noLoad);
  const isSendMounted = useMountedOnce(isSendOpen);
  const list = useSectionList((input) => cardQueries.roomSection(room.id, input));

  const write = () => stay && requestRoomCards({ stayId: stay.id, roomId: room.id, roomName: room.name, holderName: stay.guestName, count: 1, mode: 'ask' });
  const rewrite = (card: CardIssue) =>
    card.stayId !== null &&
    requestRoomCards({
      stayId: card.stayId,
      roomId: room.id,
      roomName: room.name,
      holderName: card.holderName,
      count: 1,
      mode: 'duplicate',
      rewrite: { issueId: card.id, cardNumber: card.cardNumber },
    });

  return (
    <CredentialSection
      list={list}
      data-testid="room-cards"
      title={t('cards.room.title')}
      titleId="room-cards-heading"
      icon={CreditCard}
      scopeLabel={t('cards.room.scopeLabel')}
      scopeTestIdPrefix="cards"
      action={
        encodes ? (
          canManage &&
          stay && (
            <Button variant="outline" onClick={write} data-testid="room-cards-encode">
              <Plus aria-hidden />
              {t('cards.encode.button')}
            </Button>
          )
        ) : !lockTakes(room.takes ?? null, 'cards') ? (
          <LockCannotTake what="cards" roomName={room.name} />
        ) : (
          <>
            {canManage && stay && (
              <Button variant="outline" onClick={write} data-testid="room-cards-write">
                <Plus aria-hidden />
                {t('cards.writeCard')}
              </Button>
            )}
            {canSend && (
              <Button variant="outline" onClick={() => setIsSendOpen(true)} data-testid="room-cards-send">
                <RadioTower aria-hidden />
                {t('cards.send.button')}
              </Button>
            )}
          </>
        )
      }
      what={t('cards.room.loadWhat')}
      skeletonRows={2}
      empty={{
        active: (
          <EmptyState icon={CreditCard} title={t('cards.room.emptyActiveTitle')} description={t('cards.room.emptyActiveText')} data-testid="room-cards-empty" />
        ),
        history: (
          <EmptyState
            icon={History}
            title={t('cards.room.emptyHistoryTitle')}
            description={t('cards.room.emptyHistoryText')}
            data-testid="room-cards-history-empty"
          />
        ),
      }}
      table={
        <CardTable
          cards={list.query.data?.items ?? []}
          timeZone={timeZone}
          label={t('cards.room.tableLabel', { room: room.name })}
          canManage={canManage}
          actions={actions}
          onRewrite={rewrite}
        />
      }
      dialogs={
        <>
          {actions.dialogs}
          {isSendMounted && (
            <Suspense fallback={null}>
              <SendCardDialog open={isSendOpen} onOpenChange={setIsSendOpen} room={room} stay={stay} timeZone={timeZone} />
            </Suspense>
          )}
        </>
      }
    />
  );
}
