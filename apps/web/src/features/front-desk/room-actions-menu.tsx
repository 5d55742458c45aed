import { Suspense, lazy } from 'react';
import { MoreHorizontal } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useMenuStandIn } from '@/components/menu-stand-in';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';
import type { RoomActionHandlers, RoomItem } from './room-item';

export type { RoomActionHandlers, RoomItem } from './room-item';

/** The menu's items (radix's menu: a chunk of its own, with the console's other menus), loaded when the page is idle. */
const loadItems = () => import('./room-actions-menu-items');
const RoomActionsMenuItems = lazy(() => loadItems().then((m) => ({ default: m.RoomActionsMenuItems })));

/**
 * The quick actions of a room on the board: details, mark clean, and the front desk's next step
 * for it: check in (nobody there), a new reservation, arrival or cancellation (a reservation),
 * check out (a guest in). The menu (room-actions-menu-items.tsx) is mounted at the first press.
 */
export function RoomActionsMenu({
  room,
  canManageStays,
  isLoading,
  actions,
  className,
}: {
  room: RoomItem;
  canManageStays: boolean;
  isLoading: boolean;
  actions: RoomActionHandlers;
  className?: string;
}) {
  const { t } = useTranslation();
  const { openedBy, standInProps } = useMenuStandIn(loadItems);
  const button = (props: object) => (
    <Button
      variant="ghost"
      size="icon-sm"
      className={cn('size-8', className)}
      aria-label={t('frontDesk.board.roomActions', { name: room.name })}
      disabled={isLoading}
      data-testid={`room-actions-${room.name}`}
      {...props}
    >
      {isLoading ? <Spinner /> : <MoreHorizontal className="size-4" aria-hidden />}
    </Button>
  );
  const standIn = button(standInProps);
  if (!openedBy) return standIn;
  return (
    <Suspense fallback={standIn}>
      <RoomActionsMenuItems room={room} canManageStays={canManageStays} actions={actions} trigger={button({})} openedWithKeyboard={openedBy === 'keyboard'} />
    </Suspense>
  );
}
