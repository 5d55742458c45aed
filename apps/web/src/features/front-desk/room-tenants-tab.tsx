import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { UserRound, Users } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ACTIVE_STAY_STATES, type TStayState } from '@console/shared';
import { StayStateBadge } from '@/components/status-badges';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { ListPagination } from '@/components/list-pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { formatShortDateTime } from '@/lib/hotel-time';
import { formatMoney } from '@/lib/money';
import { trpc } from '@/lib/trpc';
import { cn } from '@/lib/utils';
import type { StayDto } from './stay-action-dialogs';
import { StayGuestsPanel } from './stay-dialogs/stay-guests-panel';

const PAGE_SIZE = 10;

const isActive = (state: TStayState) => (ACTIVE_STAY_STATES as readonly TStayState[]).includes(state);

/** The stays of the room, newest first with the current one on top, and their guests. */
export function RoomTenantsTab({
  roomId,
  currentStayId,
  timeZone,
  currency,
  canManageStays,
}: {
  roomId: number;
  currentStayId: number | null;
  timeZone: string;
  currency: string;
  canManageStays: boolean;
}) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useQuery(trpc.stay.list.queryOptions({ roomId, page, pageSize: PAGE_SIZE }, { placeholderData: keepPreviousData }));
  const total = list.data?.total ?? 0;
  const stays = [...(list.data?.items ?? [])].sort((a, b) => Number(b.id === currentStayId) - Number(a.id === currentStayId));

  if (list.isLoading) {
    return (
      <div className="space-y-3" aria-busy="true" aria-label={t('common.loading')}>
        {Array.from({ length: 3 }, (_, i) => (
          <Skeleton key={i} className="h-28 w-full" />
        ))}
      </div>
    );
  }
  if (total === 0) {
    return (
      <Card className="p-0">
        <EmptyState icon={Users} title={t('frontDesk.detail.tenantsEmptyTitle')} description={t('frontDesk.detail.tenantsEmptyText')} data-testid="tenants-empty" />
      </Card>
    );
  }
  return (
    <div className="space-y-3">
      <ul className="space-y-3" data-testid="stay-list">
        {stays.map((stay) => (
          <li key={stay.id}>
            <StayCard stay={stay} isCurrent={stay.id === currentStayId} timeZone={timeZone} currency={currency} canManageStays={canManageStays} />
          </li>
        ))}
      </ul>
      {total > PAGE_SIZE && (
        <ListPagination
          page={page}
          pageSize={PAGE_SIZE}
          total={total}
          onPageChange={setPage}
        />
      )}
    </div>
  );
}

function StayCard({ stay, isCurrent, timeZone, currency, canManageStays }: { stay: StayDto; isCurrent: boolean; timeZone: string; currency: string; canManageStays: boolean }) {
  const { t } = useTranslation();
  const active = isActive(stay.state);
  return (
    <Card className={cn('gap-3 px-4 py-3', isCurrent && 'border-primary')} data-testid={`stay-${stay.id}`} data-state={stay.state}>
      <div className="flex flex-wrap items-center gap-2">
        <StayStateBadge state={stay.state} />
        {isCurrent && <span className="text-primary text-xs font-medium">{t('frontDesk.detail.currentStay')}</span>}
        <span className="text-muted-foreground text-xs tabular-nums">#{stay.id}</span>
        {stay.movedFromStayId !== null && <span className="text-muted-foreground text-xs">{t('frontDesk.detail.movedIn')}</span>}
      </div>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-3 lg:grid-cols-5">
        <Item label={t('frontDesk.detail.checkInAt')}>{formatShortDateTime(stay.checkInAt, timeZone)}</Item>
        <Item label={t('frontDesk.detail.expectedCheckOutAt')}>{formatShortDateTime(stay.expectedCheckOutAt, timeZone)}</Item>
        <Item label={t('frontDesk.detail.checkedOutAt')}>{stay.checkedOutAt ? formatShortDateTime(stay.checkedOutAt, timeZone) : '—'}</Item>
        <Item label={t('frontDesk.detail.price')}>{formatMoney(stay.priceAmount, currency)}</Item>
        <Item label={t('frontDesk.detail.deposit')}>{formatMoney(stay.depositAmount, currency)}</Item>
      </dl>
      {/* The active stay shows its guests panel (add or remove co-guests); past stays list their guests. */}
      {active ? (
        <div className="border-t pt-3">
          <StayGuestsPanel stay={stay} canEdit={canManageStays} />
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
          <span className="text-muted-foreground text-xs">{t('frontDesk.detail.guests')}</span>
          {stay.guests.map((guest) => (
            <Link
              key={guest.id}
              to="/room/thetouristsDetails"
              search={{ id: guest.id }}
              className="text-primary focus-visible:ring-ring inline-flex items-center gap-1 rounded-sm underline-offset-4 outline-none hover:underline focus-visible:ring-2"
              data-testid={`guest-link-${guest.id}`}
            >
              <UserRound className="size-3.5" aria-hidden />
              {guest.name}
              {guest.isPrimary && <span className="text-muted-foreground text-xs">({t('frontDesk.detail.primaryGuest')})</span>}
            </Link>
          ))}
        </div>
      )}
    </Card>
  );
}

function Item({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className="truncate tabular-nums">{children}</dd>
    </div>
  );
}
