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
  'stay.rescheduled',
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
  // A credential's delivery ended (the engine's answer: on the lock, failed for good, taken off).
  'credential.onLock',
  'credential.failed',
  'credential.removed',
  // A door opened (an unlock record read from the lock cloud), a lock went offline or its battery low.
  'door.opened',
  'lock.offline',
  'lock.batteryLow',
  // The hotel's own settings and people.
  'customer.changed',
  'feed.changed',
  // A calendar feed's read failed (its error kept on the feed).
  'feed.failed',
  'staff.changed',
  // The hotel's settings: its information, guest messages' templates and rules, lock settings.
  'hotel.changed',
  // The desk's devices: card readers and card dispensers.
  'device.changed',
  // The hotel's webhook endpoints and their delivery log (never itself sent to a webhook).
  'webhook.changed',
] as const;

export type TEventKind = (typeof EVENT_KINDS)[number];

/** The kinds of credential the delivery engine carries to locks (card keys: a lock's card settings). */
export const CREDENTIAL_KINDS = ['password', 'face', 'card', 'card_keys'] as const;
export type TCredentialKind = (typeof CREDENTIAL_KINDS)[number];

/** The other ids an event may carry beside its hotel and rooms. */
export interface TEventIds {
  stayId?: number;
  orderId?: number;
  customerId?: number;
  credentialId?: number;
  lockId?: number;
  membershipId?: number;
  feedId?: number;
  /** An unlock record (`door.opened`). */
  recordId?: number;
  /** Which table `credentialId` is of (`credential.onLock`, `.failed`, `.removed`). */
  credential?: TCredentialKind;
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
