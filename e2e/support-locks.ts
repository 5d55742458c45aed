import { inject } from 'vitest';
import { sql } from './support-stays';

/** The lock simulator the console runs inside itself: its control API (docs/lock-sim.md). */
export async function sim<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const base = inject('lockSimUrl');
  if (!base) throw new Error('the console started no lock simulator (LOCK_PROVIDER=sim)');
  const res = await fetch(`${base}/sim${path}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) throw new Error(`lock simulator ${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The provider's lock id of a demo room (the console paired every one with a simulated lock). */
export async function lockIdOf(room: string): Promise<string> {
  const [row] = await sql<{ lockId: string | null }>(`SELECT "lockId" FROM "Room" WHERE name = $1 AND "deletedAt" IS NULL`, [room]);
  if (!row?.lockId) throw new Error(`room ${room} has no lock`);
  return row.lockId;
}

/**
 * A new room of the demo hotel with a simulated lock of its own (behind the first gateway), as an
 * installer would pair it: a test that changes a room's stays and credentials touches no other test's.
 */
export async function pairedRoom(name: string): Promise<{ roomId: number; lockId: string }> {
  const [demo] = await sql<{ hotelId: number }>(`SELECT "hotelId" FROM "Room" WHERE name = '101' AND "deletedAt" IS NULL`);
  const { gateways } = await sim<{ gateways: { gatewayId: number }[] }>('GET', '/gateways');
  const { lock } = await sim<{ lock: { lockId: number } }>('POST', '/locks', { name: `Room ${name}`, gatewayIds: [gateways[0]!.gatewayId] });
  const [room] = await sql<{ id: number }>(
    `INSERT INTO "Room" ("hotelId", name, "sortOrder", "usualPrice", "lockId", "updatedAt") VALUES ($1, $2, 900, 20000, $3, now()) RETURNING id`,
    [demo!.hotelId, name, String(lock.lockId)],
  );
  return { roomId: room!.id, lockId: String(lock.lockId) };
}
