import { ZLockPairInput } from '@console/shared';
import type { z } from 'zod';
import type { Prisma } from '../../../generated/prisma/client';
import type { Actor, AuthedContext, Deps, ServiceContext } from '../../../context';
import { isConstraint } from '../../../db/errors';
import { recordEvent } from '../../../db/events';
import { lockRooms, transaction, type Tx } from '../../../db/transaction';
import { AppError } from '../../../errors';
import { platformOf } from '../../../infra/locks';
import { LockProviderError, type LockStatus, type LockSummary } from '../../../infra/locks/provider';
import { requirePermission } from '../../../permissions';
import { recordAudit } from '../../audit/audit.service';
import { keysFollowLock } from '../../cards/card-keys.service';
import { followCredentials } from '../../credentials/delivery';
import { roomScope } from '../../base/room-access';
import { lockDisplayName } from '../../base/lock-ref';
import { usableProvider } from '../../lock-cloud/account-provider';
import { ACCOUNT_ROW_SELECT } from '../../base/lock-ref';

/**
 * Pairing the hotel's locks with its rooms (docs/ttlock-account.md): a room's door is a Lock row
 * of the room's own hotel, one room per lock (the database refuses a second: Room_lockId_active_key,
 * and the composite reference refuses another hotel's lock). On every face a lock is named by its
 * row (web) or by its provider lock id (legacy `lock_id`, the room forms): an id the hotel's own
 * lock accounts do not hold is refused with one message, whether or not it exists elsewhere.
 */

async function credentialsOnLock(tx: Tx, hotelId: number, roomId: number): Promise<number> {
  const onLock = { hotelId, roomId, providerRef: { not: null }, deliveryState: { notIn: ['removed' as const] } };
  // One after the other: a transaction is one connection.
  const passwords = await tx.lockPassword.count({ where: onLock });
  const faces = await tx.faceAuthorization.count({ where: onLock });
  const cards = await tx.cardGrant.count({ where: { ...onLock, medium: 'number' } });
  return passwords + faces + cards;
}

/** Who pairs: in which hotel, over which rooms (the actor's scope), named in the audit log as. */
export interface Pairer {
  hotelId: number;
  rooms: Prisma.RoomWhereInput;
  audit: ServiceContext & { actor?: Actor };
}

/** A person pairing rooms of their scope. */
export function pairerOf(ctx: AuthedContext): Pairer {
  return { hotelId: ctx.actor.hotelId, rooms: roomScope(ctx.actor), audit: ctx };
}

/**
 * Pairs rooms with locks (null: unpairs), all or nothing, inside the caller's transaction. Rooms
 * must be the actor's, locks the hotel's and not gone; a lock already another room's door, or a
 * room whose lock still holds credentials, is refused with a message naming them.
 */
async function applyPairs(tx: Tx, by: Pairer, pairs: { roomId: number; lockId: number | null }[]): Promise<number[]> {
  const hotelId = by.hotelId;
  const roomIds = pairs.map((p) => p.roomId);
  if (new Set(roomIds).size !== roomIds.length) throw new AppError('VALIDATION', { messageKey: 'lockAccounts.errors.roomTwice' });
  const lockIds = pairs.map((p) => p.lockId).filter((id): id is number => id !== null);
  if (new Set(lockIds).size !== lockIds.length) throw new AppError('VALIDATION', { messageKey: 'lockAccounts.errors.lockTwice' });
  const locks = await tx.lock.findMany({
    where: { hotelId, id: { in: lockIds } },
    select: { id: true, name: true, alias: true, providerLockId: true, goneAt: true },
  });
  if (locks.length !== lockIds.length) throw new AppError('NOT_FOUND', { messageKey: 'lockAccounts.errors.lockNotFound' });
  const gone = locks.find((l) => l.goneAt !== null);
  if (gone) throw new AppError('CONFLICT', { messageKey: 'lockAccounts.errors.lockGone', params: { lock: lockDisplayName(gone) } });
  // The rooms of the request and those whose door a requested lock is now, locked in one order.
  const holders = await tx.room.findMany({ where: { hotelId, deletedAt: null, lockId: { in: lockIds } }, select: { id: true } });
  await lockRooms(tx, hotelId, [...roomIds, ...holders.map((h) => h.id)]);
  const rooms = await tx.room.findMany({
    where: { ...by.rooms, hotelId, id: { in: roomIds } },
    select: { id: true, name: true, lockId: true, lock: { select: { providerLockId: true } } },
  });
  if (rooms.length !== roomIds.length) throw new AppError('NOT_FOUND', { messageKey: 'room.errors.notFound' });
  const byId = new Map(rooms.map((r) => [r.id, r]));
  const lockById = new Map(locks.map((l) => [l.id, l]));
  const changed = pairs.filter((p) => byId.get(p.roomId)!.lockId !== p.lockId);
  for (const p of changed) {
    if (p.lockId === null) continue;
    const holder = await tx.room.findFirst({ where: { hotelId, deletedAt: null, lockId: p.lockId, id: { notIn: roomIds } }, select: { name: true } });
    if (holder)
      throw new AppError('CONFLICT', {
        messageKey: 'lockAccounts.errors.lockTaken',
        params: { lock: lockDisplayName(lockById.get(p.lockId)!), room: holder.name },
      });
  }
  for (const p of changed) {
    const room = byId.get(p.roomId)!;
    if (room.lockId === null) continue;
    const held = await credentialsOnLock(tx, hotelId, room.id);
    if (held > 0) throw new AppError('CONFLICT', { messageKey: 'lockAccounts.errors.roomHasCredentials', params: { room: room.name, count: held } });
  }
  // Unpaired first, then paired: locks may move between rooms of the same request.
  if (changed.length) await tx.room.updateMany({ where: { hotelId, id: { in: changed.map((p) => p.roomId) } }, data: { lockId: null } });
  const keyRooms: number[] = [];
  for (const p of changed) {
    const room = byId.get(p.roomId)!;
    if (p.lockId !== null) await tx.room.update({ where: { id: p.roomId }, data: { lockId: p.lockId } });
    const after = p.lockId === null ? null : lockById.get(p.lockId)!.providerLockId;
    await recordAudit(tx, by.audit, {
      action: 'room.lock',
      hotelId,
      entityType: 'Room',
      entityId: p.roomId,
      before: { lockId: room.lock?.providerLockId ?? null },
      after: { lockId: after },
    });
    await recordEvent(tx, { hotelId, kind: 'lock.changed', roomIds: [p.roomId], lockId: p.lockId ?? room.lockId ?? undefined });
    if (await keysFollowLock(tx, hotelId, p.roomId, room.lockId, p.lockId)) keyRooms.push(p.roomId);
  }
  return keyRooms;
}

/** Runs `applyPairs` in its own transaction and queues the lock work it made. */
export async function pairInTransaction(by: Pairer, pairs: { roomId: number; lockId: number | null }[]): Promise<void> {
  const deps = by.audit.deps;
  try {
    await transaction(deps, async (tx) => {
      const keyRooms = await applyPairs(tx, by, pairs);
      for (const roomId of keyRooms) followCredentials(tx, deps, by.hotelId, { roomId });
      // Credentials that waited for a lock can go now.
      if (pairs.some((p) => p.lockId !== null)) followCredentials(tx, deps, by.hotelId);
    });
  } catch (error) {
    // Another request paired the same lock at the same moment: the database keeps one room per lock.
    if (isConstraint(error, 'Room_lockId_active_key')) throw new AppError('CONFLICT', { messageKey: 'lockAccounts.errors.lockTakenMeanwhile' });
    throw error;
  }
}

/** Rooms paired with locks of the hotel in bulk (the lock accounts page's picker and "apply all suggestions"). */
export async function pairRooms(ctx: AuthedContext, raw: z.input<typeof ZLockPairInput>): Promise<{ paired: number }> {
  requirePermission(ctx.actor, 'room.manage');
  const { pairs } = ZLockPairInput.parse(raw);
  await pairInTransaction(pairerOf(ctx), pairs);
  return { paired: pairs.length };
}

/**
 * The hotel's lock a typed provider lock id names (legacy `lock_id`, the room forms): a lock of the
 * hotel, or one a connected lock account of the hotel holds (imported on the spot). Anything else,
 * another hotel's lock included, is refused with the same message. Null: no lock.
 */
export async function lockOfTypedId(ctx: AuthedContext, typed: string | null | undefined): Promise<number | null> {
  return lockOfTypedIdIn(ctx.deps, ctx.actor.hotelId, typed);
}

/** A Seam device id: a UUID. */
const SEAM_DEVICE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function lockOfTypedIdIn(deps: Deps, hotelId: number, typed: string | null | undefined): Promise<number | null> {
  const text = typed?.trim() ?? '';
  if (text === '') return null;
  const refuse = () =>
    new AppError('VALIDATION', {
      messageKey: 'lockAccounts.errors.lockNotInAccounts',
      params: { lockId: text.slice(0, 64) },
      fields: { lockId: 'lockAccounts.errors.lockNotInAccounts' },
    });
  const cloud = deps.locks;
  // Whatever its platform: a TTLock lock id or a Seam device id (ids of two platforms never look alike).
  const rows = await deps.prisma.lock.findMany({
    where: { provider: { in: [cloud?.name ?? 'ttlock', 'seam'] }, providerLockId: text },
    select: { id: true, hotelId: true, goneAt: true },
    take: 4,
  });
  if (rows.length) {
    const row = rows.find((r) => r.hotelId === hotelId && r.goneAt === null);
    if (!row) throw refuse();
    return row.id;
  }
  // Not one of the hotel's yet: one of its connected accounts of the platform whose ids look so may hold it.
  const platform = /^\d{1,18}$/.test(text) ? 'ttlock' : SEAM_DEVICE_ID.test(text) ? 'seam' : null;
  if (!cloud || !platform) throw refuse();
  const accounts = (
    await deps.prisma.lockAccount.findMany({ where: { hotelId, state: 'connected' }, select: ACCOUNT_ROW_SELECT, orderBy: { id: 'asc' } })
  ).filter((a) => platformOf(a.kind) === platform);
  for (const account of accounts) {
    let found: { detail: LockSummary; status: LockStatus | null; platform: { name: string; simulated: boolean } };
    try {
      const provider = usableProvider(deps, account);
      const detail = await provider.lockDetail(text);
      // Its gateway too, so that writes to it queue behind the gateway's other locks.
      const status = detail.hasGateway ? await provider.lockStatus(text).catch(() => null) : null;
      found = { detail, status, platform: { name: provider.name, simulated: provider.simulated } };
    } catch (error) {
      // Not this account's lock (or the account cannot be asked now): try the next one.
      if (error instanceof LockProviderError) continue;
      throw error;
    }
    const { detail, status, platform } = found;
    const created = await deps.prisma.lock.createManyAndReturn({
      data: [
        {
          hotelId,
          accountId: account.id,
          provider: platform.name,
          providerLockId: text,
          name: detail.name,
          alias: detail.alias,
          mac: detail.mac,
          simulated: platform.simulated,
          battery: detail.battery,
          hasKeypad: detail.capabilities.keypad,
          hasCardReader: detail.capabilities.cardReader,
          hasFaceModule: detail.capabilities.faceModule,
          onlinePasscodes: detail.capabilities.onlinePasscodes,
          offlinePasscodes: detail.capabilities.offlinePasscodes,
          keypadWithoutZero: detail.capabilities.keypadWithoutZero,
          backupCodePool: detail.capabilities.backupCodePool,
          offlineFirstUse: detail.capabilities.offlineFirstUse,
          encodedCards: detail.capabilities.encodedCards,
          remoteUnlock: detail.capabilities.remoteUnlock,
          gatewayId: status?.gateway?.gatewayId ?? null,
          gatewayName: status?.gateway?.name ?? null,
          gatewayOnline: status?.gateway?.online ?? null,
          online: status ? status.online : null,
          lastSeenAt: status?.lastSeenAt ?? null,
          statusCheckedAt: status ? new Date() : null,
          importedAt: new Date(),
        },
      ],
      skipDuplicates: true,
      select: { id: true },
    });
    // Another hotel took it at this very moment.
    if (!created[0]) throw refuse();
    return created[0].id;
  }
  throw refuse();
}

export { applyPairs };
