import type { LockRecord } from '../provider';
import { num, str, type Answer } from './http';
import { recordOf } from './records';

/**
 * A notification TTLock posts to the application's callback URL (form-encoded, `notifyType`):
 * 1 lock records, 2 a gateway online or offline, 3 a WiFi lock online or offline, 4 a WiFi lock's
 * asynchronous request failed, 7 a door sensor. Anything else is `other` (answered, ignored).
 */
export type TtlockNotification =
  | { type: 'records'; lockId: string; records: LockRecord[]; refused: number }
  | { type: 'gateway'; gatewayId: string; online: boolean }
  | { type: 'wifi_lock'; lockId: string; online: boolean }
  | { type: 'async_failure'; lockId: string; errcode: number | null }
  | { type: 'door_sensor'; doorSensorId: string; state: 'closed' | 'open' | 'left_open' }
  | { type: 'other'; notifyType: string };

/** Reads a callback's form. Records that are not ones a lock can have written are left out (and counted). */
export function parseTtlockNotification(formFields: Record<string, unknown>, now = Date.now()): TtlockNotification {
  const field = (name: string): unknown => {
    const value = formFields[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const id = (name: string): string | null => {
    const text = str(field(name)).trim();
    return /^\d{1,18}$/.test(text) ? text : null;
  };
  const notifyType = str(field('notifyType')).trim();
  const lockId = id('lockId');
  const online = str(field('isOnline')).trim();
  if (notifyType === '1' && lockId) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(str(field('records')));
    } catch {
      parsed = null;
    }
    const items = Array.isArray(parsed) ? parsed.filter((x): x is Answer => !!x && typeof x === 'object') : [];
    const records = items.map((item) => recordOf(lockId, item, now)).filter((r): r is LockRecord => r !== null);
    return { type: 'records', lockId, records, refused: (Array.isArray(parsed) ? parsed.length : 0) - records.length };
  }
  const gatewayId = id('gatewayId');
  if (notifyType === '2' && gatewayId && (online === '0' || online === '1')) return { type: 'gateway', gatewayId, online: online === '1' };
  if (notifyType === '3' && lockId && (online === '0' || online === '1')) return { type: 'wifi_lock', lockId, online: online === '1' };
  if (notifyType === '4' && lockId) return { type: 'async_failure', lockId, errcode: num(field('errcode')) };
  const doorSensorId = id('doorSensorId');
  const recordType = str(field('recordType')).trim();
  if (notifyType === '7' && doorSensorId && ['0', '1', '2', '3'].includes(recordType)) {
    return { type: 'door_sensor', doorSensorId, state: recordType === '0' ? 'closed' : recordType === '1' ? 'open' : 'left_open' };
  }
  return { type: 'other', notifyType: notifyType.slice(0, 10) };
}
