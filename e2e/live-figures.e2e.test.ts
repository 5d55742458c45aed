import { createHash, randomBytes, randomUUID } from 'node:crypto';
import CryptoJS from 'crypto-js';
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
 * one live feed (docs/events.md) and the tab refreshes what they name: a renewal, a payment, a
 * payment from a legacy client, a charge posted and corrected, the stay moved to another room. Rooms 971-976
 * are this file's.
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
    { code: 'chs', header: 'zh-CN', room: '971', movedTo: '974' },
    { code: 'en', header: 'en', room: '972', movedTo: '975' },
    { code: 'Arabic', header: 'ar', room: '973', movedTo: '976' },
  ] as const,
  import.meta.url,
);

/** What the bill of the stay says is owed, from the database (the ledger's own figure): its folio's entries, which follow the guest to another room. */
async function owedInLedger(stayId: number): Promise<number> {
  const [row] = await sql<{ owed: string }>(
    `SELECT -coalesce(sum(amount), 0) AS owed FROM "OrderEntry" WHERE "folioId" IN (SELECT "folioId" FROM "OrderEntry" WHERE "stayId" = $1) AND kind <> 'deposit'`,
    [stayId],
  );
  return Number(row!.owed);
}

/** A payment recorded by a legacy `/manage/*` client (crypto-js DES envelope, the test server's development key), as the demo owner. */
async function legacyPayment(stayId: number, amountMajor: number) {
  const token = randomBytes(24).toString('base64url');
  await sql(
    `INSERT INTO "Session" ("tokenHash", kind, "accountId", "hotelId", "expiresAt")
     SELECT $1, 'legacy', a.id, m."hotelId", now() + interval '1 hour' FROM "Account" a JOIN "Membership" m ON m."accountId" = a.id WHERE a.mobile = $2`,
    [createHash('sha256').update(token).digest('hex'), DEMO_OWNER.account],
  );
  const key = CryptoJS.enc.Utf8.parse('slDevK01');
  const iv = CryptoJS.enc.Utf8.parse('slDevIv1');
  const options = { iv, mode: CryptoJS.mode.CBC, padding: CryptoJS.pad.Pkcs7 };
  const data = CryptoJS.DES.encrypt(JSON.stringify({ stay_id: stayId, amount: amountMajor, pay_type: 'wechat', action: 'manage' }), key, options).toString();
  const res = await fetch(`${baseUrl()}/manage/order/setCashData`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-token': token, language: 'en' },
    body: new URLSearchParams({ data, language: 'en' }).toString(),
  });
  const answer = JSON.parse(CryptoJS.DES.decrypt(await res.text(), key, options).toString(CryptoJS.enc.Utf8)) as { errno: number; errmsg: string };
  expect(answer.errno, answer.errmsg).toBe(0);
}

describe.each(RUNS)('live figures in $header', ({ code, header, room, movedTo }) => {
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

  it(`keeps the room page and the board of ${room} on the ledger's figure through a renewal here, payments elsewhere and from a legacy client, a charge and its correction, and a room change`, async () => {
    const roomId = await ownRoom(room);
    const targetId = await ownRoom(movedTo);
    const guest = `Live ${room}`;
    const stay = await checkInNow(roomPage, roomId, guest);
    const owed = await owedInLedger(stay.id);
    expect(owed).toBe(stay.priceAmount);

    await roomPage.goto(`${baseUrl()}/room/${roomId}`);
    await roomPage.getByTestId('stay-folio').waitFor();
    await attributeBecomes(roomPage, '[data-testid="stay-folio"]', 'data-balance', -owed);
    // The board searched by the guest's name: it finds the guest's room, wherever the stay is moved.
    await board.goto(`${baseUrl()}/room?search=${encodeURIComponent(guest)}`);
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

    // A payment from a legacy client, from outside the console altogether.
    await legacyPayment(stay.id, 50);
    const afterLegacy = renewed - paid - 5_000;
    expect(await owedInLedger(stay.id)).toBe(afterLegacy);
    await attributeBecomes(roomPage, '[data-testid="stay-folio"]', 'data-balance', -afterLegacy);
    await attributeBecomes(board, `[data-testid="room-due-${room}"]`, 'data-owed', afterLegacy);

    // Re-priced elsewhere: a charge posted on the bill, then corrected away (the room charge itself follows the stay).
    const charge = await api<{ entry: { id: number } }>(
      other,
      'order.recordCharge',
      { stayId: stay.id, amount: 1_500, note: 'Minibar', requestId: randomUUID() },
      'mutation',
    );
    const charged = afterLegacy + 1_500;
    expect(await owedInLedger(stay.id)).toBe(charged);
    await attributeBecomes(roomPage, '[data-testid="stay-folio"]', 'data-balance', -charged);
    await attributeBecomes(board, `[data-testid="room-due-${room}"]`, 'data-owed', charged);
    await api(other, 'order.correct', { entryId: charge.entry.id, reason: 'Not taken' }, 'mutation');
    expect(await owedInLedger(stay.id)).toBe(afterLegacy);
    await attributeBecomes(roomPage, '[data-testid="stay-folio"]', 'data-balance', -afterLegacy);
    await attributeBecomes(board, `[data-testid="room-due-${room}"]`, 'data-owed', afterLegacy);

    // Moved to another room elsewhere: the board shows the bill on the new room's tile, none on the old one.
    await api(other, 'stay.changeRoom', { stayId: stay.id, targetRoomId: targetId, upgrade: 'charge' }, 'mutation');
    const owedAfterMove = await owedInLedger(stay.id);
    await attributeBecomes(board, `[data-testid="room-due-${movedTo}"]`, 'data-owed', owedAfterMove);
    await board.locator(`[data-testid="room-due-${room}"]`).waitFor({ state: 'detached', timeout: 5_000 });
    await roomPage.getByTestId('stay-folio').waitFor({ state: 'detached', timeout: 5_000 });
    await screenshot(board, `live-board-after-room-change-${header}`);
    await screenshot(roomPage, `live-room-after-room-change-${header}`);
  });
});
