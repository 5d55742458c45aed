import { Check, Minus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LoadError, failedQuery } from '@/components/load-error';
import { StayStateBadge } from '@/components/status-badges';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { StayFolio } from '../stays/bills/stay-folio';
import type { StayDto } from '../stays/stay-action-dialogs';
import { StayCards } from '../stays/stay-cards';
import { StayCredentials } from '../stays/stay-credentials';
import { StayKeyPage } from '../stays/stay-key-page';
import { StayMessages } from '../stays/stay-messages';
import { StayReservationFacts } from '../stays/stay-reservation-facts';
import { isActiveStay, primaryGuestName } from '../stays/dialogs/stay-helpers';
import { StayGuestsPanel } from '../stays/dialogs/stay-guests-panel';

type StayQuery = Parameters<typeof failedQuery>[0] & { data: StayDto | undefined; isLoading: boolean };

/**
 * The room's current stay, once on the page: its times, price and deposit, breakfast and options,
 * the remark ("other information"), its lock passwords and where they stand with the lock, its room
 * cards, and its guests (co-guests are added and removed here); for the front desk, its bill (the
 * folio: deposits, payments and charges recorded here).
 */
export function CurrentStayCard({
  query,
  timeZone,
  currency,
  canManageStays,
}: {
  query: StayQuery;
  timeZone: string;
  currency: string;
  canManageStays: boolean;
}) {
  const { t } = useTranslation();
  const stay = query.data;
  return (
    <Card className="gap-3 px-4 py-3" data-testid="current-stay" data-state={stay?.state}>
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-base font-semibold" data-testid="current-stay-heading">
          {t(stay?.state === 'reserved' ? 'frontDesk.detail.reservationHeading' : 'frontDesk.detail.currentStay')}
        </h2>
        {stay && <StayStateBadge state={stay.state} />}
        {stay && <span className="text-muted-foreground text-xs tabular-nums">#{stay.id}</span>}
      </div>
      {!stay && query.isError ? (
        <LoadError query={failedQuery(query)} what={t('frontDesk.detail.loadWhat.stay')} className="py-6" />
      ) : !stay ? (
        <div className="grid gap-2" aria-busy="true" role="status" aria-label={t('common.loading')}>
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-24 w-full" />
        </div>
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-3 lg:grid-cols-4">
            <Item label={t('frontDesk.detail.checkInAt')}>
              {/* The visit's check-in: after a room change this stay begins at the move, the guest arrived earlier. */}
              <span data-testid="current-stay-check-in">{formatDateTime(stay.visitCheckInAt ?? stay.checkInAt, timeZone)}</span>
              {stay.visitCheckInAt && stay.visitCheckInAt !== stay.checkInAt && (
                <span className="text-muted-foreground block text-xs font-normal" data-testid="current-stay-in-room-since">
                  {t('frontDesk.detail.inRoomSince', { time: formatDateTime(stay.checkInAt, timeZone) })}
                </span>
              )}
            </Item>
            <Item label={t('frontDesk.detail.expectedCheckOutAt')}>{formatDateTime(stay.expectedCheckOutAt, timeZone)}</Item>
            <Item label={t('frontDesk.detail.price')}>{formatMoney(stay.priceAmount, currency)}</Item>
            <Item label={t('frontDesk.detail.deposit')}>{formatMoney(stay.depositAmount, currency)}</Item>
            <div className="col-span-full min-w-0">
              <dt className="text-muted-foreground text-xs">{t('frontDesk.stay.optionsSection')}</dt>
              <dd>
                <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1" data-testid="current-stay-options">
                  <Flag on={stay.breakfast} testId="current-stay-breakfast">
                    {t('frontDesk.stay.breakfast')}
                  </Flag>
                  <Flag on={stay.disableOldCards} testId="current-stay-disable-old-cards">
                    {t('frontDesk.stay.disableOldCards')}
                  </Flag>
                  <Flag on={stay.idCardUnlock} testId="current-stay-id-card-unlock">
                    {t('frontDesk.stay.idCardUnlock')}
                  </Flag>
                </ul>
              </dd>
            </div>
            <div className="col-span-full min-w-0">
              <dt className="text-muted-foreground text-xs">{t('frontDesk.stay.remark')}</dt>
              <dd className="break-words whitespace-pre-wrap" data-testid="current-stay-remark">
                {stay.remark || <span className="text-muted-foreground">—</span>}
              </dd>
            </div>
          </dl>
          <StayReservationFacts stay={stay} timeZone={timeZone} />
          {canManageStays && (
            <div className="border-t pt-3">
              <StayFolio stay={stay} timeZone={timeZone} />
            </div>
          )}
          <div className="border-t pt-3">
            <StayCredentials stayId={stay.id} roomId={stay.roomId} />
          </div>
          <div className="border-t pt-3">
            <StayMessages stayId={stay.id} timeZone={timeZone} canSend={canManageStays} />
          </div>
          <div className="border-t pt-3">
            <StayKeyPage stayId={stay.id} timeZone={timeZone} canManage={canManageStays} />
          </div>
          <div className="border-t pt-3">
            <StayCards
              stay={{ id: stay.id, roomId: stay.roomId, roomName: stay.roomName, holderName: primaryGuestName(stay), isActive: isActiveStay(stay.state) }}
            />
          </div>
          <div className="border-t pt-3">
            <StayGuestsPanel stay={stay} canEdit={canManageStays} />
          </div>
        </>
      )}
    </Card>
  );
}

function Item({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className="font-medium tabular-nums">{children}</dd>
    </div>
  );
}

/** An option of the stay, on or off: a tick or a dash, and the words say which to a screen reader. */
function Flag({ on, testId, children }: { on: boolean; testId: string; children: React.ReactNode }) {
  const { t } = useTranslation();
  const Icon = on ? Check : Minus;
  return (
    <li className={on ? 'flex items-center gap-1.5' : 'text-muted-foreground flex items-center gap-1.5'} data-testid={testId} data-on={on}>
      <Icon className={on ? 'size-4 text-emerald-600' : 'size-4'} aria-hidden />
      <span>{children}</span>
      <span className="sr-only"> ({t(on ? 'frontDesk.stay.optionOn' : 'frontDesk.stay.optionOff')})</span>
    </li>
  );
}
