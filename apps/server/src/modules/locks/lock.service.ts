import type { TLockDrift, TLockItemKind } from '@console/shared';
import type { AuthedContext, Deps } from '../../context';
import { AppError } from '../../errors';
import { LockProviderError, type LockProvider, type LockStatus } from '../../infra/locks/provider';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { inspectLock } from '../credentials/reconcile';
import { findRoom, roomScope } from '../room/room-access';

/**
 * Locks as the console knows them: one `Lock` row per provider lock a room is paired with
 * (`Room.lockId` holds the provider's lock id), with the status the provider last reported:
 * online, gateway, battery, last seen. The battery is what the lock reported, never typed.
 */

/** Below this battery level a lock is shown as low (the board's warning, a lock message). */
export const LOW_BATTERY_PERCENT = 20;

export interface RoomLockDto {
  /** The provider's lock id the room is paired with, or null: the room has no lock. */
  lockId: string | null;
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
}

export function providerOf(deps: Deps): LockProvider {
  if (!deps.locks) throw new AppError('LOCK_FAILED', { messageKey: 'credentials.errors.no_provider' });
  return deps.locks;
}

/**
 * Asks the provider for the status of every paired lock of a hotel (or of all hotels) and keeps
 * it. Locks are asked one after the other (TTLock limits calls per minute); a lock that cannot be
 * asked keeps its last status, with the reason.
 */
export async function refreshLockStatus(deps: Deps, scope: { hotelId?: number; roomId?: number } = {}): Promise<{ checked: number; failed: number }> {
  const provider = deps.locks;
  if (!provider) return { checked: 0, failed: 0 };
  const rooms = await deps.prisma.room.findMany({
    where: { ...(scope.hotelId ? { hotelId: scope.hotelId } : {}), ...(scope.roomId ? { id: scope.roomId } : {}), deletedAt: null, lockId: { not: null } },
    select: { hotelId: true, lockId: true },
    orderBy: { id: 'asc' },
  });
  const seen = new Set<string>();
  let checked = 0;
  let failed = 0;
  for (const room of rooms) {
    const lockId = room.lockId!.trim();
    if (!lockId || seen.has(`${room.hotelId}:${lockId}`)) continue;
    seen.add(`${room.hotelId}:${lockId}`);
    try {
      const status = await provider.lockStatus(lockId);
      await saveLockStatus(deps, room.hotelId, provider, status);
      checked += 1;
    } catch (error) {
      if (!(error instanceof LockProviderError)) throw error;
      failed += 1;
      await deps.prisma.lock.upsert({
        where: { provider_providerLockId: { provider: provider.name, providerLockId: lockId } },
        create: { hotelId: room.hotelId, provider: provider.name, providerLockId: lockId, simulated: provider.simulated, statusCheckedAt: new Date(), statusError: error.code, ...(error.code === 'lock_not_found' ? { online: null } : {}) },
        update: { statusCheckedAt: new Date(), statusError: error.code },
      });
    }
  }
  return { checked, failed };
}

async function saveLockStatus(deps: Deps, hotelId: number, provider: LockProvider, status: LockStatus) {
  const data = {
    name: status.name,
    mac: status.mac,
    simulated: provider.simulated,
    online: status.online,
    battery: status.battery,
    gatewayId: status.gateway?.gatewayId ?? null,
    gatewayName: status.gateway?.name ?? null,
    gatewayOnline: status.gateway?.online ?? null,
    lastSeenAt: status.lastSeenAt,
    statusCheckedAt: new Date(),
    statusError: null,
  };
  const before = await deps.prisma.lock.findUnique({
    where: { provider_providerLockId: { provider: provider.name, providerLockId: status.lockId } },
    select: { hotelId: true, online: true, battery: true },
  });
  if (before && before.hotelId !== hotelId) {
    // A lock id paired in two hotels: the first pairing keeps it; the other hotel sees it as unknown.
    deps.log.warn({ lockId: status.lockId, hotelId, owner: before.hotelId }, 'a lock is paired with rooms of two hotels; status kept for the first');
    return;
  }
  await deps.prisma.lock.upsert({
    where: { provider_providerLockId: { provider: provider.name, providerLockId: status.lockId } },
    create: { hotelId, provider: provider.name, providerLockId: status.lockId, ...data },
    update: data,
  });
  await noteStatusChange(deps, hotelId, status, before);
}

const UNREACHABLE: ReadonlySet<string> = new Set(['lock_offline', 'gateway_offline', 'no_gateway']);

/**
 * A write or an unlock found the lock unreachable: it is shown offline at once (the cloud's status
 * says a gateway is near, not that the lock answers), with a lock message when that is news.
 */
export async function noteLockUnreachable(deps: Deps, lockId: string, code: string): Promise<void> {
  const provider = deps.locks;
  if (!provider || !UNREACHABLE.has(code)) return;
  const lock = await deps.prisma.lock.findUnique({ where: { provider_providerLockId: { provider: provider.name, providerLockId: lockId } }, select: { id: true, hotelId: true, online: true } });
  if (!lock) return;
  const { count } = await deps.prisma.lock.updateMany({ where: { id: lock.id, online: { not: false } }, data: { online: false, statusCheckedAt: new Date() } });
  if (count === 0) return;
  const rooms = await deps.prisma.room.findMany({ where: { hotelId: lock.hotelId, lockId, deletedAt: null }, select: { id: true } });
  if (rooms.length) await deps.prisma.lockMessage.createMany({ data: rooms.map((r) => ({ hotelId: lock.hotelId, roomId: r.id, kind: 'lock_offline', content: '' })) });
}

/** Lock messages for what changed: the lock went offline, its battery fell below the low mark. */
async function noteStatusChange(deps: Deps, hotelId: number, status: LockStatus, before: { online: boolean | null; battery: number | null } | null) {
  const rooms = await deps.prisma.room.findMany({ where: { hotelId, lockId: status.lockId, deletedAt: null }, select: { id: true } });
  if (rooms.length === 0) return;
  const messages: { kind: string; content: string }[] = [];
  if (before?.online === true && !status.online) messages.push({ kind: 'lock_offline', content: '' });
  if (before?.online === false && status.online) messages.push({ kind: 'lock_online', content: '' });
  const wasLow = before?.battery != null && before.battery < LOW_BATTERY_PERCENT;
  if (status.battery != null && status.battery < LOW_BATTERY_PERCENT && !wasLow) messages.push({ kind: 'low_battery', content: String(status.battery) });
  if (messages.length === 0) return;
  await deps.prisma.lockMessage.createMany({ data: rooms.flatMap((r) => messages.map((m) => ({ hotelId, roomId: r.id, ...m }))) });
}

const lockSelect = {
  providerLockId: true,
  simulated: true,
  online: true,
  battery: true,
  gatewayId: true,
  gatewayName: true,
  gatewayOnline: true,
  lastSeenAt: true,
  statusCheckedAt: true,
  statusError: true,
} as const;

type LockRow = { [K in keyof typeof lockSelect]: unknown } & {
  providerLockId: string;
  simulated: boolean;
  online: boolean | null;
  battery: number | null;
  gatewayId: string | null;
  gatewayName: string | null;
  gatewayOnline: boolean | null;
  lastSeenAt: Date | null;
  statusCheckedAt: Date | null;
  statusError: string | null;
};

export function toRoomLockDto(lockId: string | null, row: LockRow | null, simulatedProvider: boolean): RoomLockDto {
  return {
    lockId,
    simulated: row?.simulated ?? simulatedProvider,
    online: row?.online ?? null,
    battery: row?.battery ?? null,
    lowBattery: row?.battery != null && row.battery < LOW_BATTERY_PERCENT,
    gateway: row?.gatewayId ? { id: row.gatewayId, name: row.gatewayName ?? '', online: row.gatewayOnline } : null,
    lastSeenAt: row?.lastSeenAt?.toISOString() ?? null,
    statusCheckedAt: row?.statusCheckedAt?.toISOString() ?? null,
    statusError: row?.statusError ?? null,
  };
}

/** The room of the actor's scope a provider lock id is paired with (legacy calls name locks by it). */
export async function findRoomByLock(ctx: AuthedContext, lockId: string): Promise<{ id: number }> {
  requirePermission(ctx.actor, 'room.read');
  const room = await ctx.deps.prisma.room.findFirst({ where: { ...roomScope(ctx.actor), lockId: lockId.trim() }, select: { id: true }, orderBy: { id: 'asc' } });
  if (!room) throw new AppError('NOT_FOUND', { messageKey: 'room.errors.notFound' });
  return room;
}

/** The status of a room's lock as last reported; `refresh` asks the provider first. */
export async function getRoomLock(ctx: AuthedContext, input: { roomId: number; refresh?: boolean }): Promise<RoomLockDto> {
  requirePermission(ctx.actor, 'room.read');
  const room = await findRoom(ctx, input.roomId, { id: true, lockId: true });
  const lockId = room.lockId?.trim() || null;
  if (!lockId) return toRoomLockDto(null, null, ctx.deps.locks?.simulated ?? false);
  if (input.refresh && ctx.deps.locks) await refreshLockStatus(ctx.deps, { hotelId: ctx.actor.hotelId, roomId: room.id });
  const row = ctx.deps.locks
    ? await ctx.deps.prisma.lock.findFirst({ where: { hotelId: ctx.actor.hotelId, provider: ctx.deps.locks.name, providerLockId: lockId }, select: lockSelect })
    : null;
  return toRoomLockDto(lockId, row, ctx.deps.locks?.simulated ?? false);
}

/** Which lock provider the console speaks to, for the console's badge. */
export function lockProviderInfo(deps: Deps): { provider: string; simulated: boolean } {
  return { provider: deps.locks ? deps.config.locks.provider : 'none', simulated: deps.locks?.simulated ?? false };
}

/**
 * Opens a room's lock through its gateway (spec §8: "open failed" with the reason). Allowed to
 * whoever manages credentials of the room; every attempt, opened or not, is audited.
 */
export async function remoteUnlock(ctx: AuthedContext, input: { roomId: number }): Promise<{ opened: true }> {
  requirePermission(ctx.actor, 'credential.manage');
  const room = await findRoom(ctx, input.roomId, { id: true, name: true, lockId: true });
  const lockId = room.lockId?.trim();
  if (!lockId) throw new AppError('LOCK_FAILED', { messageKey: 'credentials.errors.no_lock' });
  const provider = providerOf(ctx.deps);
  try {
    await provider.unlock(lockId);
  } catch (error) {
    if (!(error instanceof LockProviderError)) throw error;
    await recordAudit(ctx.deps.prisma, ctx, { action: 'lock.unlock', entityType: 'Room', entityId: room.id, after: { opened: false, reason: error.code } });
    await noteLockUnreachable(ctx.deps, lockId, error.code);
    throw new AppError('LOCK_FAILED', { messageKey: 'credentials.errors.openFailed', params: { reason: { t: `credentials.errors.${error.code}` } }, details: { reason: error.code } });
  }
  await recordAudit(ctx.deps.prisma, ctx, { action: 'lock.unlock', entityType: 'Room', entityId: room.id, after: { opened: true } });
  return { opened: true };
}

/** A provider failure as the operator's error: "the lock ..." with its translated reason. */
function lockFailed(error: LockProviderError, messageKey = 'credentials.errors.readFailed'): AppError {
  return new AppError('LOCK_FAILED', { messageKey, params: { reason: { t: `credentials.errors.${error.code}` } }, details: { reason: error.code } });
}

async function pairedLock(ctx: AuthedContext, roomId: number): Promise<{ room: { id: number; name: string }; lockId: string; provider: LockProvider }> {
  const room = await findRoom(ctx, roomId, { id: true, name: true, lockId: true });
  const lockId = room.lockId?.trim();
  if (!lockId) throw new AppError('LOCK_FAILED', { messageKey: 'credentials.errors.no_lock' });
  return { room, lockId, provider: providerOf(ctx.deps) };
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
  const { lockId, provider } = await pairedLock(ctx, input.roomId);
  try {
    const items = await inspectLock(ctx.deps, provider, ctx.actor.hotelId, lockId);
    return { items: items.map((i) => ({ ...i, endAt: i.endAt?.toISOString() ?? null })), readAt: new Date().toISOString() };
  } catch (error) {
    if (error instanceof LockProviderError) throw lockFailed(error);
    throw error;
  }
}

/**
 * Takes an item this console did not put there off the room's lock (an unmanaged code). Our own
 * credentials are revoked instead, so that their history stays true.
 */
export async function removeUnmanaged(ctx: AuthedContext, input: { roomId: number; kind: TLockItemKind; ref: string }): Promise<{ removed: true }> {
  requirePermission(ctx.actor, 'credential.manage');
  const { room, lockId, provider } = await pairedLock(ctx, input.roomId);
  try {
    const items = await inspectLock(ctx.deps, provider, ctx.actor.hotelId, lockId);
    const item = items.find((i) => i.kind === input.kind && i.ref === input.ref);
    if (!item) throw new AppError('NOT_FOUND', { messageKey: 'credentials.errors.credential_not_found' });
    if (item.drift !== 'unmanaged') throw new AppError('CONFLICT', { messageKey: 'credentials.errors.managedUseRevoke' });
    if (input.kind === 'password') await provider.deletePasscode(lockId, input.ref);
    else if (input.kind === 'face') await provider.deleteFace(lockId, input.ref);
    else await provider.deleteCard(lockId, input.ref);
  } catch (error) {
    if (error instanceof LockProviderError) throw lockFailed(error, 'credentials.errors.removeFailed');
    throw error;
  }
  await recordAudit(ctx.deps.prisma, ctx, { action: 'lock.removeUnmanaged', entityType: 'Room', entityId: room.id, after: { kind: input.kind, ref: input.ref } });
  return { removed: true };
}
