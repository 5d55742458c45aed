import { toAcceptedText } from '@console/shared';
import type { LockRecord } from '../provider';
import { num, PAGE, str, type Answer } from './http';
import type { TtlockSession } from './oauth';

/** Lock records: as lockRecord/list and the callback give them, one id for both. */

/**
 * One id for a lock record, the same whether it came by callback or by `lockRecord/list`: the
 * callback TTLock documents carries no recordId, so the id is made of what both carry.
 */
export function ttlockRecordId(lockId: string, r: { lockDate: number; recordType: number; success: boolean; credential: string }): string {
  return `ttlock:${lockId}:${r.lockDate}:${r.recordType}:${r.success ? 1 : 0}:${r.credential}`;
}

/** Record times a lock can have written: from 2000 to 2199 (a lock whose clock says otherwise is wrong). */
const RECORD_TIME_MIN = Date.UTC(2000, 0, 1);
const RECORD_TIME_MAX = Date.UTC(2200, 0, 1);

/** Text a record carries, as the database can keep it: no NUL or other control characters, no lone surrogates, at most 200 characters. */
function recordText(value: unknown): string {
  return toAcceptedText(toAcceptedText(str(value)).slice(0, 200));
}

/**
 * A record as TTLock gives it (lockRecord/list, the callback), or null when it is not one a lock
 * can have written: a lock time outside 2000-2199, a record type that is not a small whole number.
 */
export function recordOf(lockId: string, item: Answer, serverDateFallback: number): LockRecord | null {
  const lockDate = num(item.lockDate);
  const recordType = num(item.recordType);
  if (lockDate === null || !Number.isInteger(lockDate) || lockDate < RECORD_TIME_MIN || lockDate >= RECORD_TIME_MAX) return null;
  if (recordType === null || !Number.isInteger(recordType) || recordType < -1000 || recordType > 100_000) return null;
  const success = num(item.success) === 1;
  const credential = recordText(item.keyboardPwd);
  const serverDate = num(item.serverDate);
  const battery = num(item.electricQuantity);
  return {
    recordId: ttlockRecordId(lockId, { lockDate, recordType, success, credential }),
    lockId,
    recordType,
    success,
    username: recordText(item.username),
    credential,
    lockDate: new Date(lockDate),
    serverDate: new Date(serverDate !== null && serverDate >= RECORD_TIME_MIN && serverDate < RECORD_TIME_MAX ? serverDate : serverDateFallback),
    battery: battery !== null && Number.isInteger(battery) && battery >= 0 && battery <= 100 ? battery : null,
    // The simulator's reason for a refused room card (not a TTLock field).
    ...(typeof item.reason === 'string' && /^[a-z_]{1,40}$/.test(item.reason) ? { reason: item.reason } : {}),
  };
}

export async function listRecords(s: TtlockSession, lockId: string, range: { from: Date; to: Date }): Promise<LockRecord[]> {
  const items = await s.all('lockRecord/list', { lockId, startDate: range.from.getTime(), endDate: range.to.getTime() }, PAGE.records, (i) => i.recordId);
  const now = s.now();
  // The cloud lists the newest first; records of the same millisecond keep the cloud's order
  // (reversed), never an order made from their ids (a refused code before the opening it followed).
  return items
    .map((i) => recordOf(lockId, i, now))
    .filter((r): r is LockRecord => r !== null)
    .reverse()
    .sort((a, b) => a.lockDate.getTime() - b.lockDate.getTime());
}
