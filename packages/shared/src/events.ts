/**
 * The domain events of the console (docs/events.md, decision 035): every service that changes a
 * hotel's state records one in the change's own transaction; the server publishes it after the
 * commit and the web console's tabs (and, later, the timeline and webhooks) read it. The kinds are a
 * contract: `area.verb`, added to, never renamed.
 */
export const EVENT_KINDS = [
  // A stay and its guests.
  'stay.checkedIn',
  'stay.reserved',
  'stay.arrived',
  'stay.renewed',
  'stay.roomChanged',
  'stay.checkedOut',
  'stay.cancelled',
  'stay.changed',
  // Money: the ledger's entries.
  'payment.recorded',
  'refund.recorded',
  'charge.posted',
  'ledger.changed',
  // A cashier shift opened or closed.
  'shift.changed',
  // A hotel calendar day closed (its report frozen).
  'day.closed',
  // Rooms, their groups and prices.
  'room.changed',
  'price.changed',
  // Housekeeping: the day's tasks made, assigned, worked, inspected; shifts (docs/housekeeping.md).
  'housekeeping.changed',
  // A room out of order or out of service for a range of days, or back in order.
  'room.outOfOrder',
  // Doors: codes, cards, faces, locks, shared doors, access rules.
  'credential.changed',
  'lock.changed',
  // The hotel's own settings and people.
  'customer.changed',
  'feed.changed',
  'staff.changed',
] as const;

export type TEventKind = (typeof EVENT_KINDS)[number];

/** The other ids an event may carry beside its hotel and rooms. */
export interface TEventIds {
  stayId?: number;
  orderId?: number;
  customerId?: number;
  credentialId?: number;
  lockId?: number;
  membershipId?: number;
  feedId?: number;
}

/** An event as a subscriber receives it (its `id` is the resume point, `lastEventId`). */
export interface TDomainEvent {
  id: string;
  kind: TEventKind;
  roomIds: number[];
  ids: TEventIds;
  /** ISO time the change's transaction began. */
  at: string;
}
