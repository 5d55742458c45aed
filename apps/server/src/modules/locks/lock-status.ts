import type { Deps } from '../../context';
import type { Prisma } from '../../generated/prisma/client';
import { recordEvent } from '../../db/events';
import { transaction } from '../../db/transaction';
import { LockProviderError, type LockProvider, type LockStatus } from '../../infra/locks/provider';
import { ACCOUNT_ROW_SELECT, type AccountRow, type LockRef } from '../base/lock-ref';
import { kickDeliveries } from '../credentials/delivery';
import { providerForLock, usableProvider } from '../lock-cloud/account-provider';
import { withinBudget } from '../lock-cloud/call-budget';
import { doorChange } from './door-state';

/**
 * A lock's status as its lock account last reported it: online, gateway, battery, last seen (the
 * battery is what the lock reported, never typed). Read by each account's status cycle, by one lock
 * on its own, or learnt from a write that found the lock unreachable; what changed is told to the
 * rooms (lock messages) and to integrators (domain events).
 */

/** Below this battery level a lock is shown as low (the board's warning, a lock message). */
export const LOW_BATTERY_PERCENT = 20;

/**
 * How often, at most, a status cycle of an account reads which locks each gateway hears (TTLock
 * keeps a link 30 minutes after it last heard the lock) and the account's lock list (batteries):
 * gateways themselves (online or not) are read every cycle (LOCK_STATUS_EVERY_MINUTES).
 */
export const LINKS_EVERY_MS = 30 * 60_000;
export const LOCK_LIST_EVERY_MS = 60 * 60_000;

/** What a status read says of a lock. */
type StatusData = {
  online: boolean;
  /** The door as the lock's sensor says it (LockStatus.doorOpen); absent: the read said nothing of it. */
  doorOpen?: boolean;
  battery?: number | null;
  gatewayId?: string | null;
  gatewayName?: string | null;
  gatewayOnline: boolean | null;
  lastSeenAt?: Date | null;
  name?: string;
  mac?: string;
  /** Why the lock is shown offline, kept (a call found it unreachable); none by default. */
  statusError?: string | null;
};

/** What a status read changes and is measured against: the lock's row as the read found it. */
const READ_SELECT = {
  id: true,
  hotelId: true,
  online: true,
  battery: true,
  doorOpen: true,
  doorOpenSince: true,
  statusCheckedAt: true,
  statusError: true,
} as const;
type ReadRow = Prisma.LockGetPayload<{ select: typeof READ_SELECT }>;

/**
 * A status read (one lock's, or an account's cycle) into the lock's row, with lock messages for what
 * changed. Saved only over the row the read started from (its `statusCheckedAt`): two reads of one
 * lock at once (the cycle, a clerk's "Check now", a webhook's read) would otherwise both tell a door
 * opening or a lock going offline. A read that finds another saved first is measured against what
 * that one saved, read again (a few times at most: a lock read so often has its status anyway); what
 * it saves is worked out from the row when it depends on it (`data` a function: a lock a failed
 * write marked unreachable meanwhile stays offline, `heldOffline`).
 */
async function saveStatus(deps: Deps, lock: ReadRow, data: StatusData | ((row: ReadRow) => StatusData)): Promise<void> {
  const dataFor = typeof data === 'function' ? data : () => data;
  let door: ReturnType<typeof doorChange>;
  let saving: StatusData;
  for (let attempt = 1; ; attempt++) {
    const now = new Date();
    saving = dataFor(lock);
    const { doorOpen, ...fields } = saving;
    door = doorChange(lock, doorOpen, now);
    const saved = await deps.prisma.lock.updateMany({
      where: { id: lock.id, statusCheckedAt: lock.statusCheckedAt },
      data: { statusError: null, ...fields, ...door.data, statusCheckedAt: now },
    });
    if (saved.count === 1) break;
    const fresh = attempt < 3 ? await deps.prisma.lock.findUnique({ where: { id: lock.id }, select: READ_SELECT }) : null;
    if (!fresh) return;
    lock = fresh;
  }
  // The lock answers through its gateway again: offline codes left on it are deleted now (docs/access-rules.md "Offline codes").
  if (saving.online) await removeOfflineCodesLeft(deps, lock);
  const battery = saving.battery === undefined ? lock.battery : saving.battery;
  const messages: { kind: string; content: string }[] = [];
  if (lock.online === true && !saving.online) messages.push({ kind: 'lock_offline', content: '' });
  if (lock.online === false && saving.online) messages.push({ kind: 'lock_online', content: '' });
  const wasLow = lock.battery != null && lock.battery < LOW_BATTERY_PERCENT;
  if (battery != null && battery < LOW_BATTERY_PERCENT && !wasLow) messages.push({ kind: 'low_battery', content: String(battery) });
  await lockMessages(deps, lock, [...messages, ...door.messages]);
  // Webhooks' `lock.offline` and `lock.battery_low` (docs/events.md): when the lock message is written;
  // the door opened or closed: `lock.changed`, so that the lock's open panels show it.
  await recordLockEvents(deps, lock, [
    ...messages.flatMap((m) => (m.kind === 'lock_offline' ? (['lock.offline'] as const) : m.kind === 'low_battery' ? (['lock.batteryLow'] as const) : [])),
    ...(door.data.doorOpen !== undefined && door.data.doorOpen !== lock.doorOpen ? (['lock.changed'] as const) : []),
  ]);
}

/** A lock gone offline, low on battery or its door opened or closed as domain events (docs/events.md), which webhooks send. */
async function recordLockEvents(
  deps: Deps,
  lock: { id: number; hotelId: number },
  kinds: readonly ('lock.offline' | 'lock.batteryLow' | 'lock.changed')[],
): Promise<void> {
  if (!kinds.length) return;
  await transaction(deps, async (tx) => {
    for (const kind of kinds) await recordEvent(tx, { hotelId: lock.hotelId, kind, lockId: lock.id });
  });
}

/**
 * An offline code whose removal failed while the lock's gateway was down (a generated code is taken
 * off through the gateway) is taken off again as soon as the lock answers: a new version of its
 * removal, queued after the commit. Not one its platform cannot take off at all (`offline_kept`:
 * Seam's offline codes end by themselves at their end), which no cycle would change.
 */
async function removeOfflineCodesLeft(deps: Deps, lock: { id: number; hotelId: number }): Promise<void> {
  const left = {
    hotelId: lock.hotelId,
    offline: true,
    deliveryState: 'remove_failed' as const,
    room: { lockId: lock.id },
    OR: [{ lastError: null }, { lastError: { not: 'offline_kept' } }],
  };
  const rows = await deps.prisma.lockPassword.findMany({ where: left, select: { roomId: true } });
  if (!rows.length) return;
  await deps.prisma.lockPassword.updateMany({ where: left, data: { deliveryState: 'removing', version: { increment: 1 }, attempts: 0, lastError: null } });
  for (const roomId of new Set(rows.map((r) => r.roomId))) await kickDeliveries(deps, lock.hotelId, { roomId });
}

/** Lock messages on the room(s) whose door the lock is. */
export async function lockMessages(
  deps: Deps,
  lock: { id: number; hotelId: number },
  messages: { kind: string; content: string; read?: boolean }[],
): Promise<void> {
  if (messages.length === 0) return;
  const rooms = await deps.prisma.room.findMany({ where: { hotelId: lock.hotelId, lockId: lock.id, deletedAt: null }, select: { id: true } });
  if (rooms.length === 0) return;
  const now = new Date();
  await deps.prisma.lockMessage.createMany({
    data: rooms.flatMap((r) => messages.map((m) => ({ hotelId: lock.hotelId, roomId: r.id, kind: m.kind, content: m.content, readAt: m.read ? now : null }))),
  });
}

/** What a cycle reads of each lock: what its status is measured against, and how to ask for it. */
const STATUS_SELECT = { ...READ_SELECT, providerLockId: true, gatewayId: true, isWifi: true } as const;

/**
 * A lock a call found unreachable (noteLockUnreachable: an unlock or a write answered "lock offline")
 * stays offline until something newer says it answers: its gateway hearing it after that (a link's
 * `seenAt`). A gateway online, or a link older than the failed call, is not that: TTLock keeps a lock
 * linked to its gateway 30 minutes after it last heard it, and the status cycle read only the gateway
 * would show the lock online again minutes after the door refused to open; nor does a record the
 * lock made before the failure and the cloud sent late (records.ts: its `serverDate`).
 */
export function heldOffline(
  lock: { online: boolean | null; statusError: string | null; statusCheckedAt: Date | null },
  heardAt: Date | null | undefined,
): boolean {
  if (lock.online !== false || !lock.statusError || !UNREACHABLE.has(lock.statusError)) return false;
  return !heardAt || !lock.statusCheckedAt || heardAt <= lock.statusCheckedAt;
}

/**
 * Locks their account no longer holds (deleted in the TTLock app, or moved to another account):
 * marked gone, with no status any more (no gateway reaches them through this account), and their
 * rooms told. Found by "Get locks" and by the status cycle's full lock list.
 */
export async function markLocksGone(deps: Deps, locks: { id: number; hotelId: number }[], now: Date): Promise<void> {
  if (locks.length === 0) return;
  const { count } = await deps.prisma.lock.updateMany({
    where: { id: { in: locks.map((l) => l.id) }, goneAt: null },
    data: { goneAt: now, online: null, gatewayOnline: null, gatewayId: null, gatewayName: null, statusCheckedAt: now },
  });
  if (count === 0) return;
  for (const lock of locks) await lockMessages(deps, lock, [{ kind: 'lock_gone', content: '' }]);
}

/**
 * The cycle of a platform whose lock list says each lock's state (`lockStatuses`: Seam, one listing
 * a cycle, every page): each lock online as the platform says, with its battery and, when the
 * platform gives one, when it was last seen; no gateway. A lock missing from the list is gone.
 * Answers how many locks were checked.
 */
async function saveListedStatuses(
  deps: Deps,
  account: { id: number },
  locks: (Parameters<typeof saveStatus>[1] & { providerLockId: string })[],
  statuses: LockStatus[],
  now: Date,
): Promise<number> {
  const listed = new Map(statuses.map((s) => [s.lockId, s]));
  const gone = locks.filter((l) => !listed.has(l.providerLockId));
  await markLocksGone(deps, gone, now);
  for (const lock of locks) {
    const status = listed.get(lock.providerLockId);
    if (!status) continue;
    await saveStatus(deps, lock, {
      online: status.online,
      battery: status.battery,
      gatewayId: null,
      gatewayName: null,
      gatewayOnline: null,
      ...(status.lastSeenAt ? { lastSeenAt: status.lastSeenAt } : {}),
      doorOpen: status.doorOpen,
    });
  }
  await deps.prisma.lockAccount.update({ where: { id: account.id }, data: { locksReadAt: now } });
  return locks.length - gone.length;
}

/**
 * One status cycle of a lock account (docs/ttlock-account.md, "Call budget"). A platform whose lock
 * list says each lock's state (Seam, docs/seam.md): that list, once a cycle. TTLock: its gateways,
 * one list for the whole account (online or not); which locks each gateway hears, every
 * LINKS_EVERY_MS; its lock list (batteries), every LOCK_LIST_EVERY_MS. A lock is online when a
 * gateway that heard it is online. Nothing is asked of an account that cannot work now or whose
 * calls this month reached its budget.
 */
export async function refreshAccountStatus(
  deps: Deps,
  account: AccountRow & { monthlyBudget: number; linksReadAt: Date | null; locksReadAt: Date | null },
  now = new Date(),
): Promise<{ checked: number; failed: number }> {
  let provider: LockProvider;
  try {
    provider = usableProvider(deps, account, now);
  } catch {
    return { checked: 0, failed: 0 };
  }
  if (!(await withinBudget(deps, account, now.getTime()))) return { checked: 0, failed: 0 };
  // A card system's door reports no status (it is listed at import only, docs/seam.md "Card systems").
  const locks = await deps.prisma.lock.findMany({
    where: { hotelId: account.hotelId, accountId: account.id, goneAt: null, encodedCards: false },
    select: STATUS_SELECT,
    orderBy: { id: 'asc' },
  });
  if (locks.length === 0) return { checked: 0, failed: 0 };
  try {
    // A platform whose lock list says each lock's state (Seam) is read from it; TTLock answers null, with no call.
    const statuses = await provider.lockStatuses();
    if (statuses) return { checked: await saveListedStatuses(deps, account, locks, statuses, now), failed: 0 };
    const gateways = await provider.listGateways();
    const gatewayOnline = new Map(gateways.map((g) => [g.gatewayId, g]));
    const linksDue = !account.linksReadAt || now.getTime() - account.linksReadAt.getTime() >= LINKS_EVERY_MS;
    const listDue = !account.locksReadAt || now.getTime() - account.locksReadAt.getTime() >= LOCK_LIST_EVERY_MS;
    // The best gateway of each lock: an online one first, then the strongest signal.
    const best = new Map<string, { gatewayId: string; name: string; online: boolean; rssi: number; seenAt: Date | null }>();
    if (linksDue) {
      for (const g of gateways) {
        for (const link of await provider.gatewayLocks(g.gatewayId)) {
          const candidate = { gatewayId: g.gatewayId, name: g.name, online: g.online, rssi: link.rssi ?? -999, seenAt: link.seenAt };
          const known = best.get(link.lockId);
          if (!known || (candidate.online && !known.online) || (candidate.online === known.online && candidate.rssi > known.rssi))
            best.set(link.lockId, candidate);
        }
      }
    }
    const listed = listDue ? new Map((await provider.listLocks()).map((l) => [l.lockId, l])) : null;
    const gone = listed ? locks.filter((l) => !listed.has(l.providerLockId)) : [];
    await markLocksGone(deps, gone, now);
    for (const lock of locks) {
      if (gone.includes(lock)) continue;
      const summary = listed?.get(lock.providerLockId);
      const battery = summary ? summary.battery : undefined;
      if (lock.isWifi) {
        // A WiFi lock reaches the cloud itself: its online state comes from the cloud's notifications and writes.
        await saveStatus(deps, lock, (row) => ({ online: row.online ?? true, battery, gatewayOnline: null }));
        continue;
      }
      if (linksDue) {
        const link = best.get(lock.providerLockId);
        await saveStatus(deps, lock, (row) => {
          const held = heldOffline(row, link?.seenAt);
          return {
            online: link?.online === true && !held,
            ...(held ? { statusError: row.statusError } : {}),
            battery,
            gatewayId: link?.gatewayId ?? null,
            gatewayName: link?.name ?? null,
            gatewayOnline: link ? link.online : null,
            ...(link?.seenAt ? { lastSeenAt: link.seenAt } : {}),
          };
        });
      } else {
        const g = lock.gatewayId ? gatewayOnline.get(lock.gatewayId) : undefined;
        await saveStatus(deps, lock, (row) => {
          const held = heldOffline(row, null);
          return {
            online: g?.online === true && !held,
            battery,
            gatewayOnline: g ? g.online : lock.gatewayId ? false : null,
            ...(held ? { statusError: row.statusError } : {}),
          };
        });
      }
    }
    await deps.prisma.lockAccount.update({
      where: { id: account.id },
      data: { ...(linksDue ? { linksReadAt: now } : {}), ...(listDue ? { locksReadAt: now } : {}) },
    });
    return { checked: locks.length - gone.length, failed: 0 };
  } catch (error) {
    if (!(error instanceof LockProviderError)) throw error;
    // The account could not be asked: each lock keeps its last status, with the reason.
    await deps.prisma.lock.updateMany({ where: { id: { in: locks.map((l) => l.id) } }, data: { statusCheckedAt: now, statusError: error.code } });
    return { checked: 0, failed: locks.length };
  }
}

/** One lock's status on its own ("refresh" on a room page): lock/detail and its gateways. */
export async function refreshOneLock(deps: Deps, lock: LockRef): Promise<void> {
  const row = await deps.prisma.lock.findUniqueOrThrow({ where: { id: lock.id }, select: { ...STATUS_SELECT, encodedCards: true } });
  // A card system's door has no status to read.
  if (row.encodedCards) return;
  try {
    const provider = await providerForLock(deps, lock);
    const status: LockStatus = await provider.lockStatus(lock.providerLockId);
    await saveStatus(deps, row, {
      online: status.online,
      battery: status.battery,
      gatewayId: status.gateway?.gatewayId ?? null,
      gatewayName: status.gateway?.name ?? null,
      gatewayOnline: status.gateway?.online ?? null,
      lastSeenAt: status.lastSeenAt,
      mac: status.mac,
      doorOpen: status.doorOpen,
    });
  } catch (error) {
    if (!(error instanceof LockProviderError)) throw error;
    await deps.prisma.lock.update({
      where: { id: lock.id },
      data: { statusCheckedAt: new Date(), statusError: error.code, ...(error.code === 'lock_not_found' ? { online: null } : {}) },
    });
  }
}

/** The status cycle of every connected lock account, of all hotels or of one (the `status` job, and once at start). */
export async function refreshLockStatus(deps: Deps, scope: { hotelId?: number } = {}): Promise<{ checked: number; failed: number }> {
  const total = { checked: 0, failed: 0 };
  if (!deps.locks) return total;
  const accounts = await deps.prisma.lockAccount.findMany({
    where: { ...scope, state: 'connected' },
    select: { ...ACCOUNT_ROW_SELECT, monthlyBudget: true, linksReadAt: true, locksReadAt: true },
    orderBy: { id: 'asc' },
  });
  for (const account of accounts) {
    const r = await refreshAccountStatus(deps, account);
    total.checked += r.checked;
    total.failed += r.failed;
  }
  return total;
}

const UNREACHABLE: ReadonlySet<string> = new Set(['lock_offline', 'gateway_offline', 'no_gateway']);

/**
 * A write or an unlock found the lock unreachable: it is shown offline at once (the cloud's status
 * says a gateway is near, not that the lock answers), with a lock message when that is news.
 */
export async function noteLockUnreachable(deps: Deps, lock: { id: number; hotelId: number }, code: string): Promise<void> {
  if (!UNREACHABLE.has(code)) return;
  // Why, kept (the lock panel says "the last check failed: the lock is offline"), until a newer hearing of it (heldOffline).
  const now = new Date();
  await deps.prisma.lock.updateMany({ where: { id: lock.id, online: false }, data: { statusCheckedAt: now, statusError: code } });
  const { count } = await deps.prisma.lock.updateMany({
    where: { id: lock.id, online: { not: false } },
    data: { online: false, statusCheckedAt: now, statusError: code },
  });
  if (count) {
    await lockMessages(deps, lock, [{ kind: 'lock_offline', content: '' }]);
    await recordLockEvents(deps, lock, ['lock.offline']);
  }
}
