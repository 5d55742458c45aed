import { useQuery } from '@tanstack/react-query';
import { CreditCard, Plus, RefreshCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { CardStateBadge } from '@/components/card-state-badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { requestRoomCards } from '@/lib/room-cards';
import { STAY_CARD_SHOWN, stayQueries } from './api';
import { hasPermission, useUserInfo } from '@/lib/user-info';

/**
 * The room cards of a stay on its card: each card in use with its state; "Write a card" (a new
 * card, or a duplicate when the stay has cards: the dialog asks); a card whose stay was renewed past
 * its end says "needs rewriting" (not "issued": it opens only until the old check-out) with "Write
 * now", which writes that card again in place.
 */
export function StayCards({ stay }: { stay: { id: number; roomId: number; roomName: string; holderName: string; isActive: boolean } }) {
  const { t } = useTranslation();
  const canManage = hasPermission(useUserInfo(), 'credential.manage');
  const list = useQuery(stayQueries.cards(stay.id));
  const items = list.data?.items ?? [];
  const ask = (rewrite?: { issueId: number; cardNumber: string }) =>
    requestRoomCards({
      stayId: stay.id,
      roomId: stay.roomId,
      roomName: stay.roomName,
      holderName: stay.holderName,
      count: 1,
      mode: rewrite ? 'duplicate' : 'ask',
      rewrite,
    });
  return (
    <section className="grid gap-2" aria-labelledby="stay-cards-heading" data-testid="stay-cards">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id="stay-cards-heading" className="text-muted-foreground flex items-center gap-1.5 text-xs">
          <CreditCard className="size-3.5" aria-hidden />
          {t('cards.stay.title')}
        </h3>
        {canManage && stay.isActive && (
          <Button variant="outline" size="sm" className="ms-auto h-7 px-2 text-xs" onClick={() => ask()} data-testid="stay-card-write">
            <Plus aria-hidden />
            {t('cards.writeCard')}
          </Button>
        )}
      </div>
      {list.isLoading ? (
        <Skeleton className="h-6 w-64" aria-label={t('common.loading')} />
      ) : list.isError && !list.data ? (
        <p className="text-destructive text-sm">{t('common.loadFailed', { what: t('cards.stay.loadWhat') })}</p>
      ) : items.length === 0 ? (
        <p className="text-muted-foreground text-sm" data-testid="stay-cards-none">
          {t('cards.stay.none')}
        </p>
      ) : (
        <ul className="flex flex-wrap gap-x-5 gap-y-2 text-sm">
          {items.map((card) => (
            <li
              key={card.id}
              className="flex flex-wrap items-center gap-2"
              data-testid={`stay-card-${card.cardNumber}`}
              data-state={card.state}
              data-rewrite={card.needsRewrite}
            >
              <span className="font-medium tabular-nums [unicode-bidi:isolate]">{t('cards.cardNumber', { number: card.cardNumber })}</span>
              {card.duplicate && <span className="text-muted-foreground text-xs">{t('cards.duplicate')}</span>}
              <CardStateBadge state={card.state} needsRewrite={card.needsRewrite} missingDoors={card.missingDoors} />
              {card.needsRewrite && canManage && (
                <Button
                  variant="outline"
                  size="sm"
                  className="h-7 px-2 text-xs"
                  onClick={() => ask({ issueId: card.id, cardNumber: card.cardNumber })}
                  data-testid={`stay-card-${card.cardNumber}-rewrite`}
                >
                  <RefreshCw aria-hidden />
                  {t('guestKeys.writeNow')}
                </Button>
              )}
            </li>
          ))}
          {(list.data?.total ?? 0) > STAY_CARD_SHOWN && <li className="text-muted-foreground text-xs">{t('cards.stay.more')}</li>}
        </ul>
      )}
    </section>
  );
}
