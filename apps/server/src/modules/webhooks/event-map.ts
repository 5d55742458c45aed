import type { TEventIds, TEventKind, TWebhookEvent } from '@console/shared';

/**
 * The outbox's event kinds (docs/events.md) as the public names webhooks carry
 * (docs/webhooks.md "Events"): one public name per kind, or none for kinds not sent.
 */
export const PUBLIC_EVENT_OF: Partial<Record<TEventKind, TWebhookEvent>> = {
  'stay.reserved': 'reservation.created',
  'stay.renewed': 'reservation.changed',
  'stay.changed': 'reservation.changed',
  // New dates (and room) of a reservation, or an in-house stay's check-out moved.
  'stay.rescheduled': 'reservation.changed',
  'stay.cancelled': 'reservation.cancelled',
  'stay.checkedIn': 'stay.checked_in',
  'stay.arrived': 'stay.checked_in',
  'stay.checkedOut': 'stay.checked_out',
  'stay.roomChanged': 'stay.room_changed',
  'credential.onLock': 'credential.on_lock',
  'credential.failed': 'credential.failed',
  'credential.removed': 'credential.removed',
  'door.opened': 'door.opened',
  'lock.offline': 'lock.offline',
  'lock.batteryLow': 'lock.battery_low',
  'payment.recorded': 'payment.recorded',
  'feed.failed': 'feed.failed',
};

/** The outbox kinds a webhook may be made of. */
export const SENT_KINDS = Object.keys(PUBLIC_EVENT_OF) as TEventKind[];

/**
 * The resource whose deliveries to one endpoint go out in the order of its events (a stay's
 * reservation, check-in, check-out; a credential on its lock then removed; a lock offline), or null
 * when order does not matter (a door opened, a payment: each stands alone).
 */
export function resourceOf(kind: TEventKind, ids: TEventIds): string | null {
  if (kind.startsWith('stay.')) return ids.stayId !== undefined ? `stay:${ids.stayId}` : null;
  if (kind.startsWith('credential.')) return ids.credentialId !== undefined ? `${ids.credential ?? 'password'}:${ids.credentialId}` : null;
  if (kind.startsWith('lock.')) return ids.lockId !== undefined ? `lock:${ids.lockId}` : null;
  if (kind === 'feed.failed') return ids.feedId !== undefined ? `feed:${ids.feedId}` : null;
  return null;
}
