import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, closeRedis, launchBrowser, newContext, screenshot, signIn } from './support';
import { api, languageRuns } from './support-board';
import { closeSql, sql } from './support-stays';

/**
 * One truth for money (issue 26 §1): the room page and the board open side by side in two tabs,
 * and every change that moves the bill, made in one of them or somewhere else entirely (another
 * signed-in browser), shows in both without a reload: the domain events reach each tab over its
 * one live feed (docs/events.md) and the tab refreshes what they name. Rooms 971-973 are this file's.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await closeRedis();
  await closeSql();
});

const RUNS = languageRuns(
  [
    { code: 'chs', header: 'zh-CN', room: '971' },
    { code: 'en', header: 'en', room: '972' },
    { code: 'Arabic', header: 'ar', room: '973' },
  ] as const,
  import.meta.url,
);

/** Within two seconds a person waiting at the desk notices, with a margin for a loaded CI machine. */
const LIVE_MS = 5_000;

/** A room of this file, without a lock (a bill needs none), free for a new stay. */
async function ownRoom(name: string): Promise<number> {
  const [found] = await sql<{ id: number }>(`SELECT id FROM "Room" WHERE name = $1 AND "deletedAt" IS NULL`, [name]);
  if (found) return found.id;
  const [demo] = await sql<{ hotelId: number }>(`SELECT "hotelId" FROM "Room" WHERE name = '101' AND "deletedAt" IS NULL`);
  const [room] = await sql<{ id: number }>(
    `INSERT INTO "Room" ("hotelId", name, "sortOrder", "usualPrice", "updatedAt") VALUES ($1, $2, 990, 29900, now()) RETURNING id`,
    [demo!.hotelId, name],
  );
  return room!.id;
}

/** What the bill of the stay says is owed, from the database (the ledger's own figure). */
async function owedInLedger(stayId: number): Promise<number> {
  const [row] = await sql<{ owed: string }>(`SELECT -coalesce(sum(amount), 0) AS owed FROM "OrderEntry" WHERE "stayId" = $1 AND kind <> 'deposit'`, [stayId]);
  return Number(row!.owed);
}

/** Waits until an attribute of the first element matching `selector` has `value`, without reloading the page. */
async function attributeBecomes(page: Page, selector: string, name: string, value: number) {
  await page.waitForFunction(
    ({ selector, name, value }) => document.querySelector(selector)?.getAttribute(name) === value,
    { selector, name, value: String(value) },
    { timeout: LIVE_MS },
  );
}

describe.each(RUNS)('live figures in $header', ({ code, header, room }) => {
  let desk: BrowserContext;
  let elsewhere: BrowserContext;
  let roomPage: Page;
  let board: Page;
  let other: Page;
  beforeAll(async () => {
    desk = await newContext(browser, { language: code });
    roomPage = await desk.newPage();
    await signIn(roomPage, DEMO_OWNER);
    board = await desk.newPage();
    elsewhere = await newContext(browser, { language: code });
    other = await elsewhere.newPage();
    await signIn(other, DEMO_OWNER);
  });
  afterAll(async () => {
    await desk?.close();
    await elsewhere?.close();
  });

  it(`keeps the room page and the board of ${room} on the ledger's figure through a renewal here and a payment made elsewhere`, async () => {
    const roomId = await ownRoom(room);
    const start = new Date(Date.now() - 10 * 60_000);
    const stay = await api<{ id: number; priceAmount: number }>(
      roomPage,
      'stay.checkIn',
      {
        roomId,
        checkInAt: start.toISOString(),
        expectedCheckOutAt: new Date(start.getTime() + 24 * 3_600_000).toISOString(),
        guests: [{ name: `Live ${room}` }],
        idempotencyKey: randomUUID(),
        acknowledge: ['room_dirty', 'guest_in_other_room'],
      },
      'mutation',
    );
    const owed = await owedInLedger(stay.id);
    expect(owed).toBe(stay.priceAmount);

    await roomPage.goto(`${baseUrl()}/room/${roomId}`);
    await roomPage.getByTestId('stay-folio').waitFor();
    await attributeBecomes(roomPage, '[data-testid="stay-folio"]', 'data-balance', -owed);
    await board.goto(`${baseUrl()}/room?search=${room}`);
    await attributeBecomes(board, `[data-testid="room-due-${room}"]`, 'data-owed', owed);

    // Renewed by one night on the room page: the board, in the other tab, follows without a reload.
    await roomPage.getByTestId('action-renew').click();
    await roomPage.getByTestId('renew-dialog').waitFor();
    await roomPage.getByTestId('renew-plusDay').click();
    await roomPage.getByTestId('renew-nights').waitFor();
    await roomPage.getByTestId('renew-quote').getByText(/\d/).first().waitFor();
    await roomPage.getByTestId('renew-submit').click();
    await roomPage.getByTestId('renew-dialog').waitFor({ state: 'detached' });
    const renewed = await owedInLedger(stay.id);
    expect(renewed).toBeGreaterThan(owed);
    await attributeBecomes(board, `[data-testid="room-due-${room}"]`, 'data-owed', renewed);
    await attributeBecomes(roomPage, '[data-testid="stay-folio"]', 'data-balance', -renewed);
    await screenshot(board, `live-board-after-renewal-${header}`);

    // A payment recorded elsewhere (another browser, another session): both tabs follow.
    const paid = 10_000;
    await api(other, 'order.recordPayment', { stayId: stay.id, amount: paid, method: 'cash', note: '', requestId: randomUUID() }, 'mutation');
    expect(await owedInLedger(stay.id)).toBe(renewed - paid);
    await attributeBecomes(roomPage, '[data-testid="stay-folio"]', 'data-balance', -(renewed - paid));
    await attributeBecomes(board, `[data-testid="room-due-${room}"]`, 'data-owed', renewed - paid);
    await screenshot(roomPage, `live-room-after-payment-elsewhere-${header}`);
  });
});
