import type { TUnlockEvent, TUnlockSource } from '@console/shared';
import type { Deps } from '../../context';
import type { LockRecord } from '../../infra/locks/provider';
import { parseLockTag } from '../credentials/delivery-kinds';
import { LOW_BATTERY_PERCENT } from './lock.service';

/**
 * Lock records into unlock records: from the provider's callback (pushed as they happen) and from
 * the polling job (read with a cursor, for locks whose records are not pushed). The same record
 * arriving twice, by both paths or twice by one, is stored once (unique provider record id per
 * hotel). Records are kept for good; the cloud keeps 6 months and the lock 500.
 */

type UnlockStyle = 'password' | 'card' | 'face' | 'fingerprint' | 'bluetooth' | 'remote' | 'key' | 'other';

interface RecordMeaning {
  style: UnlockStyle;
  /** The event when the record says success; a failure is `open_refused` unless `event` is not an opening. */
  event: TUnlockEvent;
  source: TUnlockSource;
  /** A lock message raised by this record (an alarm). */
  message?: string;
}

/**
 * TTLock's record types (lockRecord/list, the callback's `recordType`) as our codes. Types not
 * listed are stored as `other`, with their number kept for support.
 */
const RECORD_TYPES: ReadonlyMap<number, RecordMeaning> = new Map<number, RecordMeaning>([
  [1, { style: 'bluetooth', event: 'opened', source: 'app' }],
  [4, { style: 'password', event: 'opened', source: 'lock' }],
  [7, { style: 'card', event: 'opened', source: 'lock' }],
  [8, { style: 'fingerprint', event: 'opened', source: 'lock' }],
  [12, { style: 'remote', event: 'opened', source: 'gateway' }],
  [28, { style: 'remote', event: 'opened', source: 'gateway' }],
  [44, { style: 'other', event: 'tamper_alarm', source: 'lock', message: 'tamper' }],
  [48, { style: 'password', event: 'keypad_locked_out', source: 'lock', message: 'wrong_codes' }],
  [49, { style: 'card', event: 'opened', source: 'lock' }],
  [51, { style: 'card', event: 'open_refused', source: 'lock', message: 'blacklisted_card' }],
  [67, { style: 'face', event: 'opened', source: 'lock' }],
  [71, { style: 'face', event: 'opened', source: 'lock' }],
]);

const OPENING_EVENTS: ReadonlySet<TUnlockEvent> = new Set(['opened']);

export function recordMeaning(recordType: number, success: boolean): RecordMeaning {
  const known = RECORD_TYPES.get(recordType) ?? { style: 'other' as const, event: 'opened' as const, source: 'lock' as const };
  if (!success && OPENING_EVENTS.has(known.event)) return { ...known, event: 'open_refused' };
  return known;
}

/** A lock-side credential name without our tag: `Chen Jie #P12` -> `Chen Jie`. */
function nameWithoutTag(name: string): string {
  return name.replace(/\s*#[A-Z]\d{1,10}$/, '').trim();
}

const HOLDER_READERS: Record<string, (deps: Deps, hotelId: number, ids: number[]) => Promise<Map<number, string>>> = {
  password: async (deps, hotelId, ids) =>
    new Map((await deps.prisma.lockPassword.findMany({ where: { hotelId, id: { in: ids } }, select: { id: true, holderName: true } })).map((p) => [p.id, p.holderName])),
  /** A face authorisation: the face's note (the name it has on the lock). */
  face: async (deps, hotelId, ids) =>
    new Map((await deps.prisma.faceAuthorization.findMany({ where: { hotelId, id: { in: ids } }, select: { id: true, face: { select: { note: true } } } })).map((a) => [a.id, a.face.note])),
  /** A card: the writing of the card (the card id on a data card), named by its holder. */
  card: async (deps, hotelId, ids) =>
    new Map((await deps.prisma.cardIssue.findMany({ where: { hotelId, id: { in: ids } }, select: { id: true, holderName: true } })).map((c) => [c.id, c.holderName])),
};

export interface IngestResult {
  /** New records stored. */
  stored: number;
  /** Records already stored (by id): a second delivery of the same record. */
  duplicates: number;
  /** Records of locks no room is paired with: not stored. */
  unpaired: number;
}

/** Stores lock records (any locks, any order); idempotent by record id. */
export async function ingestLockRecords(deps: Deps, records: LockRecord[], providerName = deps.locks?.name ?? 'ttlock'): Promise<IngestResult> {
  const result: IngestResult = { stored: 0, duplicates: 0, unpaired: 0 };
  const byLock = new Map<string, LockRecord[]>();
  for (const r of records) byLock.set(r.lockId, [...(byLock.get(r.lockId) ?? []), r]);
  for (const [lockId, lockRecords] of byLock) {
    const room = await roomOfLock(deps, providerName, lockId);
    if (!room) {
      result.unpaired += lockRecords.length;
      deps.log.warn({ lockId, records: lockRecords.length }, 'lock records of a lock no room is paired with were not stored');
      continue;
    }
    // Whose credential was used: our tag in the credential's name on the lock.
    const tags = lockRecords.map((r) => parseLockTag(r.username));
    const holders = new Map<string, Map<number, string>>();
    for (const kind of new Set(tags.filter((t) => t !== null).map((t) => t.kind))) {
      const reader = HOLDER_READERS[kind];
      const ids = tags.filter((t) => t?.kind === kind).map((t) => t!.id);
      if (reader) holders.set(kind, await reader(deps, room.hotelId, ids));
    }
    const rows = lockRecords.map((r, i) => {
      const meaning = recordMeaning(r.recordType, r.success);
      const tag = tags[i];
      const holder = tag ? holders.get(tag.kind)?.get(tag.id) : undefined;
      return {
        hotelId: room.hotelId,
        roomId: room.id,
        providerRecordId: r.recordId,
        credential: tag && holder !== undefined ? `${tag.kind}:${tag.id}` : null,
        recordType: r.recordType,
        occurredAt: r.lockDate,
        event: meaning.event,
        source: meaning.source,
        device: room.lockName || lockId,
        success: r.success,
        style: meaning.style,
        operator: holder ?? nameWithoutTag(r.username),
        // A refusal's reason, when the lock says one we know how to tell (a code, never free text).
        reason: !r.success && r.reason && /^[a-z_]{1,40}$/.test(r.reason) ? r.reason : null,
      };
    });
    const inserted = await deps.prisma.unlockRecord.createManyAndReturn({ data: rows, skipDuplicates: true, select: { providerRecordId: true } });
    result.stored += inserted.length;
    result.duplicates += rows.length - inserted.length;
    const insertedIds = new Set(inserted.map((r) => r.providerRecordId));
    const fresh = lockRecords.filter((r) => insertedIds.has(r.recordId));
    await afterRecords(deps, room, lockId, providerName, fresh);
  }
  return result;
}

interface PairedRoom {
  id: number;
  hotelId: number;
  lockName: string;
}

/** The room a provider lock is paired with: the hotel that owns its Lock row, else the first room paired. */
async function roomOfLock(deps: Deps, providerName: string, lockId: string): Promise<PairedRoom | null> {
  const lock = await deps.prisma.lock.findUnique({ where: { provider_providerLockId: { provider: providerName, providerLockId: lockId } }, select: { hotelId: true, name: true } });
  const room = await deps.prisma.room.findFirst({
    where: { lockId, deletedAt: null, ...(lock ? { hotelId: lock.hotelId } : {}) },
    select: { id: true, hotelId: true },
    orderBy: { id: 'asc' },
  });
  return room ? { ...room, lockName: lock?.name ?? '' } : null;
}

/** What new records tell about the lock: its battery, that it was heard from, and its alarms. */
async function afterRecords(deps: Deps, room: PairedRoom, lockId: string, providerName: string, fresh: LockRecord[]) {
  if (fresh.length === 0) return;
  const newest = fresh.reduce((a, b) => (b.serverDate > a.serverDate ? b : a));
  const lock = await deps.prisma.lock.findUnique({ where: { provider_providerLockId: { provider: providerName, providerLockId: lockId } }, select: { id: true, battery: true, lastSeenAt: true } });
  const messages: { kind: string; content: string }[] = [];
  for (const r of fresh) {
    const m = recordMeaning(r.recordType, r.success).message;
    if (m) messages.push({ kind: m, content: nameWithoutTag(r.username) || r.credential });
  }
  if (lock) {
    const battery = newest.battery ?? lock.battery;
    if (battery != null && battery < LOW_BATTERY_PERCENT && (lock.battery == null || lock.battery >= LOW_BATTERY_PERCENT)) messages.push({ kind: 'low_battery', content: String(battery) });
    await deps.prisma.lock.update({
      where: { id: lock.id },
      data: { battery, ...(lock.lastSeenAt == null || newest.serverDate > lock.lastSeenAt ? { lastSeenAt: newest.serverDate, online: true } : {}) },
    });
  }
  if (messages.length) await deps.prisma.lockMessage.createMany({ data: messages.map((m) => ({ hotelId: room.hotelId, roomId: room.id, ...m })) });
}

/** How far back the polling job reads again (records a lock uploads late keep their own time). */
export const RECORD_POLL_OVERLAP_MS = 24 * 3_600_000;
/** The first read of a lock goes this far back. */
export const RECORD_POLL_FIRST_MS = 7 * 24 * 3_600_000;

/**
 * Reads the records of every paired lock since its cursor (with an overlap: duplicates are
 * ignored) and moves the cursor. For locks whose records are not pushed by callback.
 */
export async function pollLockRecords(deps: Deps, scope: { hotelId?: number } = {}, now = new Date()): Promise<IngestResult & { locks: number; failed: number }> {
  const total = { stored: 0, duplicates: 0, unpaired: 0, locks: 0, failed: 0 };
  const provider = deps.locks;
  if (!provider) return total;
  const locks = await deps.prisma.lock.findMany({ where: { ...scope, provider: provider.name }, select: { id: true, providerLockId: true, recordsReadUntil: true }, orderBy: { id: 'asc' } });
  for (const lock of locks) {
    const from = lock.recordsReadUntil ? new Date(lock.recordsReadUntil.getTime() - RECORD_POLL_OVERLAP_MS) : new Date(now.getTime() - RECORD_POLL_FIRST_MS);
    try {
      const records = await provider.listRecords(lock.providerLockId, { from, to: now });
      const r = await ingestLockRecords(deps, records, provider.name);
      total.stored += r.stored;
      total.duplicates += r.duplicates;
      total.unpaired += r.unpaired;
      total.locks += 1;
      await deps.prisma.lock.update({ where: { id: lock.id }, data: { recordsReadUntil: now } });
    } catch (error) {
      total.failed += 1;
      deps.log.warn({ err: error, lockId: lock.providerLockId }, 'could not read the records of a lock');
    }
  }
  return total;
}
