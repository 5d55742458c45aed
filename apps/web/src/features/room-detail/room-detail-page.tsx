import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, getRouteApi, useNavigate } from '@tanstack/react-router';
import { ArrowLeft, DoorClosed } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LoadError, failedQuery } from '@/components/load-error';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { appErrorOf } from '@/lib/api-errors';
import { useHotelSettings } from '@/lib/hotel-settings';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { roomDetailQueries } from './api';
import { CurrentStayCard } from './current-stay-card';
import { LockPanel } from '../lock-panel/lock-panel';
import { NextReservationCard } from './next-reservation-card';
import { RoomDetailHeader } from './room-detail-header';
import { RoomPriceTab } from './room-price-tab';
import { RoomSettingsTab } from './room-settings-tab';
import { RoomStatusTab } from './room-status-tab';
import { RoomStaysTab } from './room-stays-tab';
import { RoomUnlockTab } from './room-unlock-tab';
import { StayActionDialogs, useStayActions } from '../stays/stay-action-dialogs';
import { ROOM_DETAIL_TABS, type RoomDetailTab } from './room-detail-search';

const route = getRouteApi('/_auth/room/$roomId');

/** What the Credentials tab is given (the tab itself is another feature's: the route passes it in). */
export interface RoomCredentialsSlotProps {
  room: {
    id: number;
    name: string;
    lockId: string | null;
    /** What the room's lock takes (null: no lock, whose credentials wait for one): only that is offered. */
    takes: { onlineCodes: boolean; offlineCodes: boolean; faces: boolean; cards: boolean; noZero?: boolean; encodedCards?: boolean } | null;
  };
  /** The room's current stay, if any: passwords can be issued for its guest. */
  stay: { id: number; checkInAt: string; expectedCheckOutAt: string; guestName: string } | null;
  timeZone: string;
  canManage: boolean;
}

/**
 * `/room/$roomId`: one room, its current stay (once, with its guests, options and remark) and the
 * front-desk actions on it (spec §4). The open tab is in the URL: switching tabs is a navigation,
 * so unsaved settings or prices ask before they are thrown away (the unsaved-changes guard blocks
 * navigations while a form is dirty), and so does leaving the page. The Credentials tab (lock
 * passwords) belongs to the credentials feature: the route passes it in as `credentialsTab`.
 */
export function RoomDetailPage({
  credentialsTab,
  outOfOrder,
}: {
  credentialsTab?(props: RoomCredentialsSlotProps): ReactNode;
  /** The room's out-of-order ranges by dates (the housekeeping feature's, docs/housekeeping.md), under its status. */
  outOfOrder?(props: { roomId: number; roomName: string }): ReactNode;
} = {}) {
  const { t } = useTranslation();
  const { roomId } = route.useParams();
  const { tab } = route.useSearch();
  const navigate = route.useNavigate();
  const goTo = useNavigate();
  const user = useUserInfo();
  const { timeZone, currency } = useHotelSettings();
  const canManageRooms = hasPermission(user, 'room.manage');
  const canManageStays = hasPermission(user, 'stay.manage');
  const canManagePrices = hasPermission(user, 'price.manage');
  const canManageCredentials = hasPermission(user, 'credential.manage');
  const stayActions = useStayActions();

  // This page shows its own load errors (and "not found"): no toast besides.
  const room = useQuery(roomDetailQueries.room(roomId));
  const currentStayId = room.data?.currentStay?.id;
  const currentStay = useQuery(roomDetailQueries.currentStay(currentStayId));

  const tabs = ROOM_DETAIL_TABS.filter((value) => (value === 'settings' ? canManageRooms : value === 'credentials' ? credentialsTab !== undefined : true));
  const activeTab = tabs.includes(tab) ? tab : 'stays';

  const backLink = (
    <Link
      to="/room"
      className="text-muted-foreground hover:text-foreground focus-visible:ring-ring inline-flex items-center gap-1.5 rounded-sm text-sm outline-none focus-visible:ring-2"
      data-testid="back-to-board"
    >
      <ArrowLeft className="size-4 rtl:rotate-180" aria-hidden />
      {t('frontDesk.detail.back')}
    </Link>
  );

  if (room.isLoading) {
    return (
      <div className="space-y-4" aria-busy="true">
        {backLink}
        <h1 className="sr-only">{t('route.roomDetail')}</h1>
        <Skeleton className="h-9 w-48" />
        <Skeleton className="h-28 w-full" />
        <Skeleton className="h-10 w-96 max-w-full" />
        <Skeleton className="h-64 w-full" />
      </div>
    );
  }

  if (!room.data) {
    // A room that does not exist (or is not this member's) says so once, as the page's heading.
    if (appErrorOf(room.error)?.code === 'NOT_FOUND') {
      return (
        <div className="space-y-4">
          {backLink}
          <Card className="items-center gap-3 px-6 py-12 text-center" data-testid="room-detail-error">
            <div className="bg-muted flex size-12 items-center justify-center rounded-full">
              <DoorClosed className="text-muted-foreground size-6" aria-hidden />
            </div>
            <h1 className="text-xl font-semibold">{t('frontDesk.detail.notFoundTitle')}</h1>
            <p className="text-muted-foreground max-w-md text-sm">{t('frontDesk.detail.notFoundText')}</p>
          </Card>
        </div>
      );
    }
    return (
      <div className="space-y-4">
        {backLink}
        <h1 className="text-2xl font-semibold">{t('route.roomDetail')}</h1>
        <Card className="p-0" data-testid="room-detail-error">
          <LoadError query={failedQuery(room)} what={t('frontDesk.detail.loadWhat.room')} />
        </Card>
      </div>
    );
  }

  const data = room.data;
  return (
    <div className="space-y-4" data-testid="room-detail" data-status={data.status}>
      {backLink}
      <LoadError query={failedQuery(room)} what={t('frontDesk.detail.loadWhat.room')} />
      <RoomDetailHeader
        room={data}
        stay={currentStay.data ?? null}
        isStayLoading={currentStay.isLoading}
        canManageStays={canManageStays}
        onCheckIn={() => stayActions.openCheckIn({ id: data.id, name: data.name })}
        onReserve={() => stayActions.openReservation({ id: data.id, name: data.name })}
        onStayAction={stayActions.openWithStay}
      />
      {data.currentStay && <CurrentStayCard query={currentStay} timeZone={timeZone} currency={currency} canManageStays={canManageStays} />}
      {data.nextStay && (
        <NextReservationCard
          stay={data.nextStay}
          timeZone={timeZone}
          canManageStays={canManageStays}
          isLoading={stayActions.loadingStayId === data.nextStay.id}
          onAction={stayActions.openForStay}
        />
      )}

      <Tabs value={activeTab} onValueChange={(value) => void navigate({ search: { tab: value as RoomDetailTab }, replace: true })}>
        <TabsList aria-label={t('route.roomDetail')}>
          {tabs.map((value) => (
            <TabsTrigger key={value} value={value} data-testid={`tab-${value}`}>
              {t(`frontDesk.detail.tabs.${value}`)}
            </TabsTrigger>
          ))}
        </TabsList>
        {/* Keyed by room: after a room change the tabs start afresh on the new room. */}
        <TabsContent value="stays" key={`stays-${data.id}`}>
          <RoomStaysTab
            roomId={data.id}
            currentStayId={currentStayId ?? null}
            timeZone={timeZone}
            currency={currency}
            canManageStays={canManageStays}
            onStayAction={stayActions.openWithStay}
          />
        </TabsContent>
        {credentialsTab && (
          <TabsContent value="credentials" key={`credentials-${data.id}`}>
            {credentialsTab({
              room: { id: data.id, name: data.name, lockId: data.lockId, takes: data.lock?.takes ?? null },
              stay:
                currentStay.data && currentStayId !== undefined
                  ? {
                      id: currentStay.data.id,
                      checkInAt: currentStay.data.checkInAt,
                      expectedCheckOutAt: currentStay.data.expectedCheckOutAt,
                      guestName: primaryGuest(currentStay.data),
                    }
                  : null,
              timeZone,
              canManage: canManageCredentials,
            })}
          </TabsContent>
        )}
        {/* The room's lock (its state, remote unlock, what it holds): a tab of its own, not the room's status. */}
        <TabsContent value="lock" key={`lock-${data.id}`}>
          <LockPanel room={data} />
        </TabsContent>
        <TabsContent value="unlock" key={`unlock-${data.id}`}>
          <RoomUnlockTab roomId={data.id} timeZone={timeZone} />
        </TabsContent>
        {canManageRooms && (
          <TabsContent value="settings" key={`settings-${data.id}`}>
            <RoomSettingsTab room={data} />
          </TabsContent>
        )}
        <TabsContent value="price" key={`price-${data.id}`}>
          <RoomPriceTab roomId={data.id} currency={currency} canEdit={canManagePrices} />
        </TabsContent>
        <TabsContent value="status" key={`status-${data.id}`}>
          <RoomStatusTab room={data} canChange={canManageStays} />
          {outOfOrder && canManageRooms && <div className="mt-4">{outOfOrder({ roomId: data.id, roomName: data.name })}</div>}
        </TabsContent>
      </Tabs>

      <StayActionDialogs
        action={stayActions.action}
        onClose={stayActions.close}
        onRoomChanged={(stay) => void goTo({ to: '/room/$roomId', params: { roomId: stay.roomId }, search: { tab: activeTab } })}
      />
    </div>
  );
}

function primaryGuest(stay: { guests: { name: string; isPrimary: boolean }[] }): string {
  return stay.guests.find((g) => g.isPrimary)?.name ?? stay.guests[0]?.name ?? '';
}
