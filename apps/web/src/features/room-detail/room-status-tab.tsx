import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Ban, Check, CheckCheck, Construction, Sparkles, Trash, Wrench, type LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import { ROOM_STATUS_TARGETS, type TRoomStatusTarget } from '@console/shared';
import { RoomStatusBadge } from '@/components/status-badges';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { trpc } from '@/lib/trpc';
import { invalidateRooms } from './api';
import type { RoomDetail } from './room-detail-header';

const TARGET_ICONS: Record<TRoomStatusTarget, LucideIcon> = {
  clean: Sparkles,
  inspected: CheckCheck,
  dirty: Trash,
  out_of_order: Wrench,
  out_of_service: Ban,
  back_in_service: Construction,
};

/** Whether the room is already where `target` would take it: that button is shown as the current state, not offered. */
export function isCurrentTarget(room: Pick<RoomDetail, 'cleanStatus' | 'maintenance'>, target: TRoomStatusTarget): boolean {
  if (target === 'clean' || target === 'inspected' || target === 'dirty') return room.cleanStatus === target;
  if (target === 'back_in_service') return room.maintenance === 'none';
  return room.maintenance === target;
}

/**
 * Housekeeping and maintenance of the room. Occupancy follows stays; the server decides what the
 * status becomes, and explains a refusal ("status modification failed: ..."). The state the room is
 * in is shown as such, not offered again; a change that finds the room already so (the page was
 * stale: another clerk, another tab) says so, as the server answers, never "changed". Members who
 * may only look (no stay.manage) see it without the buttons. The room's lock has its own tab.
 */
export function RoomStatusTab({ room, canChange }: { room: RoomDetail; canChange: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<TRoomStatusTarget | null>(null);
  const setStatus = useMutation(
    trpc.room.setStatus.mutationOptions({
      onSuccess: (answer) => {
        if (answer.statusNotice) toast.info(answer.statusNotice);
        else toast.success(t('frontDesk.detail.statusChanged'));
        invalidateRooms(queryClient);
      },
      onSettled: () => setTarget(null),
    }),
  );

  return (
    <div className="space-y-4">
      <Card data-testid="room-status">
        <CardHeader>
          <CardTitle>{t('frontDesk.detail.statusTitle')}</CardTitle>
          <CardDescription>{t('frontDesk.detail.statusHint')}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-6">
          <dl className="grid grid-cols-1 gap-4 text-sm sm:grid-cols-3">
            <div>
              <dt className="text-muted-foreground text-xs">{t('frontDesk.detail.currentStatus')}</dt>
              <dd className="mt-1">
                <RoomStatusBadge status={room.status} />
              </dd>
            </div>
            <div>
              <dt className="text-muted-foreground text-xs">{t('frontDesk.detail.cleanliness')}</dt>
              <dd className="mt-1 font-medium" data-testid="clean-status" data-value={room.cleanStatus}>
                {t(`frontDesk.detail.cleanStatuses.${room.cleanStatus}`)}
              </dd>
            </div>
            <div>
              <dt className="text-muted-foreground text-xs">{t('frontDesk.detail.maintenance')}</dt>
              <dd className="mt-1 font-medium" data-testid="maintenance-status" data-value={room.maintenance}>
                {t(`frontDesk.detail.maintenanceStatuses.${room.maintenance}`)}
              </dd>
            </div>
          </dl>
          {canChange && (
            <div className="flex flex-wrap gap-2" role="group" aria-label={t('frontDesk.detail.changeStatus')}>
              {ROOM_STATUS_TARGETS.map((value) => {
                const Icon = TARGET_ICONS[value];
                const isPending = setStatus.isPending && target === value;
                const isCurrent = isCurrentTarget(room, value);
                return (
                  <Button
                    key={value}
                    variant={isCurrent ? 'secondary' : 'outline'}
                    disabled={setStatus.isPending || isCurrent}
                    aria-pressed={isCurrent}
                    title={isCurrent ? t('frontDesk.detail.statusCurrent') : undefined}
                    onClick={() => {
                      setTarget(value);
                      setStatus.mutate({ roomId: room.id, target: value });
                    }}
                    data-testid={`status-target-${value}`}
                  >
                    {isPending ? <Spinner /> : isCurrent ? <Check aria-hidden /> : <Icon aria-hidden />}
                    {t(`frontDesk.detail.statusTargets.${value}`)}
                  </Button>
                );
              })}
            </div>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
