import { useQuery } from '@tanstack/react-query';
import { Link, getRouteApi, useNavigate } from '@tanstack/react-router';
import { ArrowLeft, DoorClosed } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { appErrorOf } from '@/lib/api-errors';
import { trpc } from '@/lib/trpc';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { RoomDetailHeader } from './room-detail-header';
import { RoomPriceTab } from './room-price-tab';
import { RoomSettingsTab } from './room-settings-tab';
import { RoomStatusTab } from './room-status-tab';
import { RoomTenantsTab } from './room-tenants-tab';
import { RoomUnlockTab } from './room-unlock-tab';
import { StayActionDialogs, useStayActions } from './stay-action-dialogs';

export const ROOM_DETAIL_TABS = ['tenants', 'unlock', 'settings', 'price', 'status'] as const;
export type RoomDetailTab = (typeof ROOM_DETAIL_TABS)[number];

/** The open tab lives in the URL, so a reload or a shared link shows the same one. */
export const roomDetailSearchSchema = z.object({
  tab: z.enum(ROOM_DETAIL_TABS).catch('tenants').default('tenants'),
});

const route = getRouteApi('/_auth/room/$roomId');

/** `/room/$roomId`: one room, its current stay and the front-desk actions on it (spec §4). */
export function RoomDetailPage() {
  const { t } = useTranslation();
  const { roomId } = route.useParams();
  const { tab } = route.useSearch();
  const navigate = route.useNavigate();
  const goTo = useNavigate();
  const user = useUserInfo();
  const timeZone = user?.hotel.timeZone ?? 'UTC';
  const currency = user?.hotel.currency ?? 'CNY';
  const canManageRooms = hasPermission(user, 'room.manage');
  const canManageStays = hasPermission(user, 'stay.manage');
  const canManagePrices = hasPermission(user, 'price.manage');
  const stayActions = useStayActions();

  const room = useQuery(trpc.room.get.queryOptions({ id: roomId }));
  const currentStayId = room.data?.currentStay?.id;
  const currentStay = useQuery(trpc.stay.get.queryOptions({ stayId: currentStayId ?? 0 }, { enabled: currentStayId !== undefined }));

  const tabs = ROOM_DETAIL_TABS.filter((value) => (value === 'settings' ? canManageRooms : value === 'status' ? canManageStays : true));
  const activeTab = tabs.includes(tab) ? tab : 'tenants';

  const backLink = (
    <Link to="/room" className="text-muted-foreground hover:text-foreground focus-visible:ring-ring inline-flex items-center gap-1.5 rounded-sm text-sm outline-none focus-visible:ring-2" data-testid="back-to-board">
      <ArrowLeft className="size-4 rtl:rotate-180" aria-hidden />
      {t('frontDesk.detail.back')}
    </Link>
  );

  if (room.isLoading) {
    return (
      <div className="space-y-4" aria-busy="true" aria-label={t('common.loading')}>
        {backLink}
        <Skeleton className="h-9 w-48" />
        <Skeleton className="h-28 w-full" />
        <Skeleton className="h-10 w-96 max-w-full" />
        <Skeleton className="h-64 w-full" />
      </div>
    );
  }

  if (!room.data) {
    const isMissing = appErrorOf(room.error)?.code === 'NOT_FOUND';
    return (
      <div className="space-y-4">
        {backLink}
        <EmptyState
          icon={DoorClosed}
          title={isMissing ? t('frontDesk.detail.notFoundTitle') : t('common.operationFailed')}
          description={isMissing ? t('frontDesk.detail.notFoundText') : undefined}
          data-testid="room-detail-error"
          action={
            isMissing ? undefined : (
              <Button variant="outline" onClick={() => void room.refetch()}>
                {t('common.refresh')}
              </Button>
            )
          }
        />
      </div>
    );
  }

  const data = room.data;
  return (
    <div className="space-y-4" data-testid="room-detail" data-status={data.status}>
      {backLink}
      <RoomDetailHeader
        room={data}
        stay={currentStay.data ?? null}
        isStayLoading={currentStay.isLoading}
        timeZone={timeZone}
        currency={currency}
        canManageStays={canManageStays}
        onCheckIn={() => stayActions.openCheckIn({ id: data.id, name: data.name })}
        onStayAction={stayActions.openWithStay}
      />

      <Tabs value={activeTab} onValueChange={(value) => void navigate({ search: { tab: value as RoomDetailTab }, replace: true })}>
        <TabsList aria-label={t('route.roomDetail')}>
          {tabs.map((value) => (
            <TabsTrigger key={value} value={value} data-testid={`tab-${value}`}>
              {t(`frontDesk.detail.tabs.${value}`)}
            </TabsTrigger>
          ))}
        </TabsList>
        {/* Keyed by room: after a room change the tabs start afresh on the new room. */}
        <TabsContent value="tenants" key={`tenants-${data.id}`}>
          <RoomTenantsTab roomId={data.id} currentStayId={currentStayId ?? null} timeZone={timeZone} currency={currency} canManageStays={canManageStays} />
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
        {canManageStays && (
          <TabsContent value="status" key={`status-${data.id}`}>
            <RoomStatusTab room={data} />
          </TabsContent>
        )}
      </Tabs>

      <StayActionDialogs
        action={stayActions.action}
        onClose={stayActions.close}
        onRoomChanged={(stay) => void goTo({ to: '/room/$roomId', params: { roomId: stay.roomId }, search: { tab: activeTab } })}
      />
    </div>
  );
}
