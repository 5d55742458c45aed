import { useNavigate } from '@tanstack/react-router';
import { openPalette, pageActionButton, useShortcuts, type ShortcutId } from '@/lib/shortcuts';

/**
 * What each desk shortcut does (issue 28 §3). An action of a stay or a room (check in, new
 * reservation, record payment) presses the page's own button when the page shows one (the room
 * page, the guest page: `data-shortcut`), so its dialog opens for that room or stay; elsewhere it
 * goes where the desk does it: the vacant rooms of the board, the current stays. The timeline is not
 * in this list yet (docs/decisions/045-search.md).
 */
export function useDeskShortcuts(): void {
  const navigate = useNavigate();
  useShortcuts((id: ShortcutId) => {
    switch (id) {
      case 'search':
      case 'help':
        openPalette(id);
        return;
      case 'checkIn':
        return void (pageActionButton('check-in')?.click() ?? navigate({ to: '/room', search: { status: 'vacant' } }));
      case 'newReservation':
        return void (pageActionButton('new-reservation')?.click() ?? navigate({ to: '/room', search: { status: 'vacant' } }));
      case 'recordPayment':
        return void (pageActionButton('record-payment')?.click() ?? navigate({ to: '/room/tenant', search: { state: 'current' } }));
      case 'goBoard':
        return void navigate({ to: '/room' });
      case 'goToday':
        return void navigate({ to: '/today' });
      case 'goStays':
        return void navigate({ to: '/room/tenant' });
    }
  });
}
