import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { api } from './support-board';
import { sql } from './support-stays';

/**
 * What the money files share (live-figures, workday-shifts, workday-with-reports): a room of the
 * file's own, a guest checked in there now, and waiting for a figure on the screen to follow.
 */

/** Within two seconds a person waiting at the desk notices, with a margin for a loaded CI machine. */
const LIVE_MS = 5_000;

/** A room of a file's own in the demo hotel, without a lock (a bill needs none), made on first use. */
export async function ownRoom(name: string): Promise<number> {
  const [found] = await sql<{ id: number }>(`SELECT id FROM "Room" WHERE name = $1 AND "deletedAt" IS NULL`, [name]);
  if (found) return found.id;
  const [demo] = await sql<{ hotelId: number }>(`SELECT "hotelId" FROM "Room" WHERE name = '101' AND "deletedAt" IS NULL`);
  const [room] = await sql<{ id: number }>(
    `INSERT INTO "Room" ("hotelId", name, "sortOrder", "usualPrice", "updatedAt") VALUES ($1, $2, 990, 29900, now()) RETURNING id`,
    [demo!.hotelId, name],
  );
  return room!.id;
}

/** A guest checked in ten minutes ago for a day, through the signed-in page's session (the room's price, no deposit). */
export function checkInNow(page: Page, roomId: number, guest: string) {
  const start = new Date(Date.now() - 10 * 60_000);
  return api<{ id: number; priceAmount: number }>(
    page,
    'stay.checkIn',
    {
      roomId,
      checkInAt: start.toISOString(),
      expectedCheckOutAt: new Date(start.getTime() + 24 * 3_600_000).toISOString(),
      guests: [{ name: guest }],
      idempotencyKey: randomUUID(),
      acknowledge: ['room_dirty', 'guest_in_other_room'],
    },
    'mutation',
  );
}

/** Waits until an attribute of the first element matching `selector` has `value`, without reloading the page. */
export async function attributeBecomes(page: Page, selector: string, name: string, value: string | number, timeout = LIVE_MS) {
  await page.waitForFunction(
    ({ selector, name, value }) => document.querySelector(selector)?.getAttribute(name) === value,
    { selector, name, value: String(value) },
    { timeout },
  );
}
