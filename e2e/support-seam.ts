import { inject } from 'vitest';
import { sql } from './support-stays';

/**
 * Seam in the browser tests (lock-accounts-seam.e2e.test.ts): OUR control of Seam's fake, started by
 * e2e/global-setup.ts, and the rows the server leaves for a Seam account and its codes.
 */

/** A Seam account of the demo hotel as the server leaves one whose key Seam refused later. */
export async function refusedSeamAccount(header: string): Promise<{ id: number; username: string }> {
  const [demo] = await sql<{ hotelId: number }>(`SELECT "hotelId" FROM "Room" WHERE name = '101' AND "deletedAt" IS NULL`);
  const username = `e2e_ws_${header}_${Date.now()}`;
  const [row] = await sql<{ id: number }>(
    `INSERT INTO "LockAccount" ("hotelId", provider, kind, username, label, state, "lastError", "connectedAt", "updatedAt")
     VALUES ($1, 'seam', 'seam', $2, $3, 'needs_password', 'auth_failed', now(), now()) RETURNING id`,
    [demo!.hotelId, username, `Annex ${header}`],
  );
  return { id: row!.id, username };
}

/** A column of a password row, as the server left it. */
export async function passwordColumn(id: number, column: 'providerRef' | 'code'): Promise<string> {
  const [row] = await sql<Record<string, string>>(`SELECT "${column}" AS value FROM "LockPassword" WHERE id = $1`, [id]);
  return row!.value!;
}

/** OUR control of Seam's fake (apps/server/src/test/seam-fake-server.mjs): a workspace, a device, a code's state. */
export async function seam<T>(route: string, body: unknown): Promise<T> {
  const response = await fetch(`${inject('seamFake').controlUrl}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`Seam's fake ${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}
