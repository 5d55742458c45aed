import type { TLockDrift, TLockItemKind } from '@console/shared';
import type { Actor, AuthedContext, Deps, ServiceContext } from '../../context';
import { AppError } from '../../errors';
import { LockProviderError, type LockProvider } from '../../infra/locks/provider';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { findRoom, roomScope } from '../base/room-access';
import { LOCK_REF_SELECT, lockDisplayName, type LockRef } from '../base/lock-ref';
import { requireLockTakes } from '../base/lock-takes';
import { INSPECTED_LOCK_SELECT, inspectLock, type InspectedLock } from '../credentials/reconcile';
import { providerForLock } from '../lock-cloud/account-provider';
import { LOW_BATTERY_PERCENT, noteLockUnreachable, refreshOneLock } from './lock-status';
import { lockFailed } from '../base/lock-failure';

/**
 * Locks as the console knows them: the hotel's Lock rows, imported from its lock accounts
 * (accounts/import.service.ts), each the door of at most one room (Room.lockId), with the status
 * its lock account last reported (lock-status.ts). Here, a room's lock as the console shows it, and
 * what is done to it through the lock cloud: opened, read back, an unmanaged item taken off. Every
 * action starts from the room's Lock row of the actor's own hotel and speaks through the account the
 * lock was imported from.
 */

export interface RoomLockDto {
  /** The provider's lock id the room is paired with, or null: the room has no lock. */
  lockId: string | null;
  /** The hotel's lock (its row), or null. */
  lockRowId: number | null;
  name: string;
  simulated: boolean;
  /** Null while the lock was never asked (or could not be). */
  online: boolean | null;
  battery: number | null;
  lowBattery: boolean;
  gateway: { id: string; name: string; online: boolean | null } | null;
  lastSeenAt: string | null;
  statusCheckedAt: string | null;
  /** The provider could not be asked at the last try, or the lock is unknown to it: a code of LOCK_ERROR_CODES. */
  statusError: string | null;
  /** Not in its lock account any more: the room needs another lock. */
  gone: boolean;
  /** The lock account it speaks through, and whether that account works now. */
  account: { id: number; username: string; state: string } | null;
  /** The console can open it from afar (its gateway, WiFi, or Seam's bridge): otherwise "open" is not offered. */
  remoteUnlock: boolean;
  /** A hotel card system's door (Seam `acs`): it reports no status; its cards are encoded at the desk. */
  encodedCards: boolean;
  /** The door as the lock's own sensor last said it in a status read (door-state.ts); null: never said. */
  door: { open: boolean; openedAt: string | null } | null;
}

/** The room of the actor's scope whose door a provider lock id of the actor's hotel is (legacy calls name locks by it). */
export async function findRoomByLock(ctx: AuthedContext, lockId: string): Promise<{ id: number }> {
  requirePermission(ctx.actor, 'room.read');
  const room = await ctx.deps.prisma.room.findFirst({
    where: { ...roomScope(ctx.actor), lock: { hotelId: ctx.actor.hotelId, providerLockId: lockId.trim() } },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  if (!room) throw new AppError('NOT_FOUND', { messageKey: 'room.errors.notFound' });
  return room;
}

const ROOM_LOCK_DTO_SELECT = {
  ...LOCK_REF_SELECT,
  simulated: true,
  online: true,
  battery: true,
  gatewayName: true,
  gatewayOnline: true,
  lastSeenAt: true,
  statusCheckedAt: true,
  statusError: true,
  remoteUnlock: true,
  encodedCards: true,
  doorOpen: true,
  doorOpenSince: true,
  account: { select: { id: true, username: true, state: true } },
} as const;

/** The status of a room's lock as last reported; `refresh` asks the lock cloud first. */
export async function getRoomLock(ctx: AuthedContext, input: { roomId: number; refresh?: boolean }): Promise<RoomLockDto> {
  requirePermission(ctx.actor, 'room.read');
  const room = await findRoom(ctx, input.roomId, { id: true, lock: { select: LOCK_REF_SELECT } });
  const simulated = ctx.deps.locks?.simulated ?? false;
  if (!room.lock) {
    return {
      lockId: null,
      lockRowId: null,
      name: '',
      simulated,
      online: null,
      battery: null,
      lowBattery: false,
      gateway: null,
      lastSeenAt: null,
      statusCheckedAt: null,
      statusError: null,
      gone: false,
      account: null,
      remoteUnlock: false,
      encodedCards: false,
      door: null,
    };
  }
  if (input.refresh && ctx.deps.locks) await refreshOneLock(ctx.deps, room.lock);
  const row = await ctx.deps.prisma.lock.findUniqueOrThrow({ where: { id: room.lock.id }, select: ROOM_LOCK_DTO_SELECT });
  return {
    lockId: row.providerLockId,
    lockRowId: row.id,
    name: lockDisplayName(row),
    simulated: row.simulated || simulated,
    online: row.online,
    battery: row.battery,
    lowBattery: row.battery != null && row.battery < LOW_BATTERY_PERCENT,
    gateway: row.gatewayId ? { id: row.gatewayId, name: row.gatewayName ?? '', online: row.gatewayOnline } : null,
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
    statusCheckedAt: row.statusCheckedAt?.toISOString() ?? null,
    statusError: row.statusError,
    gone: row.goneAt !== null,
    account: row.account,
    remoteUnlock: row.remoteUnlock,
    encodedCards: row.encodedCards,
    door: row.doorOpen === null ? null : { open: row.doorOpen, openedAt: row.doorOpenSince?.toISOString() ?? null },
  };
}

/** Which lock cloud the console speaks to, for the console's badge. */
export function lockProviderInfo(deps: Deps): { provider: string; simulated: boolean } {
  return { provider: deps.locks ? deps.config.locks.provider : 'none', simulated: deps.locks?.simulated ?? false };
}

/** The room's lock of the actor's hotel, what it can hold, and the adapter of its lock account. */
async function pairedLock(
  ctx: AuthedContext,
  roomId: number,
  messageKey?: string,
): Promise<{ room: { id: number; name: string }; lock: LockRef & InspectedLock; provider: LockProvider }> {
  const room = await findRoom(ctx, roomId, { id: true, name: true, lock: { select: { ...LOCK_REF_SELECT, ...INSPECTED_LOCK_SELECT } } });
  if (!room.lock) throw new AppError('LOCK_FAILED', { messageKey: 'credentials.errors.no_lock' });
  if (!ctx.deps.locks) throw new AppError('LOCK_FAILED', { messageKey: 'credentials.errors.no_provider' });
  try {
    return { room, lock: room.lock, provider: await providerForLock(ctx.deps, room.lock) };
  } catch (error) {
    if (error instanceof LockProviderError) throw lockFailed(error, messageKey ?? 'credentials.errors.readFailed');
    throw error;
  }
}

/**
 * Opens a room's lock through its gateway (spec §8: "open failed" with the reason). Allowed to
 * whoever manages credentials of the room; every attempt, opened or not, is audited.
 */
export async function remoteUnlock(ctx: AuthedContext, input: { roomId: number }): Promise<{ opened: true }> {
  requirePermission(ctx.actor, 'credential.manage');
  const room = await findRoom(ctx, input.roomId, { id: true, name: true, lock: { select: LOCK_REF_SELECT } });
  return openRoomLock(ctx, room, { action: 'lock.unlock' });
}

/**
 * The one way a door is opened remotely, for the console and the guest's key page (modules/key-page):
 * the room's own lock (a room the caller has already found in its hotel), through the account it was
 * imported from; every attempt, opened or not, is audited under `audit.action` with `audit.after`.
 */
export async function openRoomLock(
  ctx: ServiceContext & { actor?: Actor },
  room: { id: number; lock: LockRef | null },
  audit: { action: 'lock.unlock' | 'lock.openByGuestLink'; hotelId?: number; after?: Record<string, string | number | boolean> },
): Promise<{ opened: true }> {
  const lock = room.lock;
  if (!lock) throw new AppError('LOCK_FAILED', { messageKey: 'credentials.errors.no_lock' });
  if (!ctx.deps.locks) throw new AppError('LOCK_FAILED', { messageKey: 'credentials.errors.no_provider' });
  // A lock nothing reaches from afar (no gateway, WiFi or bridge) is not asked to open: said, naming the room.
  await requireLockTakes(ctx.deps.prisma, lock.hotelId, room.id, 'remoteUnlock');
  const entry = { action: audit.action, hotelId: audit.hotelId, entityType: 'Room' as const, entityId: room.id };
  try {
    const provider = await providerForLock(ctx.deps, lock);
    await provider.unlock(lock.providerLockId);
  } catch (error) {
    if (!(error instanceof LockProviderError)) throw error;
    await recordAudit(ctx.deps.prisma, ctx, { ...entry, after: { ...audit.after, opened: false, reason: error.code } });
    await noteLockUnreachable(ctx.deps, lock, error.code);
    throw lockFailed(error, 'credentials.errors.openFailed');
  }
  await recordAudit(ctx.deps.prisma, ctx, { ...entry, after: { ...audit.after, opened: true } });
  return { opened: true };
}

export interface LockContentDto {
  kind: TLockItemKind;
  ref: string | null;
  name: string;
  code: string | null;
  endAt: string | null;
  credentialId: number | null;
  deliveryState: string | null;
  drift: TLockDrift;
}

/** What the room's lock holds, read back live, each item marked with its drift (lock/inLockList). */
export async function readRoomLock(ctx: AuthedContext, input: { roomId: number }): Promise<{ items: LockContentDto[]; readAt: string }> {
  requirePermission(ctx.actor, 'credential.manage');
  const { lock, provider } = await pairedLock(ctx, input.roomId);
  try {
    const items = await inspectLock(ctx.deps, provider, lock);
    return { items: items.map((i) => ({ ...i, endAt: i.endAt?.toISOString() ?? null })), readAt: new Date().toISOString() };
  } catch (error) {
    if (error instanceof LockProviderError) throw lockFailed(error, 'credentials.errors.readFailed');
    throw error;
  }
}

/**
 * Takes an item this console did not put there off the room's lock (an unmanaged code). Our own
 * credentials are revoked instead, so that their history stays true.
 */
export async function removeUnmanaged(ctx: AuthedContext, input: { roomId: number; kind: TLockItemKind; ref: string }): Promise<{ removed: true }> {
  requirePermission(ctx.actor, 'credential.manage');
  const { room, lock, provider } = await pairedLock(ctx, input.roomId, 'credentials.errors.removeFailed');
  try {
    const items = await inspectLock(ctx.deps, provider, lock);
    const item = items.find((i) => i.kind === input.kind && i.ref === input.ref);
    if (!item) throw new AppError('NOT_FOUND', { messageKey: 'credentials.errors.credential_not_found' });
    if (item.drift !== 'unmanaged') throw new AppError('CONFLICT', { messageKey: 'credentials.errors.managedUseRevoke' });
    if (input.kind === 'password') await provider.deletePasscode(lock.providerLockId, input.ref);
    else if (input.kind === 'face') await provider.deleteFace(lock.providerLockId, input.ref);
    else await provider.deleteCard(lock.providerLockId, input.ref);
  } catch (error) {
    if (error instanceof LockProviderError) throw lockFailed(error, 'credentials.errors.removeFailed');
    throw error;
  }
  await recordAudit(ctx.deps.prisma, ctx, {
    action: 'lock.removeUnmanaged',
    entityType: 'Room',
    entityId: room.id,
    after: { kind: input.kind, ref: input.ref },
  });
  return { removed: true };
}
