import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, closeRedis, launchBrowser, readSmsOutbox, screenshot, settle, signIn } from './support';
import { LANGUAGES, api, chooseOwnPassword, text, withPage, languageRuns } from './support-board';
import { closeSql, sql } from './support-stays';

/**
 * An account of two hotels switches hotel from the navbar (issue 9 §1), in Chinese, English and
 * Arabic. The demo owner adds a new staff account by mobile to the demo hotel (its first password
 * comes by SMS, read from the development outbox); a second hotel of the language's own, with two
 * rooms, is written into the database with the account as its owner. The account signs in (to the
 * demo hotel, its first), opens the user menu on the room board (the demo hotel checked), chooses
 * the other hotel: the console starts again at its home page with the other hotel's name under the
 * account's, and the board shows only that hotel's two rooms; then it switches back with the
 * keyboard and the board shows the demo hotel's rooms again. Another tab of the same browser (the
 * same session), still showing the demo hotel's board, starts again in the other hotel when it is
 * shown again (its window gets the focus). An account of one hotel has no hotel switch.
 */

type Member = { id: number; accountId: number; mobile: string; created: boolean };
type Me = { hotel: { id: number; name: string }; role: string; hotelCount: number };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await closeRedis();
  await closeSql();
});

const freshMobile = () => `167${String(Date.now()).slice(-6)}${String(Math.floor(Math.random() * 100)).padStart(2, '0')}`;

/** The first password in the staff member's SMS (10 letters and digits, without 0, 1, I, O, i, l, o). */
async function firstPassword(mobile: string, after: number): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const sms = (await readSmsOutbox()).find((m) => m.to === mobile && Date.parse(m.at) >= after);
    const password = sms?.text.match(/(?<![A-Za-z0-9])[A-HJ-NP-Za-km-z2-9]{10}(?![A-Za-z0-9])/)?.[0];
    if (password) return password;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no first password sent to ${mobile}`);
}

/** A second hotel, its rooms and the account's membership (owner), written as an install's data would be. */
async function secondHotel(name: string, accountId: number, rooms: string[]): Promise<number> {
  const [hotel] = await sql<{ id: number }>(
    `INSERT INTO "Hotel" ("name", "timeZone", "currency", "updatedAt") VALUES ($1, 'Asia/Dubai', 'AED', now()) RETURNING "id"`,
    [name],
  );
  await sql(`INSERT INTO "Membership" ("accountId", "hotelId", "role", "updatedAt") VALUES ($1, $2, 'owner', now())`, [accountId, hotel!.id]);
  for (const [i, room] of rooms.entries()) {
    await sql(`INSERT INTO "Room" ("hotelId", "name", "sortOrder", "usualPrice", "updatedAt") VALUES ($1, $2, $3, 20000, now())`, [hotel!.id, room, i]);
  }
  return hotel!.id;
}

const HOTEL_B: Record<string, string> = { chs: '山景酒店', en: 'Hillside Hotel', Arabic: 'فندق التلال' };

const tileNames = (page: Page) =>
  page.locator('[data-testid^="room-tile-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.slice('room-tile-'.length)));

/** Opens the user menu and waits for its list of hotels. */
async function openHotels(page: Page, hotelIds: number[]) {
  await page.getByTestId('user-menu').click();
  for (const id of hotelIds) await page.getByTestId(`hotel-choice-${id}`).waitFor();
  await settle(page);
}

describe.each(languageRuns(LANGUAGES, import.meta.url))('switching hotel in the navbar, in $header', ({ code, header }) => {
  it('shows the other hotel and its rooms after a switch, and the first hotel again after switching back', async () => {
    const mobile = freshMobile();
    const sentAt = Date.now() - 1_000;
    let member: Member | undefined;
    let demoHotel: Me['hotel'] | undefined;
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page, DEMO_OWNER);
      demoHotel = (await api<Me>(page, 'auth.me', undefined)).hotel;
      member = await api<Member>(page, 'staff.add', { account: mobile, name: `Switch ${code}`, role: 'staff', allRooms: true, roomIds: [] }, 'mutation');
      expect(member).toMatchObject({ mobile, created: true });
      // The demo owner belongs to one hotel: no hotel switch in its menu, no hotel under its name.
      await page.getByTestId('user-menu').click();
      await page.getByTestId('sign-out').waitFor();
      expect(await page.getByTestId('hotel-switch').count()).toBe(0);
      expect(await page.getByTestId('user-menu-hotel').count()).toBe(0);
    });
    const password = await firstPassword(mobile, sentAt);
    const roomsB = [`SW-${code}-B1`, `SW-${code}-B2`];
    const hotelBName = HOTEL_B[code]!;
    const hotelB = await secondHotel(hotelBName, member!.accountId, roomsB);

    await withPage(browser, { language: code }, async (page) => {
      await signIn(page, { account: mobile, password: await chooseOwnPassword(page, mobile, password) });
      expect(await page.locator('html').getAttribute('dir')).toBe(header === 'ar' ? 'rtl' : 'ltr');
      // Signed in to its first hotel, the demo hotel, named under the account's name.
      expect((await api<Me>(page, 'auth.me', undefined)).hotel.id).toBe(demoHotel!.id);
      await page.goto(`${baseUrl()}/room`);
      await page.getByTestId('room-tile-101').waitFor();
      expect(await page.getByTestId('user-menu-hotel').textContent()).toBe(demoHotel!.name);

      await openHotels(page, [demoHotel!.id, hotelB]);
      const group = page.getByTestId('hotel-switch');
      expect(await group.getAttribute('aria-labelledby').then((id) => page.locator(`#${id}`).textContent())).toBe(text(header, 'layout.switchHotel'));
      expect(await page.getByTestId(`hotel-choice-${demoHotel!.id}`).getAttribute('aria-checked')).toBe('true');
      expect(await page.getByTestId(`hotel-choice-${hotelB}`).getAttribute('aria-checked')).toBe('false');
      expect(await page.getByTestId(`hotel-choice-${hotelB}`).textContent()).toBe(hotelBName);
      await screenshot(page, `switch-hotel-${code}-menu`);

      // A second tab of the same browser, on the demo hotel's board.
      const otherTab = await page.context().newPage();
      await otherTab.goto(`${baseUrl()}/room`);
      await otherTab.getByTestId('room-tile-101').waitFor();
      await page.bringToFront();

      // To hotel B: the console starts again at its home page, in B; the board shows B's rooms.
      await page.getByTestId(`hotel-choice-${hotelB}`).click();
      await page.getByTestId('user-menu-hotel').filter({ hasText: hotelBName }).waitFor();
      await page.waitForURL(/\/customer\/customer/);
      await page.goto(`${baseUrl()}/room`);
      await page.getByTestId(`room-tile-${roomsB[0]}`).waitFor();
      await page.getByTestId(`room-tile-${roomsB[1]}`).waitFor();
      expect((await tileNames(page)).sort()).toEqual(roomsB);
      expect(await page.getByTestId('user-menu-hotel').textContent()).toBe(hotelBName);
      expect(await api<Me>(page, 'auth.me', undefined)).toMatchObject({ hotel: { id: hotelB, name: hotelBName }, role: 'owner', hotelCount: 2 });
      await screenshot(page, `switch-hotel-${code}-hotel-b`);

      // A new hotel has nobody to give rooms to: the housekeeping page says who an attendant is and
      // leads its owner to the Staff page; its empty day says when the tasks come (issue 39 §11).
      await page.goto(`${baseUrl()}/housekeeping`);
      const none = page.getByTestId('hk-no-attendants');
      await none.waitFor();
      expect(await none.innerText()).toBe(`${text(header, 'housekeeping.noAttendants')} ${text(header, 'housekeeping.toStaff')}`);
      expect(await none.getByRole('link').getAttribute('href')).toBe('/staff');
      expect(await page.getByTestId('hk-empty').innerText()).toBe(text(header, 'housekeeping.noTasks', { time: '07:00' }));
      await screenshot(page, `switch-hotel-${code}-hotel-b-housekeeping`);

      // The other tab, shown again, starts again in hotel B (its session moved with this one).
      await otherTab.bringToFront();
      await otherTab.evaluate(() => window.dispatchEvent(new Event('focus')));
      await otherTab.getByTestId(`room-tile-${roomsB[0]}`).waitFor();
      expect((await tileNames(otherTab)).sort()).toEqual(roomsB);
      expect(await otherTab.getByTestId('user-menu-hotel').textContent()).toBe(hotelBName);
      await otherTab.close();
      await page.bringToFront();

      await openHotels(page, [demoHotel!.id, hotelB]);
      expect(await page.getByTestId(`hotel-choice-${hotelB}`).getAttribute('aria-checked')).toBe('true');
      await screenshot(page, `switch-hotel-${code}-hotel-b-menu`);
      await page.keyboard.press('Escape');
      // As a user would: the menu has closed (its exit animation over) before it is opened again.
      await page.getByTestId(`hotel-choice-${hotelB}`).waitFor({ state: 'detached' });
      await expect.poll(() => page.getByTestId('user-menu').getAttribute('aria-expanded')).toBe('false');

      // Back to the demo hotel with the keyboard only: open the menu, arrow to the hotel, Enter.
      await page.getByTestId('user-menu').focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByTestId('user-menu').getAttribute('aria-expanded')).toBe('true');
      await page.getByTestId(`hotel-choice-${demoHotel!.id}`).waitFor();
      const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? '');
      for (let i = 0; i < 8 && (await focused()) !== `hotel-choice-${demoHotel!.id}`; i++) await page.keyboard.press('ArrowUp');
      expect(await focused()).toBe(`hotel-choice-${demoHotel!.id}`);
      await page.keyboard.press('Enter');
      await page.getByTestId('user-menu-hotel').filter({ hasText: demoHotel!.name }).waitFor();
      await page.waitForURL(/\/customer\/customer/);
      await page.goto(`${baseUrl()}/room`);
      await page.getByTestId('room-tile-101').waitFor();
      const tiles = await tileNames(page);
      expect(tiles.filter((t) => roomsB.includes(t))).toEqual([]);
      expect(tiles).toContain('101');
      expect((await api<Me>(page, 'auth.me', undefined)).hotel.id).toBe(demoHotel!.id);
      await screenshot(page, `switch-hotel-${code}-back`);
    });
  });
});
