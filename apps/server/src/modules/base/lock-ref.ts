import type { TPrisma } from '../../db/client';
import { Prisma } from '../../generated/prisma/client';

/**
 * A room's lock as every lock action starts from it: the Lock row of the room's own hotel (the
 * database checks the hotel), never an id a client typed. Services select `ROOM_LOCK_SELECT` on a
 * room and hand the lock to `providerForLock` (accounts/account-provider.ts) and the adapter.
 */

export const LOCK_REF_SELECT = {
  id: true,
  hotelId: true,
  accountId: true,
  provider: true,
  providerLockId: true,
  name: true,
  alias: true,
  goneAt: true,
  gatewayId: true,
} as const;
export const ROOM_LOCK_SELECT = { lock: { select: LOCK_REF_SELECT } } as const;

export interface LockRef {
  id: number;
  hotelId: number;
  accountId: number | null;
  /** The lock cloud it is in (`ttlock`). */
  provider: string;
  /** The provider's lock id (TTLock lockId): what the adapter is given, and what legacy clients see as `lock_id`. */
  providerLockId: string;
  name: string;
  alias: string;
  goneAt: Date | null;
  gatewayId: string | null;
}

/** The name people know a lock by: its name in the lock app, else its Bluetooth name. */
export function lockDisplayName(lock: { name: string; alias: string }): string {
  return lock.alias || lock.name;
}

/** A room's lock with the account it speaks through, as the delivery engine loads it. */
export interface DeliveryLock extends LockRef {
  account: AccountRow | null;
}

/**
 * The lock a credential is delivered to: a shared door's copy or card grant to the door's lock
 * (`doorLockId`, docs/shared-doors.md), any other to its room's lock. The lock and its lock account
 * in one statement (a credential's delivery reads it twice a job: a nested select would be three
 * queries). Null when the room has no lock; the composite keys keep lock and account in the hotel.
 */
export async function credentialDeliveryLock(prisma: TPrisma, hotelId: number, roomId: number, doorLockId: number | null): Promise<DeliveryLock | null> {
  return doorLockId === null ? deliveryLockWhere(prisma, hotelId, { roomId }) : deliveryLockWhere(prisma, hotelId, { lockId: doorLockId });
}

type DeliveryLockRow = LockRef & {
  a_id: number | null;
  a_kind: string | null;
  a_state: string | null;
  a_lastError: string | null;
  a_limitedUntil: Date | null;
};

/**
 * The columns of a delivery's lock and its account, prefixed (`l_`, `a_`), for a statement that
 * reads them beside the credential (`l` the Lock, `a` the LockAccount): `deliveryLockOf` maps them.
 */
export const DELIVERY_LOCK_COLUMNS = Prisma.sql`l."id" AS "l_id", l."hotelId" AS "l_hotelId", l."accountId" AS "l_accountId", l."provider" AS "l_provider",
  l."providerLockId" AS "l_providerLockId", l."name" AS "l_name", l."alias" AS "l_alias", l."goneAt" AS "l_goneAt", l."gatewayId" AS "l_gatewayId",
  a."id" AS "a_id", a."kind" AS "a_kind", a."state" AS "a_state", a."lastError" AS "a_lastError", a."limitedUntil" AS "a_limitedUntil"`;

export type DeliveryLockColumns = { [K in keyof LockRef as `l_${K}`]: LockRef[K] | null } & Omit<DeliveryLockRow, keyof LockRef>;

/** The lock of `DELIVERY_LOCK_COLUMNS`; null when there is none. */
export function deliveryLockOf(r: DeliveryLockColumns): DeliveryLock | null {
  if (r.l_id === null) return null;
  return toDeliveryLock({
    id: r.l_id,
    hotelId: r.l_hotelId!,
    accountId: r.l_accountId,
    provider: r.l_provider!,
    providerLockId: r.l_providerLockId!,
    name: r.l_name!,
    alias: r.l_alias!,
    goneAt: r.l_goneAt,
    gatewayId: r.l_gatewayId,
    a_id: r.a_id,
    a_kind: r.a_kind,
    a_state: r.a_state,
    a_lastError: r.a_lastError,
    a_limitedUntil: r.a_limitedUntil,
  });
}

function toDeliveryLock(r: DeliveryLockRow): DeliveryLock {
  return {
    id: r.id,
    hotelId: r.hotelId,
    accountId: r.accountId,
    provider: r.provider,
    providerLockId: r.providerLockId,
    name: r.name,
    alias: r.alias,
    goneAt: r.goneAt,
    gatewayId: r.gatewayId,
    account:
      r.a_id === null ? null : { id: r.a_id, hotelId: r.hotelId, kind: r.a_kind!, state: r.a_state!, lastError: r.a_lastError, limitedUntil: r.a_limitedUntil },
  };
}

async function deliveryLockWhere(prisma: TPrisma, hotelId: number, by: { roomId: number } | { lockId: number }): Promise<DeliveryLock | null> {
  const rows =
    'roomId' in by
      ? await prisma.$queryRaw<DeliveryLockRow[]>`
    SELECT l."id", l."hotelId", l."accountId", l."provider", l."providerLockId", l."name", l."alias", l."goneAt", l."gatewayId",
           a."id" AS "a_id", a."kind" AS "a_kind", a."state" AS "a_state", a."lastError" AS "a_lastError", a."limitedUntil" AS "a_limitedUntil"
      FROM "Room" r
      JOIN "Lock" l ON l."hotelId" = r."hotelId" AND l."id" = r."lockId"
      LEFT JOIN "LockAccount" a ON a."hotelId" = l."hotelId" AND a."id" = l."accountId"
     WHERE r."id" = ${by.roomId} AND r."hotelId" = ${hotelId}`
      : await prisma.$queryRaw<DeliveryLockRow[]>`
    SELECT l."id", l."hotelId", l."accountId", l."provider", l."providerLockId", l."name", l."alias", l."goneAt", l."gatewayId",
           a."id" AS "a_id", a."kind" AS "a_kind", a."state" AS "a_state", a."lastError" AS "a_lastError", a."limitedUntil" AS "a_limitedUntil"
      FROM "Lock" l
      LEFT JOIN "LockAccount" a ON a."hotelId" = l."hotelId" AND a."id" = l."accountId"
     WHERE l."id" = ${by.lockId} AND l."hotelId" = ${hotelId}`;
  const r = rows[0];
  return r ? toDeliveryLock(r) : null;
}

/** A lock account as the provider adapters need it. */
export interface AccountRow {
  id: number;
  hotelId: number;
  kind: string;
  state: string;
  lastError: string | null;
  limitedUntil: Date | null;
}

export const ACCOUNT_ROW_SELECT = { id: true, hotelId: true, kind: true, state: true, lastError: true, limitedUntil: true } as const;
