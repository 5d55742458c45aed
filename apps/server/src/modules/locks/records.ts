import type { TUnlockEvent, TUnlockSource } from '@console/shared';
import type { Deps } from '../../context';
import { recordEvent } from '../../db/events';
import { transaction } from '../../db/transaction';
import type { Prisma } from '../../generated/prisma/client';
import { LockProviderError, type LockProvider, type LockRecord } from '../../infra/locks/provider';
import { arriveAtDoor } from '../access-rules/auto-check-in';
import { parseLockTag } from '../credentials/delivery-kinds';
import { usableProvider } from '../lock-cloud/account-provider';
import { ACCOUNT_ROW_SELECT } from '../base/lock-ref';
import { withinBudget } from '../lock-cloud/call-budget';
import { heldOffline, lockMessages, LOW_BATTERY_PERCENT } from './lock-status';

/**
 * Lock records into unlock records: from the lock cloud's callback (pushed as they happen) and from
 * the polling job (read with a cursor, for locks whose records are not pushed). A record belongs to
 * the hotel whose lock it is (the Lock row of that provider lock id, one hotel at most) and to the
 * room whose door the lock is; a record of a lock no hotel imported is not stored. The same record
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

/**
 * Whose credential a record names by its tag: one of the lock's own room (a tag of another room's
 * or another hotel's credential on this lock names nobody: the record keeps the name it carries).
 */
const HOLDER_READERS: Record<string, (deps: Deps, hotelId: number, roomId: number, ids: number[]) => Promise<Map<number, string>>> = {
  password: async (deps, hotelId, roomId, ids) =>
    new Map(
      (await deps.prisma.lockPassword.findMany({ where: { hotelId, roomId, id: { in: ids } }, select: { id: true, holderName: true } })).map((p) => [
        p.id,
        p.holderName,
      ]),
    ),
  /** A face authorisation: the face's note (the name it has on the lock). */
  face: async (deps, hotelId, roomId, ids) =>
    new Map(
      (
        await deps.prisma.faceAuthorization.findMany({ where: { hotelId, roomId, id: { in: ids } }, select: { id: true, face: { select: { note: true } } } })
      ).map((a) => [a.id, a.face.note]),
    ),
  /** A card: the writing of the card (the card id on a data card), named by its holder; one granted to the room. */
  card: async (deps, hotelId, roomId, ids) =>
    new Map(
      (
        await deps.prisma.cardIssue.findMany({
          where: { hotelId, id: { in: ids }, OR: [{ roomId }, { grants: { some: { roomId } } }, { allRooms: true }] },
          select: { id: true, holderName: true },
        })
      ).map((c) => [c.id, c.holderName]),
    ),
};

export interface IngestResult {
  /** New records stored. */
  stored: number;
  /** Records already stored (by id): a second delivery of the same record. */
  duplicates: number;
  /** Records of locks no hotel imported, or whose lock is no room's door: not stored. */
  unpaired: number;
}

/** Stores lock records (any locks, any order); idempotent by record id. `callback`: they came by the lock cloud's callback. */
/**
 * Writes unlock records (a duplicate skipped) and, in the same transaction, a `door.opened` event
 * for each door opened (docs/events.md), which webhooks send; answers those written.
 */
async function insertRecords(deps: Deps, rows: Prisma.UnlockRecordCreateManyInput[]): Promise<{ providerRecordId: string | null }[]> {
  return transaction(deps, async (tx) => {
    const inserted = await tx.unlockRecord.createManyAndReturn({
      data: rows,
      skipDuplicates: true,
      select: { id: true, hotelId: true, providerRecordId: true, roomId: true, stayId: true, success: true },
    });
    for (const r of inserted)
      if (r.success) await recordEvent(tx, { hotelId: r.hotelId, kind: 'door.opened', roomIds: [r.roomId], recordId: r.id, stayId: r.stayId ?? undefined });
    return inserted;
  });
}

export async function ingestLockRecords(deps: Deps, records: LockRecord[], options: { callback?: boolean; provider?: string } = {}): Promise<IngestResult> {
  // The platform whose lock ids these are (a Seam webhook's: `seam`); the install's lock cloud by default.
  const providerName = options.provider ?? deps.locks?.name ?? 'ttlock';
  const result: IngestResult = { stored: 0, duplicates: 0, unpaired: 0 };
  const byLock = new Map<string, LockRecord[]>();
  for (const r of records) byLock.set(r.lockId, [...(byLock.get(r.lockId) ?? []), r]);
  for (const [lockId, lockRecords] of byLock) {
    const room = await roomOfLock(deps, providerName, lockId);
    if (!room) {
      const door = await sharedDoorOfLock(deps, providerName, lockId);
      if (door) {
        const stored = await ingestDoorRecords(deps, door, lockRecords, options.callback === true);
        result.stored += stored.stored;
        result.duplicates += stored.duplicates;
        result.unpaired += stored.unknown;
        continue;
      }
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
      if (reader) holders.set(kind, await reader(deps, room.hotelId, room.id, ids));
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
    const inserted = await insertRecords(deps, rows);
    result.stored += inserted.length;
    result.duplicates += rows.length - inserted.length;
    const insertedIds = new Set(inserted.map((r) => r.providerRecordId));
    const fresh = lockRecords.filter((r) => insertedIds.has(r.recordId));
    await afterRecords(deps, room, fresh, options.callback === true);
    // Auto check-in (access rules): a reservation's first opening by its own credential.
    await arriveAtDoor(
      deps,
      rows.filter((row) => insertedIds.has(row.providerRecordId)),
      options.callback === true,
    );
  }
  return result;
}

/** A shared door (docs/shared-doors.md): a lock of a hotel that is no room's door. */
async function sharedDoorOfLock(deps: Deps, providerName: string, lockId: string): Promise<PairedRoom | null> {
  const lock = await deps.prisma.lock.findUnique({
    where: { provider_providerLockId: { provider: providerName, providerLockId: lockId } },
    select: { id: true, hotelId: true, name: true, alias: true, sharedKind: true },
  });
  return lock?.sharedKind ? { id: 0, hotelId: lock.hotelId, lockRowId: lock.id, lockName: lock.alias || lock.name } : null;
}

/**
 * A shared door's records: each names the stay whose copy on the door (or whose room card naming
 * the door, docs/card-format.md version 2) opened it (or was refused),
 * and belongs to that stay's room (`doorLockId` says it was the door, `device` names it). A record
 * of a credential that is not a copy on this door names nobody: it is not stored (`unknown`).
 */
async function ingestDoorRecords(deps: Deps, door: PairedRoom, lockRecords: LockRecord[], byCallback: boolean) {
  const tags = lockRecords.map((r) => parseLockTag(r.username));
  const idsOf = (kind: string) => tags.filter((t) => t?.kind === kind).map((t) => t!.id);
  const where = { hotelId: door.hotelId, doorLockId: door.lockRowId };
  const [passwords, faces, cards] = await Promise.all([
    deps.prisma.lockPassword.findMany({
      where: { ...where, id: { in: idsOf('password') } },
      select: { id: true, roomId: true, stayId: true, holderName: true },
    }),
    deps.prisma.faceAuthorization.findMany({
      where: { ...where, id: { in: idsOf('face') } },
      select: { id: true, roomId: true, stayId: true, face: { select: { note: true } } },
    }),
    // A room card's writing that names this door (it has a grant on the door): of its stay's room.
    deps.prisma.cardIssue.findMany({
      where: { hotelId: door.hotelId, id: { in: idsOf('card') }, roomId: { not: null }, grants: { some: where } },
      select: { id: true, roomId: true, stayId: true, holderName: true },
    }),
  ]);
  const copies = new Map<string, { roomId: number; stayId: number | null; holder: string }>([
    ...passwords.map((p) => [`password:${p.id}`, { roomId: p.roomId, stayId: p.stayId, holder: p.holderName }] as const),
    ...faces.map((f) => [`face:${f.id}`, { roomId: f.roomId, stayId: f.stayId, holder: f.face.note }] as const),
    ...cards.map((c) => [`card:${c.id}`, { roomId: c.roomId!, stayId: c.stayId, holder: c.holderName }] as const),
  ]);
  const rows = lockRecords.flatMap((r, i) => {
    const tag = tags[i];
    const copy = tag ? copies.get(`${tag.kind}:${tag.id}`) : undefined;
    if (!tag || !copy) return [];
    const meaning = recordMeaning(r.recordType, r.success);
    return [
      {
        hotelId: door.hotelId,
        roomId: copy.roomId,
        doorLockId: door.lockRowId,
        stayId: copy.stayId,
        providerRecordId: r.recordId,
        credential: `${tag.kind}:${tag.id}`,
        recordType: r.recordType,
        occurredAt: r.lockDate,
        event: meaning.event,
        source: meaning.source,
        device: door.lockName,
        success: r.success,
        style: meaning.style,
        operator: copy.holder,
        reason: !r.success && r.reason && /^[a-z_]{1,40}$/.test(r.reason) ? r.reason : null,
      },
    ];
  });
  const inserted = rows.length ? await insertRecords(deps, rows) : [];
  const insertedIds = new Set(inserted.map((r) => r.providerRecordId));
  await afterRecords(
    deps,
    door,
    lockRecords.filter((r) => insertedIds.has(r.recordId)),
    byCallback,
  );
  return { stored: inserted.length, duplicates: rows.length - inserted.length, unknown: lockRecords.length - rows.length };
}

interface PairedRoom {
  id: number;
  hotelId: number;
  lockRowId: number;
  lockName: string;
}

/** The room whose door a provider lock is: through the lock's own hotel (its Lock row), never another's. */
async function roomOfLock(deps: Deps, providerName: string, lockId: string): Promise<PairedRoom | null> {
  const lock = await deps.prisma.lock.findUnique({
    where: { provider_providerLockId: { provider: providerName, providerLockId: lockId } },
    select: { id: true, hotelId: true, name: true, alias: true, rooms: { where: { deletedAt: null }, select: { id: true }, take: 1 } },
  });
  const room = lock?.rooms[0];
  return lock && room ? { id: room.id, hotelId: lock.hotelId, lockRowId: lock.id, lockName: lock.alias || lock.name } : null;
}

/** What new records tell about the lock: its battery, that it was heard from, and its alarms. */
async function afterRecords(deps: Deps, room: PairedRoom, fresh: LockRecord[], byCallback: boolean) {
  if (byCallback) await deps.prisma.lock.update({ where: { id: room.lockRowId }, data: { callbackAt: new Date() } });
  if (fresh.length === 0) return;
  const newest = fresh.reduce((a, b) => (b.serverDate > a.serverDate ? b : a));
  const lock = await deps.prisma.lock.findUniqueOrThrow({
    where: { id: room.lockRowId },
    select: { id: true, hotelId: true, battery: true, lastSeenAt: true, online: true, statusError: true, statusCheckedAt: true },
  });
  const messages: { kind: string; content: string }[] = [];
  for (const r of fresh) {
    const m = recordMeaning(r.recordType, r.success).message;
    if (m) messages.push({ kind: m, content: nameWithoutTag(r.username) || r.credential });
  }
  const battery = newest.battery ?? lock.battery;
  if (battery != null && battery < LOW_BATTERY_PERCENT && (lock.battery == null || lock.battery >= LOW_BATTERY_PERCENT))
    messages.push({ kind: 'low_battery', content: String(battery) });
  await deps.prisma.lock.update({
    where: { id: lock.id },
    // Heard from when the cloud received its newest record: online, unless a call found it unreachable since.
    data: {
      battery,
      ...(lock.lastSeenAt == null || newest.serverDate > lock.lastSeenAt
        ? { lastSeenAt: newest.serverDate, ...(heldOffline(lock, newest.serverDate) ? {} : { online: true, statusError: null }) }
        : {}),
    },
  });
  await lockMessages(deps, lock, messages);
}

/** How far back the polling job reads again (records a lock uploads late keep their own time). */
export const RECORD_POLL_OVERLAP_MS = 24 * 3_600_000;
/** The first read of a lock goes this far back. */
export const RECORD_POLL_FIRST_MS = 7 * 24 * 3_600_000;

/** Locks whose records come by callback are still read once a day: records a lock uploads late, a callback lost. */
export const CALLBACK_LOCK_POLL_MS = 24 * 3_600_000;

/**
 * Whether the lock cloud pushes this install's records to its callback URL: PUBLIC_URL is set (the
 * URL TTLock's application page is given), or the simulator runs inside the server (it is told).
 */
export function callbacksConfigured(deps: Deps): boolean {
  const locks = deps.config.locks;
  return Boolean(locks.publicUrl) || (locks.provider === 'sim' && !locks.sim.url);
}

/**
 * Reads the records of the locks of every connected lock account since each lock's cursor (with an
 * overlap: duplicates are ignored) and moves the cursor. A lock whose records come by callback (a
 * gateway or WiFi lock, callbacks configured; the locks of a Seam workspace whose webhook delivered
 * an event within the day) is read once a day; the others every run. `all`
 * reads every lock now. Accounts that cannot work, or over their monthly budget, are left for later.
 */
export async function pollLockRecords(
  deps: Deps,
  scope: { hotelId?: number; all?: boolean } = {},
  now = new Date(),
): Promise<IngestResult & { locks: number; failed: number }> {
  const total = { stored: 0, duplicates: 0, unpaired: 0, locks: 0, failed: 0 };
  if (!deps.locks) return total;
  const callbacks = callbacksConfigured(deps);
  const accounts = await deps.prisma.lockAccount.findMany({
    where: { ...(scope.hotelId ? { hotelId: scope.hotelId } : {}), state: 'connected' },
    select: { ...ACCOUNT_ROW_SELECT, monthlyBudget: true, webhookSecretSealed: true, webhookEventAt: true },
    orderBy: { id: 'asc' },
  });
  for (const account of accounts) {
    let provider: LockProvider;
    try {
      provider = usableProvider(deps, account, now);
    } catch {
      continue;
    }
    if (!(await withinBudget(deps, account, now.getTime()))) continue;
    const locks = await deps.prisma.lock.findMany({
      // A card system's door has no lock events through the platform's devices (docs/seam.md "Card systems").
      where: {
        hotelId: account.hotelId,
        accountId: account.id,
        goneAt: null,
        encodedCards: false,
        OR: [{ rooms: { some: { deletedAt: null } } }, { sharedKind: { not: null } }],
      },
      select: { id: true, providerLockId: true, recordsReadUntil: true, gatewayId: true, isWifi: true },
      orderBy: { id: 'asc' },
    });
    // A Seam workspace whose webhook delivered an event within the day pushes its doors' openings (docs/seam.md, "Webhooks").
    const seamPushes =
      account.kind === 'seam' &&
      account.webhookSecretSealed !== null &&
      account.webhookEventAt !== null &&
      now.getTime() - account.webhookEventAt.getTime() < CALLBACK_LOCK_POLL_MS;
    for (const lock of locks) {
      const pushed = seamPushes || (callbacks && (lock.gatewayId !== null || lock.isWifi));
      if (!scope.all && pushed && lock.recordsReadUntil && now.getTime() - lock.recordsReadUntil.getTime() < CALLBACK_LOCK_POLL_MS) continue;
      const from = lock.recordsReadUntil ? new Date(lock.recordsReadUntil.getTime() - RECORD_POLL_OVERLAP_MS) : new Date(now.getTime() - RECORD_POLL_FIRST_MS);
      try {
        const records = await provider.listRecords(lock.providerLockId, { from, to: now });
        const r = await ingestLockRecords(deps, records, { provider: provider.name });
        total.stored += r.stored;
        total.duplicates += r.duplicates;
        total.unpaired += r.unpaired;
        total.locks += 1;
        await deps.prisma.lock.update({ where: { id: lock.id }, data: { recordsReadUntil: now } });
      } catch (error) {
        total.failed += 1;
        deps.log.warn({ err: error, lockId: lock.providerLockId }, 'could not read the records of a lock');
        if (error instanceof LockProviderError && (error.kind === 'account' || error.kind === 'limit')) break;
      }
    }
  }
  return total;
}
