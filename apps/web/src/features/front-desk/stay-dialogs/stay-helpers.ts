import { useQueryClient } from '@tanstack/react-query';
import { ACTIVE_STAY_STATES, type TStayState } from '@console/shared';
import { currentLanguage } from '@/lib/language';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';

export type StayDto = RouterOutputs['stay']['get'];
export type GuestDto = StayDto['guests'][number];
export type QuoteDto = RouterOutputs['price']['quote'];

/** After any change of a stay, the room board, the room details and the stay lists are reloaded. */
export function useInvalidateFrontDesk(): () => Promise<void> {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([queryClient.invalidateQueries({ queryKey: trpc.room.pathKey() }), queryClient.invalidateQueries({ queryKey: trpc.stay.pathKey() })]);
  };
}

/** A fresh idempotency key (a UUID), also outside secure contexts where `randomUUID` is missing. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function isActiveStay(state: TStayState): boolean {
  return (ACTIVE_STAY_STATES as readonly string[]).includes(state);
}

export function primaryGuestName(stay: StayDto): string {
  return stay.guests.find((g) => g.isPrimary)?.name ?? stay.guests[0]?.name ?? '—';
}

/** A night of a quote, short: "Fri 21/11". Dates are calendar dates, so they are formatted in UTC. */
export function formatNight(date: string): string {
  return new Intl.DateTimeFormat(currentLanguage().header, { weekday: 'short', month: 'numeric', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
}
