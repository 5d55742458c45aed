import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, checkA11y, closeRedis, launchBrowser, newContext, screenshot, signIn } from './support';
import { api, languageRuns } from './support-board';
import { demoLock, pairedRoom, sim } from './support-locks';
import { closeSql, sql, text } from './support-stays';

/**
 * The guest's key page (issue 20 §4, issue 27 §10, docs/key-page.md) on a phone in Chinese, English
 * and Arabic: the desk checks a guest in with a door code and finds the key page link on the stay
 * card; the guest opens the link on a phone (390×844), sees the code the lock confirmed and the
 * hotel's address as it is written (isolated inside the Arabic page), and one button per door named
 * by its door, the room's first; the entrance's button opens the entrance's simulated lock (and not
 * the room's), the room's the room's. This console has no PUBLIC_URL: the Guest messages page says
 * that messages carry no key page link. Rooms KP-zh, KP-en and KP-ar and their entrances are this
 * file's own.
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
  { code: 'chs', header: 'zh-CN', room: 'KP-zh', pin: '472615', guest: '林小雨', mobile: '13700003001' },
  { code: 'en', header: 'en', room: 'KP-en', pin: '694728', guest: 'Nora Quinn', mobile: '+447700900301' },
  { code: 'Arabic', header: 'ar', room: 'KP-ar', pin: '583726', guest: 'سلمى ناصر', mobile: '+966501230001' },
] as const;

type UnlockCall = { path: string; lockId?: number | string; errcode: number };
const unlocksSince = async (since: number) =>
  (await sim<{ calls: UnlockCall[] }>('GET', `/calls?since=${since}`)).calls
    .filter((c) => c.path === 'lock/unlock' && c.errcode === 0)
    .map((c) => String(c.lockId));

describe.each(languageRuns(RUNS, import.meta.url))('the key page in $header', ({ code, header, room, pin, guest, mobile }) => {
  let desk: BrowserContext;
  let deskPage: Page;
  let phone: BrowserContext;
  beforeAll(async () => {
    desk = await newContext(browser, { language: code });
    deskPage = await desk.newPage();
    await signIn(deskPage, DEMO_OWNER);
    phone = await newContext(browser, { width: 390, height: 844 });
  });
  afterAll(async () => {
    await desk?.close();
    await phone?.close();
  });

  it('shows the code the lock confirmed, the address as written, one named button per door, and opens the door pressed', async () => {
    const { roomId, lockId } = await pairedRoom(room);
    // The building's entrance: a shared door serving this room (set-up, docs/shared-doors.md).
    const entrance = await demoLock(`Entrance ${header}`);
    await api(deskPage, 'sharedDoor.set', { lockId: entrance.id, kind: 'entrance', roomIds: [roomId], groupIds: [] }, 'mutation');
    const stay = await api<{ id: number }>(
      deskPage,
      'stay.checkIn',
      {
        roomId,
        checkInAt: new Date(Date.now() - 60_000).toISOString(),
        expectedCheckOutAt: new Date(Date.now() + 26 * 3_600_000).toISOString(),
        guests: [{ name: guest, mobile }],
        idempotencyKey: randomUUID(),
      },
      'mutation',
    );
    await api(deskPage, 'password.create', { roomId, stayId: stay.id, kind: 'custom', code: pin }, 'mutation');
    await expect
      .poll(
        async () =>
          (await sql<{ deliveryState: string }>(`SELECT "deliveryState" FROM "LockPassword" WHERE "stayId" = $1 AND "doorLockId" IS NULL`, [stay.id]))[0]
            ?.deliveryState,
        {
          timeout: 20_000,
        },
      )
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
    const linkPath = new URL((await link.textContent()) ?? '').pathname;

    // The old link answers the one 404 page.
    const old = await phone.newPage();
    const oldAnswer = await old.goto(`${baseUrl()}${new URL(first).pathname}`);
    expect(oldAnswer?.status()).toBe(404);
    await old.close();

    // The guest's phone, in the guest's language.
    const page = await phone.newPage();
    await page.goto(`${baseUrl()}${linkPath}?lang=${header}`);
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([header, header === 'ar' ? 'rtl' : 'ltr']);
    expect(await page.getByTestId('key-code').textContent()).toBe(pin);
    await page.getByRole('heading', { name: text(header, 'keyPage.title') }).waitFor();

    // One button per door, named by its door (its accessible name is what it shows), the room's first.
    const roomButton = text(header, 'keyPage.openDoorOf', { door: text(header, 'keyPage.roomDoor', { room }) });
    const entranceButton = text(header, 'keyPage.openDoorOf', { door: text(header, 'sharedDoors.kinds.entrance') });
    const doors = page.locator('form[action*="/open"] button');
    expect(await doors.allInnerTexts()).toEqual([roomButton, entranceButton]);
    expect(await page.getByRole('button', { name: roomButton, exact: true }).getAttribute('data-testid')).toBe('key-open-room');
    expect(await page.getByRole('button', { name: entranceButton, exact: true }).getAttribute('data-testid')).toBe(`key-open-door-${entrance.id}`);

    // The hotel's address reads as written, "1 Harbour Road", in Arabic too: isolated (a <bdi>), so
    // the "1" stays at its start instead of moving to the right-to-left line's end.
    const hotelAddress = page.getByTestId('key-address');
    expect(await hotelAddress.textContent()).toBe('1 Harbour Road');
    expect(await hotelAddress.evaluate((el) => [el.tagName, getComputedStyle(el).unicodeBidi, getComputedStyle(el).direction])).toEqual([
      'BDI',
      'isolate',
      'ltr',
    ]);
    const xOf = (index: number) =>
      hotelAddress.evaluate((el, i) => {
        const range = document.createRange();
        range.setStart(el.firstChild!, i);
        range.setEnd(el.firstChild!, i + 1);
        return range.getBoundingClientRect().left;
      }, index);
    expect(await xOf(0)).toBeLessThan(await xOf('1 Harbour Road'.indexOf('H')));
    await checkA11y(page, `key-page-${header}`);
    await screenshot(page, `key-page-${header}`);

    // The entrance's button opens the entrance, and only it.
    const atEntrance = Date.now();
    await page.getByRole('button', { name: entranceButton, exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: text(header, 'keyPage.opened') })
      .waitFor();
    await expect.poll(async () => (await unlocksSince(atEntrance)).includes(entrance.lockId), { timeout: 15_000 }).toBe(true);
    expect(await unlocksSince(atEntrance)).not.toContain(lockId);
    await screenshot(page, `key-page-opened-${header}`);

    // The room's button opens the room.
    const atRoom = Date.now();
    await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/open')),
      page.getByRole('button', { name: roomButton, exact: true }).click(),
    ]);
    await page
      .getByRole('status')
      .filter({ hasText: text(header, 'keyPage.opened') })
      .waitFor();
    await expect.poll(async () => (await unlocksSince(atRoom)).includes(lockId), { timeout: 15_000 }).toBe(true);
    expect(await unlocksSince(atRoom)).not.toContain(entrance.lockId);
    const audits = () =>
      sql<{ actorType: string; door: string; opened: boolean }>(
        `SELECT "actorType", after->>'door' AS door, (after->>'opened')::boolean AS opened FROM "AuditLog" WHERE action = 'lock.openByGuestLink' AND "entityId" = $1 ORDER BY id`,
        [String(roomId)],
      );
    await expect.poll(audits).toEqual([
      { actorType: 'key_link', door: `door-${entrance.id}`, opened: true },
      { actorType: 'key_link', door: 'room', opened: true },
    ]);
  });

  it('warns on the Guest messages page that messages carry no key page link without PUBLIC_URL', async () => {
    // This console runs without PUBLIC_URL (e2e/global-setup.ts): guestMessage.settings says keyLinkAvailable false.
    await deskPage.goto(`${baseUrl()}/guestMessages`);
    await deskPage.getByTestId('guest-messages-page').waitFor();
    const warning = deskPage.getByTestId('guest-messages-key-link-off');
    await warning.waitFor();
    expect((await warning.innerText()).trim()).toBe(text(header, 'guestMessages.keyLinkOff'));
    await screenshot(deskPage, `guest-messages-key-link-off-${header}`);
  });
});
