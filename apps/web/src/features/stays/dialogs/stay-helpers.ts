import { useQueryClient } from '@tanstack/react-query';
import { ACTIVE_STAY_STATES, type TStayState } from '@console/shared';
import { currentLanguage } from '@/lib/language';
import { invalidateStays } from '../api';
import type { RouterOutputs } from '@/lib/trpc-types';

/** A stay as the stay services answer it (the lists and `stay.get` add its visit's bill). */
/** `visitCheckInAt` only where the stay was read (stay.get, the lists), not in a mutation's answer. */
export type StayDto = Omit<RouterOutputs['stay']['get'], 'bill' | 'visitCheckInAt'> & { visitCheckInAt?: string };
export type GuestDto = StayDto['guests'][number];
export type QuoteDto = RouterOutputs['price']['quote'];

/** After any change of a stay, the room board, the room details, the stay lists and the today board are reloaded. */
export function useInvalidateFrontDesk(): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => invalidateStays(queryClient);
}

export function isActiveStay(state: TStayState): boolean {
  return (ACTIVE_STAY_STATES as readonly string[]).includes(state);
}

/** How a stay that is over ended, and when: the label key (frontDesk.detail.ended.*) and the time; null while it is not over. */
export function stayEnd(stay: Pick<StayDto, 'state' | 'checkedOutAt'>): { labelKey: string; at: string | null } | null {
  const kind = { checked_out: 'checkedOut', ended: 'cancelled', no_show: 'noShow', moved: 'moved' }[stay.state as string];
  return kind ? { labelKey: `frontDesk.detail.ended.${kind}`, at: stay.checkedOutAt } : null;
}

export function primaryGuestName(stay: StayDto): string {
  return stay.guests.find((g) => g.isPrimary)?.name ?? stay.guests[0]?.name ?? '—';
}

/** A night of a quote, short: "Fri 21/11". Dates are calendar dates, so they are formatted in UTC. */
export function formatNight(date: string): string {
  return new Intl.DateTimeFormat(currentLanguage().header, { weekday: 'short', month: 'numeric', day: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  );
}
