import type { RouterOutputs } from '@/lib/trpc-types';

/** A stay as the stay services answer it (the lists and `stay.get` add its visit's bill). */
/** `visitCheckInAt` only where the stay was read (stay.get, the lists), not in a mutation's answer. */
export type StayDto = Omit<RouterOutputs['stay']['get'], 'bill' | 'visitCheckInAt'> & { visitCheckInAt?: string };
/**
 * The actions on a stay: `arrive` (the guest of a reservation has come: it becomes in house) and
 * `cancel-reservation` (the guest never came) for a reservation; renew, change room and check out
 * for a stay in progress; `reschedule` ("change dates") for both: a reservation's dates and room, a
 * stay's check-out earlier or later.
 */
export type StayActionKind = 'renew' | 'change-room' | 'check-out' | 'arrive' | 'cancel-reservation' | 'reschedule';

/** The front-desk action being done: a check-in of a room, a reservation (of a room, or any room), or an action on a stay. */
export type StayAction =
  | { kind: 'check-in'; room: { id: number; name: string } }
  | { kind: 'reserve'; room: { id: number; name: string } | null; dates?: ReservationDates }
  | { kind: StayActionKind; stay: StayDto; target?: { id: number; name: string }; until?: string; from?: string };

/** A reservation's dates chosen before its dialog opened (the timeline's empty range): the arrival day and the nights, in the hotel's zone. */
export interface ReservationDates {
  arrival: string;
  nights: number;
}
