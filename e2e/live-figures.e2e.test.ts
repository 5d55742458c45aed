import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, closeRedis, launchBrowser, newContext, screenshot, signIn } from './support';
import { api, languageRuns } from './support-board';
import { attributeBecomes, checkInNow, ownRoom } from './support-money';
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

/** What the bill of the stay says is owed, from the database (the ledger's own figure). */
async function owedInLedger(stayId: number): Promise<number> {
  const [row] = await sql<{ owed: string }>(`SELECT -coalesce(sum(amount), 0) AS owed FROM "OrderEntry" WHERE "stayId" = $1 AND kind <> 'deposit'`, [stayId]);
  return Number(row!.owed);
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
    const stay = await checkInNow(roomPage, roomId, `Live ${room}`);
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
