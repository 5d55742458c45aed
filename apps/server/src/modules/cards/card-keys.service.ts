import { ZCardKeySetCreateInput, ZCardKeySetIdInput, ZCardKeySyncInput, type TDeliveryState } from '@console/shared';
import type { TCardDoorKeySyncDto } from '@console/shared/dto';
import type { z } from 'zod';
import type { AuthedContext, Deps } from '../../context';
import { transaction, type Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { readerOf, systemText, textColumns, type StoredText, type SystemText, type TextReader } from '../../infra/system-text';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { followCredentials } from '../credentials/delivery';
import { lockDisplayName } from '../base/lock-ref';
import { roomScope } from '../base/room-access';
import { DOOR_SELECT } from '../base/door-dto';
import { newKeySetRow } from './card-keys';
import { recordEvent } from '../../db/events';

/**
 * The hotel's card encryption (spec §2 `/cardEncryption/cardEncryption`, shown with apiKeyAuth;
 * legacy `room/cardEncryption`, `cardEncryptionList`, `deleteCardEncryption`,
 * `sendCardEncryptionSyntony`). Key sets are made by the server and never shown: a list says their
 * name, sector, fingerprint and whether they write new cards; pushing them to the locks goes
 * through the delivery engine, one row per lock with its state.
 */

export interface CardKeySetDto {
  id: number;
  name: string;
  sector: number;
  fingerprint: string;
  isActive: boolean;
  retiredAt: string | null;
  /** A retired set stays on the locks until then (null: while a card without an end uses it). */
  keepUntil: string | null;
  /** Cards written under it that are issued now. */
  issuedCards: number;
  createdAt: string;
}

const keySetSelect = {
  id: true,
  name: true,
  nameKey: true,
  nameParams: true,
  sector: true,
  fingerprint: true,
  isActive: true,
  retiredAt: true,
  keepUntil: true,
  createdAt: true,
  _count: { select: { issues: { where: { state: 'issued' } } } },
} as const;

type KeySetRow = {
  id: number;
  name: string;
  nameKey: string | null;
  nameParams: unknown;
  sector: number;
  fingerprint: string;
  isActive: boolean;
  retiredAt: Date | null;
  keepUntil: Date | null;
  createdAt: Date;
  _count: { issues: number };
};

/** A key set as every face shows it: a name the system gave read in the reader's language. */
function toDto(k: KeySetRow, read: TextReader): CardKeySetDto {
  return {
    id: k.id,
    name: read(k.name, k.nameKey, k.nameParams),
    sector: k.sector,
    fingerprint: k.fingerprint,
    isActive: k.isActive,
    retiredAt: k.retiredAt?.toISOString() ?? null,
    keepUntil: k.keepUntil?.toISOString() ?? null,
    issuedCards: k._count.issues,
    createdAt: k.createdAt.toISOString(),
  };
}

export async function listCardKeySets(ctx: AuthedContext): Promise<CardKeySetDto[]> {
  requirePermission(ctx.actor, 'hotel.manage');
  const rows = await ctx.deps.prisma.cardEncryption.findMany({
    where: { hotelId: ctx.actor.hotelId },
    select: keySetSelect,
    orderBy: [{ isActive: 'desc' }, { id: 'desc' }],
  });
  const read = readerOf(ctx);
  return rows.map((row) => toDto(row, read));
}

/** When a retired key set may leave the locks: the end of the last card written under it that is still issued (null: one has no end). */
async function keepUntilOf(tx: Tx, hotelId: number, keyId: number, now: Date): Promise<Date | null> {
  const live = await tx.cardIssue.findMany({ where: { hotelId, keyId, state: { in: ['issued', 'reserved'] } }, select: { validUntil: true } });
  if (live.some((i) => i.validUntil === null)) return null;
  return new Date(Math.max(now.getTime(), ...live.map((i) => i.validUntil!.getTime())));
}

/**
 * Makes a new key set the hotel's active one (the first, or a rotation): the one before retires
 * and stays on the locks until its last card has expired. The locks learn the new list through
 * the delivery engine.
 */
export async function createCardKeySet(ctx: AuthedContext, raw: z.input<typeof ZCardKeySetCreateInput>): Promise<CardKeySetDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'hotel.manage');
  const input = ZCardKeySetCreateInput.parse(raw);
  const created = await transaction(deps, async (tx) => {
    // Unnamed: "Key set n", a name the system gives, read in each reader's language.
    const name = input.name ?? (await keySetName(tx, actor.hotelId));
    const row = await rotateKeySet(tx, deps, actor.hotelId, name, input.sector);
    await recordAudit(tx, ctx, {
      action: 'card.keys.create',
      entityType: 'CardEncryption',
      entityId: row.id,
      after: { name: typeof name === 'string' ? name : { key: name.key, params: name.params ?? {} }, sector: row.sector, fingerprint: row.fingerprint },
    });
    await recordEvent(tx, { hotelId: actor.hotelId, kind: 'credential.changed' });
    await queueKeySync(tx, actor.hotelId);
    followCredentials(tx, deps, actor.hotelId);
    return row;
  });
  return toDto(created, readerOf(ctx));
}

/** The name the system gives a key set nobody named: "Key set n", n counting the hotel's key sets (a code, translated when read). */
export async function keySetName(tx: Tx, hotelId: number): Promise<SystemText> {
  const count = await tx.cardEncryption.count({ where: { hotelId } });
  return systemText('cards.keySetName', { n: count + 1 });
}

/** The rotation itself, in the caller's transaction (also the first key set a hotel's first card makes). */
export async function rotateKeySet(tx: Tx, deps: Deps, hotelId: number, name: StoredText, sector?: number): Promise<KeySetRow> {
  const now = new Date();
  // One rotation at a time per hotel (the partial unique index on the active set is the last word).
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('CardEncryption.active'), ${hotelId})`;
  const active = await tx.cardEncryption.findFirst({ where: { hotelId, isActive: true }, select: { id: true, sector: true } });
  if (active) {
    await tx.cardEncryption.update({
      where: { id: active.id },
      data: { isActive: false, retiredAt: now, keepUntil: await keepUntilOf(tx, hotelId, active.id, now) },
    });
  }
  const stored = textColumns(name);
  return tx.cardEncryption.create({
    data: {
      hotelId,
      name: stored.text,
      nameKey: stored.key,
      nameParams: stored.params,
      ...newKeySetRow(deps.config.cardKeySecret, hotelId, sector ?? active?.sector),
    },
    select: keySetSelect,
  });
}

/**
 * Deletes a retired key set no issued card uses any more (`deleteCardEncryption`); the active one
 * cannot be deleted (a new one replaces it). The locks drop it.
 */
export async function deleteCardKeySet(ctx: AuthedContext, raw: z.input<typeof ZCardKeySetIdInput>): Promise<void> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'hotel.manage');
  const { id } = ZCardKeySetIdInput.parse(raw);
  await transaction(deps, async (tx) => {
    const row = await tx.cardEncryption.findFirst({
      where: { id, hotelId: actor.hotelId },
      select: { id: true, name: true, nameKey: true, nameParams: true, isActive: true, fingerprint: true },
    });
    if (!row) throw new AppError('NOT_FOUND', { messageKey: 'cards.errors.keySetNotFound' });
    if (row.isActive) throw new AppError('CONFLICT', { messageKey: 'cards.errors.keySetActive' });
    const inUse = await tx.cardIssue.count({
      where: { hotelId: actor.hotelId, keyId: id, state: { in: ['issued', 'reserved'] }, OR: [{ validUntil: null }, { validUntil: { gt: new Date() } }] },
    });
    if (inUse > 0) throw new AppError('CONFLICT', { messageKey: 'cards.errors.keySetInUse', params: { count: inUse } });
    // Cards written under it whose time is over have ended; they keep their history, without it.
    const now = new Date();
    await tx.cardIssue.updateMany({
      where: { hotelId: actor.hotelId, keyId: id, state: { in: ['issued', 'reserved'] } },
      data: { state: 'ended', endReason: 'expired', endedAt: now },
    });
    await tx.cardIssue.updateMany({ where: { hotelId: actor.hotelId, keyId: id }, data: { keyId: null } });
    await tx.cardEncryption.delete({ where: { id } });
    await recordAudit(tx, ctx, {
      action: 'card.keys.delete',
      entityType: 'CardEncryption',
      entityId: id,
      names: row.nameKey ? { nameKey: row.nameKey, nameParams: (row.nameParams ?? {}) as Record<string, string | number> } : { name: row.name },
      before: { name: row.nameKey ? { key: row.nameKey, params: row.nameParams } : row.name, fingerprint: row.fingerprint },
    });
    await recordEvent(tx, { hotelId: actor.hotelId, kind: 'credential.changed' });
    await queueKeySync(tx, actor.hotelId);
    followCredentials(tx, deps, actor.hotelId);
  });
}

/**
 * Marks the card keys of the hotel's locks to be pushed again: all rooms with a lock and all shared
 * doors (guest cards name them, docs/shared-doors.md), or only these rooms, or only these doors.
 */
export async function queueKeySync(tx: Tx, hotelId: number, roomIds?: number[], doorLockIds?: number[]): Promise<number> {
  const all = roomIds === undefined && doorLockIds === undefined;
  const rooms =
    all || roomIds
      ? await tx.room.findMany({
          where: { hotelId, deletedAt: null, lockId: { not: null }, ...(roomIds ? { id: { in: roomIds } } : {}) },
          select: { id: true },
        })
      : [];
  const doors =
    all || doorLockIds
      ? await tx.lock.findMany({ where: { hotelId, sharedKind: { not: null }, ...(doorLockIds ? { id: { in: doorLockIds } } : {}) }, select: { id: true } })
      : [];
  const ids = rooms.map((r) => r.id);
  const doorIds = doors.map((d) => d.id);
  if (ids.length)
    await tx.$executeRaw`
    INSERT INTO "LockCardKeys" ("hotelId", "roomId", "deliveryState", "version", "attempts", "updatedAt")
    SELECT ${hotelId}, r, 'pending', 1, 0, now() FROM unnest(${ids}::int[]) AS r
    ON CONFLICT ("hotelId", "roomId") DO UPDATE SET "deliveryState" = 'pending', "version" = "LockCardKeys"."version" + 1, "attempts" = 0, "lastError" = NULL, "updatedAt" = now()`;
  if (doorIds.length)
    await tx.$executeRaw`
    INSERT INTO "LockCardKeys" ("hotelId", "doorLockId", "deliveryState", "version", "attempts", "updatedAt")
    SELECT ${hotelId}, d, 'pending', 1, 0, now() FROM unnest(${doorIds}::int[]) AS d
    ON CONFLICT ("hotelId", "doorLockId") DO UPDATE SET "deliveryState" = 'pending', "version" = "LockCardKeys"."version" + 1, "attempts" = 0, "lastError" = NULL, "updatedAt" = now()`;
  return ids.length + doorIds.length;
}

export interface CardKeySyncDto {
  roomId: number;
  roomName: string;
  lockId: string;
  deliveryState: TDeliveryState | 'never';
  lastError: string | null;
  deliveredAt: string | null;
}

/** Pushes the hotel's card keys to its locks now (`sendCardEncryptionSyntony`); answers each lock's state. */
export async function syncCardKeys(ctx: AuthedContext, raw: z.input<typeof ZCardKeySyncInput>): Promise<CardKeySyncDto[]> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'credential.manage');
  const input = ZCardKeySyncInput.parse(raw);
  const roomIds = input.roomIds
    ? (await deps.prisma.room.findMany({ where: { id: { in: input.roomIds }, ...roomScope(actor) }, select: { id: true } })).map((r) => r.id)
    : undefined;
  if (input.roomIds && roomIds!.length !== new Set(input.roomIds).size) throw new AppError('NOT_FOUND', { messageKey: 'frontDesk.errors.roomNotFound' });
  // Shared doors are the whole hotel's (as on the shared doors page): a lock of another hotel, or one that is no shared door, is not found.
  const doorLockIds = input.doorLockIds
    ? (
        await deps.prisma.lock.findMany({ where: { id: { in: input.doorLockIds }, hotelId: actor.hotelId, sharedKind: { not: null } }, select: { id: true } })
      ).map((l) => l.id)
    : undefined;
  if (input.doorLockIds && doorLockIds!.length !== new Set(input.doorLockIds).size)
    throw new AppError('NOT_FOUND', { messageKey: 'sharedDoors.errors.notFound' });
  const everything = roomIds === undefined && doorLockIds === undefined;
  await transaction(deps, async (tx) => {
    if (!(await tx.cardEncryption.findFirst({ where: { hotelId: actor.hotelId, isActive: true }, select: { id: true } })))
      await rotateKeySet(tx, deps, actor.hotelId, await keySetName(tx, actor.hotelId));
    await queueKeySync(tx, actor.hotelId, roomIds, doorLockIds);
    followCredentials(tx, deps, actor.hotelId);
    await recordAudit(tx, ctx, {
      action: 'card.keys.sync',
      entityType: 'Hotel',
      entityId: actor.hotelId,
      after: everything ? { rooms: 'all', doors: 'all' } : { rooms: roomIds ?? [], doors: doorLockIds ?? [] },
    });
    await recordEvent(tx, { hotelId: actor.hotelId, kind: 'credential.changed', roomIds });
  });
  return cardKeyStates(ctx);
}

/** Where each lock of the rooms the actor sees stands with the hotel's card keys. */
export async function cardKeyStates(ctx: AuthedContext): Promise<CardKeySyncDto[]> {
  requirePermission(ctx.actor, 'room.read');
  const rooms = await ctx.deps.prisma.room.findMany({
    where: { ...roomScope(ctx.actor), lockId: { not: null } },
    select: {
      id: true,
      name: true,
      lock: { select: { providerLockId: true } },
      cardKeySync: { select: { deliveryState: true, lastError: true, deliveredAt: true } },
    },
    orderBy: [{ sortOrder: 'asc' }, { name: 'asc' }, { id: 'asc' }],
  });
  return rooms.map((r) => ({
    roomId: r.id,
    roomName: r.name,
    lockId: r.lock?.providerLockId ?? '',
    deliveryState: r.cardKeySync?.deliveryState ?? 'never',
    lastError: r.cardKeySync?.lastError ?? null,
    deliveredAt: r.cardKeySync?.deliveredAt?.toISOString() ?? null,
  }));
}

/** Where each shared door of the hotel stands with its card keys (room cards name the doors their room is served by). */
export async function cardDoorKeyStates(ctx: AuthedContext): Promise<TCardDoorKeySyncDto[]> {
  requirePermission(ctx.actor, 'room.read');
  const doors = await ctx.deps.prisma.lock.findMany({
    where: { hotelId: ctx.actor.hotelId, sharedKind: { not: null } },
    select: { ...DOOR_SELECT, doorCardKeys: { select: { deliveryState: true, lastError: true, deliveredAt: true } } },
    orderBy: [{ sharedKind: 'asc' }, { alias: 'asc' }, { name: 'asc' }, { id: 'asc' }],
  });
  return doors.map((d) => ({
    lockId: d.id,
    providerLockId: d.providerLockId,
    name: lockDisplayName(d),
    kind: d.sharedKind!,
    deliveryState: d.doorCardKeys?.deliveryState ?? 'never',
    lastError: d.doorCardKeys?.lastError ?? null,
    deliveredAt: d.doorCardKeys?.deliveredAt?.toISOString() ?? null,
  }));
}

/**
 * A room newly paired with a lock (or with another one): the lock learns the hotel's card keys,
 * if the hotel has any yet (its first card makes them and sends them to every lock). True when
 * there is lock work to queue once the transaction has committed.
 */
export async function keysFollowLock(tx: Tx, hotelId: number, roomId: number, before: number | null, after: number | null | undefined): Promise<boolean> {
  if (!after || after === before) return false;
  if (!(await tx.cardEncryption.findFirst({ where: { hotelId, isActive: true }, select: { id: true } }))) return false;
  return (await queueKeySync(tx, hotelId, [roomId])) > 0;
}
