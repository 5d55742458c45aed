import { createHash } from 'node:crypto';
import { generateHotelCardKeys, parseHotelCardKeys, type CardKeyEntry, type HotelCardKeys } from '@console/card-format';
import type { TPrisma } from '../../db/client';
import type { Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { seal, unseal, type SealPurpose } from '../../infra/seal';

/**
 * A hotel's card key sets at rest (docs/card-format.md): each set (sector keys, DES key and IV,
 * MAC key) is kept as AES-256-GCM under a key derived from CARD_KEY_SECRET (infra/seal.ts), bound to its hotel,
 * so a row copied to another hotel does not open. Nothing here ever leaves the server except
 * through `lockKeyEntries` (to a lock, through the gateway) and `encodeCard` (block data).
 */

const CARD_KEYS: SealPurpose = { salt: 'smart-lock-console/card-keys', info: 'card key set v1' };

/** The key set sealed for the database: `v1.<iv>.<tag>.<ciphertext>` (base64url), bound to the hotel. */
export function sealKeys(secret: string, hotelId: number, keys: HotelCardKeys): string {
  return seal(secret, CARD_KEYS, `hotel:${hotelId}`, JSON.stringify(keys));
}

/** Thrown when a sealed key set cannot be opened: another CARD_KEY_SECRET, another hotel, or altered. */
export class CardKeysUnreadable extends Error {
  constructor(readonly keyId: number) {
    super(`card key set ${keyId} cannot be read with this CARD_KEY_SECRET`);
    this.name = 'CardKeysUnreadable';
  }
}

export function openKeys(secret: string, hotelId: number, keyId: number, sealed: string): HotelCardKeys {
  const json = unseal(secret, CARD_KEYS, `hotel:${hotelId}`, sealed);
  if (json === null) throw new CardKeysUnreadable(keyId);
  try {
    return parseHotelCardKeys(JSON.parse(json));
  } catch {
    throw new CardKeysUnreadable(keyId);
  }
}

/** What tells key sets apart on screen without showing them: 12 hex of the SHA-256 of key A. */
export function keyFingerprint(keys: HotelCardKeys): string {
  return createHash('sha256').update(keys.sectorKeyA, 'utf8').digest('hex').slice(0, 12).toUpperCase();
}

/** A new random key set, sealed, as the row to insert. */
export function newKeySetRow(secret: string, hotelId: number, sector?: number): { sector: number; keysEncrypted: string; fingerprint: string } {
  const keys = generateHotelCardKeys({ sector });
  return { sector: keys.sector, keysEncrypted: sealKeys(secret, hotelId, keys), fingerprint: keyFingerprint(keys) };
}

/** The hotel's tag on its cards and locks (docs/card-format.md): its id. */
export const hotelTagOf = (hotelId: number): number => hotelId;

/** A lock holds at most this many key sets (the simulator's and the format's limit). */
export const MAX_KEY_SETS_ON_LOCK = 8;

/** The active key set of a hotel, opened; null when it has none yet. */
export async function activeKeySet(db: TPrisma | Tx, secret: string, hotelId: number): Promise<{ id: number; keys: HotelCardKeys } | null> {
  const row = await db.cardEncryption.findFirst({ where: { hotelId, isActive: true }, select: { id: true, keysEncrypted: true } });
  return row ? { id: row.id, keys: openKeys(secret, hotelId, row.id, row.keysEncrypted) } : null;
}

/**
 * The key sets a hotel's locks must hold, as the card format takes them: the active one first,
 * then retired ones whose cards have not all expired (`keepUntil` ahead, or null: a card without
 * an end), newest first, at most MAX_KEY_SETS_ON_LOCK.
 */
export async function lockKeyEntries(db: TPrisma | Tx, secret: string, hotelId: number, now = new Date()): Promise<CardKeyEntry[]> {
  const rows = await db.cardEncryption.findMany({
    where: { hotelId, OR: [{ isActive: true }, { keepUntil: null }, { keepUntil: { gt: now } }] },
    select: { id: true, keysEncrypted: true, isActive: true, keepUntil: true },
    orderBy: [{ isActive: 'desc' }, { id: 'desc' }],
    take: MAX_KEY_SETS_ON_LOCK,
  });
  return rows.map((r) => ({ id: String(r.id), keys: openKeys(secret, hotelId, r.id, r.keysEncrypted), validUntil: r.isActive ? null : r.keepUntil }));
}

/**
 * A shared door's number on cards (docs/card-format.md version 2), given now if it has none: the
 * hotel's next free one (1-65535). Serialised per hotel like lock numbers; the unique index is the
 * last word. Door numbers are their own series: a card names its room and its doors apart.
 */
export async function ensureDoorNumber(tx: Tx, hotelId: number, lockId: number): Promise<number> {
  const [current] = await tx.$queryRaw<{ doorNumber: number | null }[]>`SELECT "doorNumber" FROM "Lock" WHERE "hotelId" = ${hotelId} AND "id" = ${lockId}`;
  if (!current) throw new AppError('NOT_FOUND', { messageKey: 'sharedDoors.errors.lockNotFound' });
  if (current.doorNumber !== null) return current.doorNumber;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('Lock.doorNumber'), ${hotelId})`;
  const [assigned] = await tx.$queryRaw<{ doorNumber: number }[]>`
    UPDATE "Lock" SET "doorNumber" = COALESCE("doorNumber", (SELECT COALESCE(MAX("doorNumber"), 0) + 1 FROM "Lock" WHERE "hotelId" = ${hotelId}))
    WHERE "hotelId" = ${hotelId} AND "id" = ${lockId}
    RETURNING "doorNumber"`;
  return assigned!.doorNumber;
}

/**
 * The room's number on cards and its lock, given now if it has none: the hotel's next free one
 * (1-65535). Serialised per hotel by a transaction-scoped advisory lock, so two rooms never get
 * the same number (the unique index is the last word).
 */
export async function ensureLockNumber(tx: Tx, hotelId: number, roomId: number): Promise<number> {
  const [current] = await tx.$queryRaw<{ lockNumber: number | null }[]>`SELECT "lockNumber" FROM "Room" WHERE "hotelId" = ${hotelId} AND "id" = ${roomId}`;
  if (!current) throw new AppError('NOT_FOUND', { messageKey: 'frontDesk.errors.roomNotFound' });
  if (current.lockNumber !== null) return current.lockNumber;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('Room.lockNumber'), ${hotelId})`;
  const [assigned] = await tx.$queryRaw<{ lockNumber: number }[]>`
    UPDATE "Room" SET "lockNumber" = COALESCE("lockNumber", (SELECT COALESCE(MAX("lockNumber"), 0) + 1 FROM "Room" WHERE "hotelId" = ${hotelId}))
    WHERE "hotelId" = ${hotelId} AND "id" = ${roomId}
    RETURNING "lockNumber"`;
  return assigned!.lockNumber;
}
