import { toAcceptedText } from '@console/shared';
import type { LockRecord } from '../provider';
import { readAccessCode, readEvent, type SeamEvent } from './answers';
import type { SeamSession } from './session';

/**
 * Lock records from Seam's events (`events/list`): who opened which door when. Seam's lock events
 * are `lock.unlocked` (its `method`: `keycode`, `manual`, `automatic`, `unknown`, `seamapi`, and
 * `access_code_id` for a code, when the device reports it) and `lock.access_denied` (a code refused);
 * `lock.locked` is not an opening and is left out (Seam's published event schema, events/devices.ts).
 *
 * LockRecord.recordType is the vendor's number that the records service reads with TTLock's table
 * (modules/locks/records.ts). Seam's events are given the TTLock numbers of the same meaning, so that
 * the records service needs no second table yet: a code is 4 (TTLock "passcode"), an unlock through
 * the API is 12 (TTLock "gateway", the console's remote unlock); an opening by hand, by the lock
 * itself or not told has no TTLock peer: SEAM_OTHER_OPENING, stored as `other`.
 */
export const SEAM_RECORD_TYPES = { keycode: 4, seamapi: 12 } as const;
export const SEAM_OTHER_OPENING = -1;

const LOCK_EVENTS = ['lock.unlocked', 'lock.access_denied'];

/** How late Seam may create an event after it occurred (a lock that was offline sends them late): asked beyond `to`. */
const LATE_EVENT_MS = 60 * 60_000;

function recordTypeOf(e: SeamEvent): number {
  if (e.eventType === 'lock.access_denied') return SEAM_RECORD_TYPES.keycode;
  return e.method === 'keycode' || e.method === 'seamapi' ? SEAM_RECORD_TYPES[e.method] : SEAM_OTHER_OPENING;
}

/** Text a record carries, as the database can keep it (as the TTLock adapter does). */
const recordText = (value: string) => toAcceptedText(toAcceptedText(value).slice(0, 200));

/**
 * The lock's records that occurred within the range, oldest first. The fake filters neither by
 * workspace nor, for `between`, by when an event occurred (it compares `created_at`): the adapter
 * asks a wider window and keeps the events of this device that occurred in the range. A code's
 * name and PIN come from the lock's current codes (one more call, only when an event names a code):
 * a code deleted since is named by nobody.
 */
export async function listRecords(s: SeamSession, lockId: string, range: { from: Date; to: Date }): Promise<LockRecord[]> {
  const between = [range.from.toISOString(), new Date(range.to.getTime() + LATE_EVENT_MS).toISOString()];
  const answer = await s.call('events/list', 'lock', (seam) => seam.events.list({ device_id: lockId, between, event_types: LOCK_EVENTS }));
  const events = (Array.isArray(answer) ? answer : [])
    .map(readEvent)
    .filter((e) => e.deviceId === lockId && LOCK_EVENTS.includes(e.eventType) && e.eventId !== '' && e.occurredAt !== null)
    .filter((e) => e.occurredAt!.getTime() >= range.from.getTime() && e.occurredAt!.getTime() <= range.to.getTime());
  const codes = new Map<string, { name: string; code: string }>();
  if (events.some((e) => e.accessCodeId)) {
    const listed = await s.call('access_codes/list', 'lock', (seam) => seam.accessCodes.list({ device_id: lockId }));
    for (const c of (Array.isArray(listed) ? listed : []).map(readAccessCode)) {
      if (c.deviceId === lockId) codes.set(c.accessCodeId, { name: c.name, code: c.code });
    }
  }
  return events
    .map((e): LockRecord => {
      const code = codes.get(e.accessCodeId);
      return {
        recordId: `seam:${e.eventId}`,
        lockId,
        recordType: recordTypeOf(e),
        success: e.eventType === 'lock.unlocked',
        username: recordText(code?.name ?? ''),
        credential: recordText(code?.code ?? ''),
        lockDate: e.occurredAt!,
        serverDate: e.createdAt ?? e.occurredAt!,
        // Seam's events carry no battery level.
        battery: null,
      };
    })
    .sort((a, b) => a.lockDate.getTime() - b.lockDate.getTime());
}
