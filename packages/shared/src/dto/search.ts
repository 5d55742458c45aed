import { z } from 'zod';

/** A room: opens the room page. */
const ZSearchRoom = z.object({ id: z.number(), name: z.string(), remarkName: z.string(), groupName: z.string().nullable(), status: z.string() });

/** A guest of a stay: opens the guest page (`/room/thetouristsDetails?id=`). `matched`: the field the text was found in. */
const ZSearchGuest = z.object({
  id: z.number(),
  name: z.string(),
  mobile: z.string().nullable(),
  matched: z.enum(['name', 'mobile', 'idNumber']),
  stayId: z.number(),
  stayStatus: z.string(),
  checkInAt: z.string(),
  /** When the guest's visit began: the first stay's check-in (a room change begins a new stay at the move). */
  visitCheckInAt: z.string(),
  expectedCheckOutAt: z.string(),
  /** When it ended, for a stay checked out or cancelled (shown instead of its expected check-out). */
  checkedOutAt: z.string().nullable(),
  roomId: z.number(),
  roomName: z.string(),
});

/**
 * A stay found by its number or its channel booking (the calendar event's UID, the channel's
 * reservation reference): opens its primary guest's page, else its room's stays.
 */
const ZSearchReservation = z.object({
  stayId: z.number(),
  stayStatus: z.string(),
  checkInAt: z.string(),
  visitCheckInAt: z.string(),
  expectedCheckOutAt: z.string(),
  checkedOutAt: z.string().nullable(),
  roomId: z.number(),
  roomName: z.string(),
  guestId: z.number().nullable(),
  guestName: z.string().nullable(),
  channel: z.string().nullable(),
  reference: z.string().nullable(),
});

/** A card by its number (or UID), with its newest writing the member sees: a guest card opens its guest or room, others their list. */
const ZSearchCard = z.object({
  id: z.number(),
  cardNumber: z.string(),
  kind: z.string(),
  holderName: z.string(),
  state: z.string(),
  roomId: z.number().nullable(),
  roomName: z.string().nullable(),
  guestId: z.number().nullable(),
});

/** A lock by its name, alias, MAC or provider's lock id: opens its room's lock tab, else the lock list. */
const ZSearchLock = z.object({
  id: z.number(),
  name: z.string(),
  alias: z.string(),
  mac: z.string(),
  providerLockId: z.string(),
  roomId: z.number().nullable(),
  roomName: z.string().nullable(),
});

/** A member of the hotel's staff: opens the staff list searched for them. */
const ZSearchStaff = z.object({
  id: z.number(),
  name: z.string(),
  nickname: z.string(),
  mobile: z.string().nullable(),
  email: z.string().nullable(),
  role: z.string(),
});

export const ZSearchQueryOutput = z.object({
  rooms: z.array(ZSearchRoom),
  guests: z.array(ZSearchGuest),
  reservations: z.array(ZSearchReservation),
  cards: z.array(ZSearchCard),
  locks: z.array(ZSearchLock),
  staff: z.array(ZSearchStaff),
});
export type TSearchQueryOutput = z.infer<typeof ZSearchQueryOutput>;
