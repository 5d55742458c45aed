import { sql } from './support-stays';
import { server } from './support';

/** The lock simulator the console runs inside itself: its control API (docs/lock-sim.md). */
export async function sim<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const base = server().lockSimUrl;
  if (!base) throw new Error('the console started no lock simulator (LOCK_PROVIDER=sim)');
  const res = await fetch(`${base}/sim${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`lock simulator ${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The provider's lock id of a demo room (the demo hotel's lock account holds one for every room, paired by name at start). */
export async function lockIdOf(room: string): Promise<string> {
  const [row] = await sql<{ providerLockId: string | null }>(
    `SELECT l."providerLockId" FROM "Room" r JOIN "Lock" l ON l."hotelId" = r."hotelId" AND l.id = r."lockId" WHERE r.name = $1 AND r."deletedAt" IS NULL`,
    [room],
  );
  if (!row?.providerLockId) throw new Error(`room ${room} has no lock`);
  return row.providerLockId;
}

/**
 * A new simulated lock (behind the first gateway, or the one given) in the demo hotel's lock
 * account, as "Get locks" would bring it in, not paired with a room: its row id and its lock id.
 */
export async function demoLock(name: string, options: { gatewayId?: number } = {}): Promise<{ id: number; hotelId: number; lockId: string }> {
  const [demo] = await sql<{ hotelId: number; accountId: number }>(
    `SELECT r."hotelId", l."accountId" FROM "Room" r JOIN "Lock" l ON l."hotelId" = r."hotelId" AND l.id = r."lockId" WHERE r.name = '101' AND r."deletedAt" IS NULL`,
  );
  const { gateways } = await sim<{ gateways: { gatewayId: number; name?: string; gatewayName?: string }[] }>('GET', '/gateways');
  const gateway = options.gatewayId === undefined ? gateways[0]! : gateways.find((g) => g.gatewayId === options.gatewayId)!;
  const { lock } = await sim<{ lock: { lockId: number; lockName: string; lockAlias: string; lockMac: string } }>('POST', '/locks', {
    name,
    gatewayIds: [gateway.gatewayId],
  });
  // The row an import of it would write: a simulated lock has a keypad, a card reader and a face
  // module unless told otherwise (apps/lock-sim featureValueOf), and the room page offers what it takes.
  const [row] = await sql<{ id: number }>(
    `INSERT INTO "Lock" ("hotelId", "accountId", provider, "providerLockId", name, alias, mac, simulated, online, "gatewayId", "gatewayName", "gatewayOnline",
                         "hasKeypad", "hasCardReader", "hasFaceModule", "importedAt", "updatedAt")
     VALUES ($1, $2, 'ttlock', $3, $4, $5, $6, true, true, $7, $8, true, true, true, true, now(), now()) RETURNING id`,
    [
      demo!.hotelId,
      demo!.accountId,
      String(lock.lockId),
      lock.lockName,
      lock.lockAlias,
      lock.lockMac,
      String(gateway.gatewayId),
      gateway.gatewayName ?? gateway.name ?? '',
    ],
  );
  return { id: row!.id, hotelId: demo!.hotelId, lockId: String(lock.lockId) };
}

/**
 * A new room of the demo hotel with a simulated lock of its own (behind the first gateway, or the
 * one given), in the demo hotel's lock account as "Get locks" would bring it in, paired with the
 * room: a test that changes a room's stays and credentials touches no other test's.
 */
export async function pairedRoom(name: string, options: { gatewayId?: number; sortOrder?: number } = {}): Promise<{ roomId: number; lockId: string }> {
  const lock = await demoLock(`Room ${name}`, options);
  const [room] = await sql<{ id: number }>(
    `INSERT INTO "Room" ("hotelId", name, "sortOrder", "usualPrice", "lockId", "updatedAt") VALUES ($1, $2, $3, 20000, $4, now()) RETURNING id`,
    [lock.hotelId, name, options.sortOrder ?? 900, lock.id],
  );
  return { roomId: room!.id, lockId: lock.lockId };
}

/** A room of the demo hotel without a lock (made once per run of the suite). */
export async function roomWithoutLock(name: string): Promise<number> {
  const [found] = await sql<{ id: number }>(`SELECT id FROM "Room" WHERE name = $1 AND "deletedAt" IS NULL`, [name]);
  if (found) return found.id;
  const [demo] = await sql<{ hotelId: number }>(`SELECT "hotelId" FROM "Room" WHERE name = '101' AND "deletedAt" IS NULL`);
  const [room] = await sql<{ id: number }>(
    `INSERT INTO "Room" ("hotelId", name, "sortOrder", "usualPrice", "cleanStatus", "updatedAt") VALUES ($1, $2, 970, 20000, 'clean', now()) RETURNING id`,
    [demo!.hotelId, name],
  );
  return room!.id;
}
