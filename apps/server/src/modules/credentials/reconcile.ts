import type { Deps } from '../../context';
import { LockProviderError, type LockProvider } from '../../infra/locks/provider';
import { usableProvider } from '../lock-cloud/account-provider';
import { ACCOUNT_ROW_SELECT } from '../base/lock-ref';
import { withinBudget } from '../lock-cloud/call-budget';
import { enqueueDeliveries } from './delivery';
import { parseLockTag, type CredentialKind } from './delivery-kinds';
import type { DeliveryJobData } from '../../jobs/payloads';

/**
 * Reconciliation: what a lock really holds, read back, against what we think it holds.
 *
 * - `missing`: on the lock by our records, not there any more -> pushed again (a generated
 *   password cannot be pushed again with the same code: it is marked failed, to be reissued).
 * - `should_be_removed`: ours, revoked (or never confirmed) but still on the lock -> removed.
 * - `expired`: ours, its validity is over, still on the lock -> removed.
 * - `unconfirmed`: ours, wanted, on the lock, but its delivery failed or is unknown (an answer
 *   lost) -> adopted: the delivery confirms it with the lock's id.
 * - `unmanaged`: on the lock, not put there by this console -> shown, removable by hand.
 * - `ok`, and `in_flight` (a delivery is working on it: left alone).
 */

export type Drift = 'ok' | 'in_flight' | 'missing' | 'should_be_removed' | 'expired' | 'unconfirmed' | 'unmanaged';

/** The kinds a lock lists as items of its own (card keys are its settings). */
export type ItemKind = Exclude<CredentialKind, 'card_keys'>;

export interface LockItem {
  kind: ItemKind;
  /** The provider's id of the item on the lock (null for a `missing` one: it is not there). */
  ref: string | null;
  /** Its name on the lock (our tag at the end when it is ours). */
  name: string;
  /** The passcode, for passwords. */
  code: string | null;
  endAt: Date | null;
  /** Our credential it is, when it is one of ours. */
  credentialId: number | null;
  deliveryState: string | null;
  drift: Drift;
}

interface OnLock {
  ref: string;
  name: string;
  code: string | null;
  endAt: Date | null;
  /** The lock cloud generated it: it cannot be pushed again with the same code. */
  generated: boolean;
}

interface KnownRow {
  id: number;
  version: number;
  deliveryState: string;
  providerRef: string | null;
  validUntil: Date | null;
  revoked: boolean;
  generated: boolean;
  name: string;
  code: string | null;
}

/** A lock as reconciliation reads it: its row, and what it can hold. */
export interface InspectedLock {
  id: number;
  hotelId: number;
  providerLockId: string;
  hasKeypad: boolean;
  hasFaceModule: boolean;
}

/** Per kind: how to read a lock's items, and our rows of the rooms paired with the lock. */
interface KindReader {
  /** Whether the lock can hold this kind at all (a lock without a keypad lists no passcodes: no call spent). */
  holds(lock: InspectedLock): boolean;
  list(provider: LockProvider, lockId: string): Promise<OnLock[]>;
  /** Our rows of a room's lock (`roomIds`, not shared-door copies), or of a shared door (`doorLockId`). */
  rows(deps: Deps, hotelId: number, roomIds: number[], refs: string[], ids: number[], doorLockId: number | null): Promise<KnownRow[]>;
  update(
    deps: Deps,
    id: number,
    version: number,
    data: { deliveryState: 'pending' | 'removing' | 'failed'; providerRef?: string | null; lastError?: string | null; revokeReason?: string },
  ): Promise<boolean>;
}

/** A room's lock holds its rooms' credentials; a shared door its copies (docs/shared-doors.md). */
const ownerOf = (roomIds: number[], doorLockId: number | null) => (doorLockId === null ? { roomId: { in: roomIds }, doorLockId: null } : { doorLockId });

const READERS: Partial<Record<ItemKind, KindReader>> = {
  password: {
    holds: (lock) => lock.hasKeypad,
    async list(provider, lockId) {
      return (await provider.listPasscodes(lockId)).map((p) => ({ ref: p.ref, name: p.name, code: p.code, endAt: p.endAt, generated: p.origin === 'random' }));
    },
    async rows(deps, hotelId, roomIds, refs, ids, doorLockId) {
      const rows = await deps.prisma.lockPassword.findMany({
        where: { hotelId, ...ownerOf(roomIds, doorLockId), OR: [{ deliveryState: 'on_lock' }, { providerRef: { in: refs } }, { id: { in: ids } }] },
        select: {
          id: true,
          version: true,
          deliveryState: true,
          providerRef: true,
          validUntil: true,
          revokeReason: true,
          kind: true,
          holderName: true,
          code: true,
        },
      });
      return rows.map((r) => ({
        id: r.id,
        version: r.version,
        deliveryState: r.deliveryState,
        providerRef: r.providerRef,
        validUntil: r.validUntil,
        revoked: r.revokeReason !== null,
        generated: r.kind !== 'custom',
        name: r.holderName,
        code: r.code,
      }));
    },
    async update(deps, id, version, data) {
      const { count } = await deps.prisma.lockPassword.updateMany({ where: { id, version }, data: { ...data, version: { increment: 1 }, attempts: 0 } });
      return count === 1;
    },
  },
  face: {
    holds: (lock) => lock.hasFaceModule,
    async list(provider, lockId) {
      try {
        return (await provider.listFaces(lockId)).map((f) => ({ ref: f.ref, name: f.name, code: null, endAt: f.endAt, generated: false }));
      } catch (error) {
        // A lock without a face module has no faces to compare (its passwords still are).
        if (error instanceof LockProviderError && error.code === 'not_supported') return [];
        throw error;
      }
    },
    async rows(deps, hotelId, roomIds, refs, ids, doorLockId) {
      const rows = await deps.prisma.faceAuthorization.findMany({
        where: { hotelId, ...ownerOf(roomIds, doorLockId), OR: [{ deliveryState: 'on_lock' }, { providerRef: { in: refs } }, { id: { in: ids } }] },
        select: { id: true, version: true, deliveryState: true, providerRef: true, validUntil: true, revokeReason: true, face: { select: { note: true } } },
      });
      return rows.map((r) => ({
        id: r.id,
        version: r.version,
        deliveryState: r.deliveryState,
        providerRef: r.providerRef,
        validUntil: r.validUntil,
        revoked: r.revokeReason !== null,
        generated: false,
        name: r.face.note,
        code: null,
      }));
    },
    async update(deps, id, version, data) {
      const { count } = await deps.prisma.faceAuthorization.updateMany({ where: { id, version }, data: { ...data, version: { increment: 1 }, attempts: 0 } });
      return count === 1;
    },
  },
};

/** Grace before a credential past its end counts as `expired` on the lock (clocks differ). */
const EXPIRY_GRACE_MS = 5 * 60_000;

/** Reads a lock back and marks every item with its drift. Changes nothing. */
export async function inspectLock(deps: Deps, provider: LockProvider, lock: InspectedLock, now = new Date()): Promise<LockItem[]> {
  const hotelId = lock.hotelId;
  const rooms = await deps.prisma.room.findMany({ where: { hotelId, lockId: lock.id, deletedAt: null }, select: { id: true } });
  const roomIds = rooms.map((r) => r.id);
  const shared = await deps.prisma.lock.findFirst({ where: { hotelId, id: lock.id, sharedKind: { not: null } }, select: { id: true } });
  const doorLockId = shared ? lock.id : null;
  const items: LockItem[] = [];
  for (const [kind, reader] of Object.entries(READERS) as [ItemKind, KindReader][]) {
    if (!reader.holds(lock)) continue;
    const onLock = await reader.list(provider, lock.providerLockId);
    const tagIds = onLock
      .map((i) => parseLockTag(i.name))
      .filter((t) => t?.kind === kind)
      .map((t) => t!.id);
    const rows =
      roomIds.length || doorLockId !== null
        ? await reader.rows(
            deps,
            hotelId,
            roomIds,
            onLock.map((i) => i.ref),
            tagIds,
            doorLockId,
          )
        : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const byRef = new Map(rows.filter((r) => r.providerRef).map((r) => [r.providerRef!, r]));
    const matched = new Set<number>();
    for (const item of onLock) {
      const tag = parseLockTag(item.name);
      const row = byRef.get(item.ref) ?? (tag?.kind === kind ? byId.get(tag.id) : undefined);
      if (row) matched.add(row.id);
      let drift: Drift;
      if (!row) drift = 'unmanaged';
      else if (row.deliveryState === 'pending' || row.deliveryState === 'removing') drift = 'in_flight';
      else if (row.revoked || row.deliveryState === 'removed' || row.deliveryState === 'remove_failed') drift = 'should_be_removed';
      else if (row.deliveryState !== 'on_lock') drift = 'unconfirmed';
      else if (row.validUntil && row.validUntil.getTime() + EXPIRY_GRACE_MS < now.getTime()) drift = 'expired';
      else drift = 'ok';
      items.push({
        kind,
        ref: item.ref,
        name: item.name,
        code: item.code,
        endAt: item.endAt,
        credentialId: row?.id ?? null,
        deliveryState: row?.deliveryState ?? null,
        drift,
      });
    }
    for (const row of rows) {
      if (row.deliveryState !== 'on_lock' || matched.has(row.id)) continue;
      items.push({
        kind,
        ref: null,
        name: row.name,
        code: row.code,
        endAt: row.validUntil,
        credentialId: row.id,
        deliveryState: row.deliveryState,
        drift: 'missing',
      });
    }
  }
  return items;
}

export interface ReconcileResult {
  locks: number;
  failed: number;
  repushed: number;
  removed: number;
  unmanaged: number;
  /** Generated passwords the lock lost: marked failed, to be issued again. */
  lost: number;
}

/** Repairs what `inspectLock` found on one lock; the deliveries do the lock work. */
export async function reconcileLock(
  deps: Deps,
  provider: LockProvider,
  lock: InspectedLock,
  now = new Date(),
): Promise<Omit<ReconcileResult, 'locks' | 'failed'>> {
  const items = await inspectLock(deps, provider, lock, now);
  const result = { repushed: 0, removed: 0, unmanaged: 0, lost: 0 };
  const jobs: DeliveryJobData[] = [];
  for (const item of items) {
    const reader = READERS[item.kind]!;
    if (item.drift === 'unmanaged') result.unmanaged += 1;
    if (item.credentialId === null) continue;
    const row = await currentVersion(deps, item.kind, item.credentialId);
    if (row === null) continue;
    if (item.drift === 'missing') {
      const generated = item.kind === 'password' && (await isGenerated(deps, item.credentialId));
      if (generated) {
        if (await reader.update(deps, item.credentialId, row, { deliveryState: 'failed', providerRef: null, lastError: 'credential_not_found' }))
          result.lost += 1;
      } else if (await reader.update(deps, item.credentialId, row, { deliveryState: 'pending', providerRef: null, lastError: null })) {
        result.repushed += 1;
        jobs.push({ kind: item.kind, id: item.credentialId, version: row + 1 });
      }
    } else if (item.drift === 'unconfirmed') {
      if (await reader.update(deps, item.credentialId, row, { deliveryState: 'pending', providerRef: item.ref, lastError: null })) {
        result.repushed += 1;
        jobs.push({ kind: item.kind, id: item.credentialId, version: row + 1 });
      }
    } else if (item.drift === 'should_be_removed' || item.drift === 'expired') {
      const data = { deliveryState: 'removing' as const, providerRef: item.ref, ...(item.drift === 'expired' ? { revokeReason: 'expired' } : {}) };
      if (await reader.update(deps, item.credentialId, row, data)) {
        result.removed += 1;
        jobs.push({ kind: item.kind, id: item.credentialId, version: row + 1 });
      }
    }
  }
  await enqueueDeliveries(deps, jobs);
  if (result.repushed || result.removed || result.lost) deps.log.info({ lockId: lock.providerLockId, ...result }, 'reconcile: drift on a lock repaired');
  return result;
}

async function currentVersion(deps: Deps, kind: CredentialKind, id: number): Promise<number | null> {
  if (kind === 'password') return (await deps.prisma.lockPassword.findUnique({ where: { id }, select: { version: true } }))?.version ?? null;
  if (kind === 'face') return (await deps.prisma.faceAuthorization.findUnique({ where: { id }, select: { version: true } }))?.version ?? null;
  return null;
}

async function isGenerated(deps: Deps, id: number): Promise<boolean> {
  const p = await deps.prisma.lockPassword.findUnique({ where: { id }, select: { kind: true } });
  return p !== null && p.kind !== 'custom';
}

export const INSPECTED_LOCK_SELECT = { id: true, hotelId: true, providerLockId: true, hasKeypad: true, hasFaceModule: true } as const;

/**
 * Reconciles every lock paired with a room, of every hotel or of one (the reconcile job), account by
 * account: an account that cannot work now, or whose calls this month reached its budget, is
 * skipped (its locks are read again on a later run). A lock that cannot be read is skipped.
 */
export async function reconcileAllLocks(deps: Deps, scope: { hotelId?: number } = {}): Promise<ReconcileResult> {
  const total: ReconcileResult = { locks: 0, failed: 0, repushed: 0, removed: 0, unmanaged: 0, lost: 0 };
  if (!deps.locks) return total;
  const accounts = await deps.prisma.lockAccount.findMany({
    where: { ...scope, state: 'connected' },
    select: { ...ACCOUNT_ROW_SELECT, monthlyBudget: true },
    orderBy: { id: 'asc' },
  });
  for (const account of accounts) {
    let provider: LockProvider;
    try {
      provider = usableProvider(deps, account);
    } catch {
      continue;
    }
    if (!(await withinBudget(deps, account))) continue;
    const locks = await deps.prisma.lock.findMany({
      // A card system's door holds no codes to compare (its cards are the system's: card-encode.ts).
      where: { hotelId: account.hotelId, accountId: account.id, goneAt: null, encodedCards: false, rooms: { some: { deletedAt: null } } },
      select: INSPECTED_LOCK_SELECT,
      orderBy: { id: 'asc' },
    });
    for (const lock of locks) {
      try {
        const r = await reconcileLock(deps, provider, lock);
        total.locks += 1;
        total.repushed += r.repushed;
        total.removed += r.removed;
        total.unmanaged += r.unmanaged;
        total.lost += r.lost;
      } catch (error) {
        total.failed += 1;
        deps.log.warn({ err: error, lockId: lock.providerLockId }, 'reconcile: could not read a lock');
        // The account stopped working (refused, limited): its other locks wait for the next run.
        if (error instanceof LockProviderError && (error.kind === 'account' || error.kind === 'limit')) break;
      }
    }
  }
  return total;
}
