import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, closeRedis, launchBrowser, newContext, screenshot, signIn } from './support';
import { api, languageRuns } from './support-board';
import { ownRoom } from './support-money';
import { closeSql, sql, text, waitForRoomStatus } from './support-stays';

/**
 * Issue 36: a reservation holding a deposit is cancelled only once the clerk has said what becomes
 * of the money (nothing chosen for them): refunded in the way they choose, or kept as a cancellation
 * fee with the reason. The bill is closed either way, as its entries show.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await closeSql();
  await closeRedis();
});

const RUNS = [
  { code: 'chs', header: 'zh-CN', room: 'CD1' },
  { code: 'en', header: 'en', room: 'CD2' },
  { code: 'Arabic', header: 'ar', room: 'CD3' },
] as const;
const DEPOSIT = 10_000;

/** A reservation for tomorrow in `roomId` holding a cash deposit, through the page's session. */
function reserve(page: Page, roomId: number, guest: string) {
  const start = new Date(Date.now() + 24 * 3_600_000);
  return api<{ id: number }>(
    page,
    'stay.reserve',
    {
      roomId,
      checkInAt: start.toISOString(),
      expectedCheckOutAt: new Date(start.getTime() + 24 * 3_600_000).toISOString(),
      guests: [{ name: guest }],
      depositAmount: DEPOSIT,
      depositMethod: 'cash',
      idempotencyKey: randomUUID(),
    },
    'mutation',
  );
}

/** The bill's entries of a stay, as the server keeps them. */
const entriesOf = (stayId: number) =>
  sql<{ kind: string; amount: number; method: string | null; settled: boolean }>(
    `SELECT e.kind::text AS kind, e.amount, e.method::text AS method, f."settledAt" IS NOT NULL AS settled
       FROM "OrderEntry" e JOIN "Folio" f ON f.id = e."folioId" WHERE e."stayId" = $1 ORDER BY e.id`,
    [stayId],
  );

describe.each(languageRuns(RUNS, import.meta.url))('a cancelled reservation’s deposit in $header', ({ code, header, room }) => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await newContext(browser, { language: code });
    page = await context.newPage();
    await signIn(page, DEMO_OWNER);
  });
  afterAll(async () => {
    await context?.close();
  });

  /** Opens the cancel dialog of the room's reservation and waits for the question about its money. */
  async function openCancel(roomId: number) {
    await page.goto(`${baseUrl()}/room/${roomId}`);
    await page.getByTestId('action-cancel-reservation').click();
    const dialog = page.getByTestId('cancel-reservation-confirm');
    await dialog.waitFor();
    await dialog.getByTestId('cancel-deposit').waitFor();
    expect(await dialog.getByTestId('cancel-deposit').getAttribute('data-held')).toBe(String(DEPOSIT));
    await page.getByTestId('cancel-reason').selectOption('guest_request');
    // Its dismiss keeps the reservation and says so: not a third "Cancel" beside "Cancel reservation".
    expect((await dialog.getByTestId('form-dialog-cancel').innerText()).trim()).toBe(text(header, 'reservations.cancel.keep'));
    return dialog;
  }

  it(`refunds the deposit of room ${room} the way the clerk chooses, then keeps the next one with a reason`, async () => {
    const roomId = await ownRoom(room);
    const first = await reserve(page, roomId, `Refund ${room}`);
    let dialog = await openCancel(roomId);
    // Nothing is decided for the clerk: without a choice the dialog asks, and nothing is cancelled.
    expect(await page.getByTestId('cancel-deposit-refund').isChecked()).toBe(false);
    expect(await page.getByTestId('cancel-deposit-keep').isChecked()).toBe(false);
    await page.getByTestId('cancel-reservation-submit').click();
    await dialog.getByTestId('cancel-deposit-error').getByText(text(header, 'validation.depositDecisionInvalid')).waitFor();
    await page.getByTestId('cancel-deposit-refund').check();
    await page.getByTestId('cancel-reservation-submit').click();
    await dialog.getByText(text(header, 'validation.refundMethodRequired')).waitFor();
    expect((await sql<{ status: string }>(`SELECT status::text AS status FROM "Stay" WHERE id = $1`, [first.id]))[0]?.status).toBe('reserved');
    await page.getByTestId('cancel-refund-method').selectOption('wechat');
    // The answer clears the question it answers.
    await dialog.getByText(text(header, 'validation.refundMethodRequired')).waitFor({ state: 'detached' });
    await screenshot(page, `cancel-deposit-refund-${header}`);
    await page.getByTestId('cancel-reservation-submit').click();
    await dialog.waitFor({ state: 'detached' });
    await waitForRoomStatus(page, 'vacant');
    expect(await entriesOf(first.id)).toEqual([
      { kind: 'deposit', amount: DEPOSIT, method: 'cash', settled: true },
      { kind: 'refund', amount: -DEPOSIT, method: 'wechat', settled: true },
    ]);

    const second = await reserve(page, roomId, `Keep ${room}`);
    dialog = await openCancel(roomId);
    await page.getByTestId('cancel-deposit-keep').check();
    await page.getByTestId('cancel-reservation-submit').click();
    await dialog.getByText(text(header, 'validation.depositReasonRequired')).waitFor();
    await page.getByTestId('cancel-deposit-reason').fill('Late cancellation');
    await screenshot(page, `cancel-deposit-keep-${header}`);
    await page.getByTestId('cancel-reservation-submit').click();
    await dialog.waitFor({ state: 'detached' });
    const kept = await entriesOf(second.id);
    expect(kept.every((e) => e.settled)).toBe(true);
    expect(kept.some((e) => e.kind === 'refund')).toBe(false);
    expect(kept.reduce((sum, e) => sum + e.amount, 0)).toBe(0);
  });
});
