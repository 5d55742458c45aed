import { useMemo } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { allowedShortcuts, openPalette, pageActionButton, useShortcuts, type ShortcutId } from '@/lib/shortcuts';
import { useUserInfo } from '@/lib/user-info';

/**
 * What each desk shortcut does (issue 28 §3). An action of a stay or a room (check in, new
 * reservation, record payment) presses the page's own button when the page shows one (the room
 * page, the guest page: `data-shortcut`), so its dialog opens for that room or stay; elsewhere it
 * goes where the desk does it: the vacant rooms of the board, the current stays. The timeline is not
 * in this list yet (docs/decisions/045-search.md).
 */
/** Presses the page's own button `name`, or (none on the page) does `elsewhere`. */
function pressOr(name: string, elsewhere: () => void): void {
  const button = pageActionButton(name);
  if (button) button.click();
  else elsewhere();
}

export function useDeskShortcuts(): void {
  const navigate = useNavigate();
  // Only what the member may use: an attendant's Ctrl+K and `/` open no search box (issue 39 §8).
  const permissions = useUserInfo()?.permissions;
  const shortcuts = useMemo(() => allowedShortcuts(permissions), [permissions]);
  useShortcuts((id: ShortcutId) => {
    switch (id) {
      case 'search':
      case 'help':
        openPalette(id);
        return;
      case 'checkIn':
        return pressOr('check-in', () => void navigate({ to: '/room', search: { status: 'vacant' } }));
      case 'newReservation':
        return pressOr('new-reservation', () => void navigate({ to: '/room', search: { status: 'vacant' } }));
      case 'recordPayment':
        return pressOr('record-payment', () => void navigate({ to: '/room/tenant', search: { state: 'current' } }));
      case 'goBoard':
        return void navigate({ to: '/room' });
      case 'goToday':
        return void navigate({ to: '/today' });
      case 'goStays':
        return void navigate({ to: '/room/tenant' });
      case 'goTimeline':
        return void navigate({ to: '/timeline' });
    }
  }, shortcuts);
}
