import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, checkA11y, closeRedis, launchBrowser, newContext, screenshot, signIn } from './support';
import { api, languageRuns } from './support-board';
import { pairedRoom, sim } from './support-locks';
import { closeSql, sql, text } from './support-stays';

/**
 * The guest's key page (issue 20 §4, docs/key-page.md) on a phone in Chinese and Arabic: the desk
 * checks a guest in with a door code and finds the key page link on the stay card; the guest opens
 * the link on a phone (390×844), sees the code the lock confirmed, presses "open the door now", and
 * the simulator's lock is opened through its gateway. Rooms KP-zh and KP-ar are this file's own.
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

const RUNS = [
  { header: 'zh-CN', room: 'KP-zh', pin: '472615' },
  { header: 'ar', room: 'KP-ar', pin: '583726' },
] as const;

describe.each(languageRuns(RUNS, import.meta.url))('the key page in $header', ({ header, room, pin }) => {
  let desk: BrowserContext;
  let deskPage: Page;
  let phone: BrowserContext;
  beforeAll(async () => {
    desk = await newContext(browser, { language: 'en' });
    deskPage = await desk.newPage();
    await signIn(deskPage, DEMO_OWNER);
    phone = await newContext(browser, { width: 390, height: 844 });
  });
  afterAll(async () => {
    await desk?.close();
    await phone?.close();
  });

  it('shows the code the lock confirmed and opens the door', async () => {
    const { roomId, lockId } = await pairedRoom(room);
    const stay = await api<{ id: number }>(
      deskPage,
      'stay.checkIn',
      {
        roomId,
        checkInAt: new Date(Date.now() - 60_000).toISOString(),
        expectedCheckOutAt: new Date(Date.now() + 26 * 3_600_000).toISOString(),
        guests: [{ name: header === 'ar' ? 'سلمى ناصر' : '林小雨', mobile: header === 'ar' ? '+966501230001' : '13700003001' }],
        idempotencyKey: randomUUID(),
      },
      'mutation',
    );
    await api(deskPage, 'password.create', { roomId, stayId: stay.id, kind: 'custom', code: pin }, 'mutation');
    await expect
      .poll(async () => (await sql<{ deliveryState: string }>(`SELECT "deliveryState" FROM "LockPassword" WHERE "stayId" = $1`, [stay.id]))[0]?.deliveryState, {
        timeout: 20_000,
      })
      .toBe('on_lock');

    // The desk: the stay card shows the link (made on demand here) with copy and revoke-and-renew.
    // By its address: in the full run the board holds many rooms, and this one may not be on its first page.
    await deskPage.goto(`${baseUrl()}/room/${roomId}`);
    await deskPage.getByTestId('room-detail').waitFor();
    const card = deskPage.getByTestId('stay-key-page');
    await card.waitFor();
    if (await card.getByTestId('stay-key-page-make').isVisible()) await card.getByTestId('stay-key-page-make').click();
    const link = card.getByTestId('stay-key-page-link');
    await link.waitFor();
    const first = (await link.textContent()) ?? '';
    expect(first).toMatch(/\/k\/[A-Za-z0-9_-]{43}$/);
    await card.getByTestId('stay-key-page-renew').click();
    await deskPage.getByTestId('stay-key-page-renew-confirm').click();
    await expect.poll(async () => (await link.textContent()) ?? '').not.toBe(first);
    const address = new URL((await link.textContent()) ?? '').pathname;

    // The old link answers the one 404 page.
    const old = await phone.newPage();
    const oldAnswer = await old.goto(`${baseUrl()}${new URL(first).pathname}`);
    expect(oldAnswer?.status()).toBe(404);
    await old.close();

    // The guest's phone, in the guest's language.
    const page = await phone.newPage();
    await page.goto(`${baseUrl()}${address}?lang=${header}`);
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([header, header === 'ar' ? 'rtl' : 'ltr']);
    expect(await page.getByTestId('key-code').textContent()).toBe(pin);
    await page.getByRole('heading', { name: text(header, 'keyPage.title') }).waitFor();
    await checkA11y(page, `key-page-${header}`);
    await screenshot(page, `key-page-${header}`);

    const since = Date.now();
    await page.getByRole('button', { name: text(header, 'keyPage.openDoor') }).click();
    await page
      .getByRole('status')
      .filter({ hasText: text(header, 'keyPage.opened') })
      .waitFor();
    await expect
      .poll(async () => {
        const { calls } = await sim<{ calls: { path: string; lockId?: number | string; errcode: number }[] }>('GET', `/calls?since=${since}`);
        return calls.some((c) => c.path === 'lock/unlock' && String(c.lockId) === lockId && c.errcode === 0);
      })
      .toBe(true);
    const audits = await sql<{ actorType: string }>(`SELECT "actorType" FROM "AuditLog" WHERE action = 'lock.openByGuestLink' AND "entityId" = $1`, [
      String(roomId),
    ]);
    expect(audits.map((a) => a.actorType)).toEqual(['key_link']);
    await screenshot(page, `key-page-opened-${header}`);
  });
});
