import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, closeRedis, launchBrowser, screenshot, settle, signIn } from './support';
import { LANGUAGES, api, languageRuns, text, withPage } from './support-board';

/**
 * The search box and the desk's shortcuts (issue 28 §3) in Chinese, English and Arabic, on a desktop
 * and on a phone: Ctrl+K opens the search box, a guest's name or a mobile's last digits find the
 * guest, Enter opens the guest's page, where p records a payment, and the box then lists it among the recent results; `/` typed
 * in a field stays in the field, and opens the box elsewhere; `?` lists the shortcuts; g then t goes
 * to today, where c goes to the vacant rooms, and on a vacant room's page c opens its check-in. On a phone the navbar's button opens the box and a tap opens the result. Every screen
 * is checked with axe.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await closeRedis();
});

type Stay = { id: number; roomId: number; guests: { id: number; name: string }[] };

/** A room of its own with a guest in house, named for this run, with a mobile whose last four digits no other run shares. */
async function guestInHouse(page: Page, code: string) {
  const run = `${Date.now().toString(36).slice(-5)}${Math.floor(Math.random() * 1e3)}`;
  const room = await api<{ id: number; name: string }>(page, 'room.create', { name: `SE-${code}-${run}` }, 'mutation');
  const tail = String(Date.now()).slice(-4);
  const mobile = `1368${String(Math.floor(Math.random() * 1e3)).padStart(3, '0')}${tail}`;
  const now = Date.now();
  const stay = await api<Stay>(
    page,
    'stay.checkIn',
    {
      roomId: room.id,
      checkInAt: new Date(now).toISOString(),
      expectedCheckOutAt: new Date(now + 86_400_000).toISOString(),
      guests: [{ name: `Searchy ${code} ${run}`, mobile }],
      idempotencyKey: `e2e-search-${code}-${run}`,
      acknowledge: ['room_dirty'],
    },
    'mutation',
  );
  return { room, stay, guestId: stay.guests[0]!.id, name: `Searchy ${code} ${run}`, mobile };
}

const dialog = (page: Page) => page.getByTestId('search-dialog');

describe.each(languageRuns(LANGUAGES, import.meta.url))('the search box in $header', ({ code, header }) => {
  it('on a desktop: Ctrl+K finds a guest by name and by the last digits of the mobile, Enter opens the stay; / and ? from the keyboard', async () => {
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page, { account: '13800000000', password: 'demo1234' });
      const guest = await guestInHouse(page, code);
      await page.goto(`${baseUrl()}/today`);
      await page.getByTestId('search-open').waitFor();

      // Ctrl+K opens the box, with its hint in the page's language; the name finds the guest.
      await page.keyboard.press('Control+k');
      await dialog(page).waitFor();
      await dialog(page).getByText(text(header, 'search.hint')).waitFor();
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('search-input');
      await page.keyboard.type(guest.name);
      const result = dialog(page).locator('[data-testid="search-result"][data-group="guests"]', { hasText: guest.name });
      await result.waitFor();
      await dialog(page).getByText(text(header, 'search.groups.guests'), { exact: true }).waitFor();
      await screenshot(page, `search-results-${header}`);

      // Moved to another room, the guest is still one result: the stay they are in now, in the new room (issue 39 §10).
      const other = await api<{ id: number; name: string }>(page, 'room.create', { name: `${guest.room.name}-2` }, 'mutation');
      const movedStay = await api<Stay>(page, 'stay.changeRoom', { stayId: guest.stay.id, targetRoomId: other.id }, 'mutation');
      // The guest's page opened from now on is the one of the stay they are in.
      guest.guestId = movedStay.guests[0]!.id;
      await page.getByTestId('search-input').fill(`${guest.name} `);
      await page.getByTestId('search-input').fill(guest.name);
      const moved = dialog(page).locator('[data-testid="search-result"][data-group="guests"]', { hasText: other.name });
      await moved.waitFor();
      expect(await dialog(page).locator('[data-testid="search-result"][data-group="guests"]', { hasText: guest.name }).count()).toBe(1);

      // The last four digits of the mobile find the guest too; Enter opens the guest's page.
      await page.getByTestId('search-input').fill(guest.mobile.slice(-4));
      await expect.poll(() => dialog(page).locator('[data-testid="search-result"][data-group="guests"]').first().innerText()).toContain(guest.name);
      await page.keyboard.press('Enter');
      await page.waitForURL(`**/room/thetouristsDetails?id=${guest.guestId}`);
      await dialog(page).waitFor({ state: 'hidden' });

      // p on the guest's page records a payment of this stay (the bill's own button).
      await page.getByTestId('folio-record-payment').waitFor();
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press('p');
      await page.getByTestId('record-money-dialog').waitFor();
      expect(new URL(page.url()).pathname).toBe('/room/thetouristsDetails');
      await page.keyboard.press('Escape');
      await page.getByTestId('record-money-dialog').waitFor({ state: 'hidden' });

      // Opened again empty: the guest is the first recent result.
      await page.keyboard.press('Control+k');
      await dialog(page).getByText(text(header, 'search.recent')).waitFor();
      expect(await dialog(page).getByTestId('search-recent').first().innerText()).toContain(guest.name);
      await page.keyboard.press('Escape');
      await dialog(page).waitFor({ state: 'hidden' });

      // `/` typed in the board's search field stays in it; on the board, `/` goes to the board's own
      // search field (as on every list); on a page without one, it opens the box.
      await page.goto(`${baseUrl()}/room`);
      const field = page.getByTestId('room-search');
      await field.click();
      await page.keyboard.type('1/2');
      expect(await field.inputValue()).toBe('1/2');
      expect(await dialog(page).count()).toBe(0);
      await field.fill('');
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press('/');
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('room-search');
      expect(await dialog(page).count()).toBe(0);
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      // g then t: today, where `/` opens the box.
      await page.keyboard.press('g');
      await page.keyboard.press('t');
      await page.waitForURL('**/today');
      // The room list (whose own box takes `/`) gone: the URL changes before a page still loading replaces it.
      await page.getByTestId('room-search').waitFor({ state: 'detached' });
      await page.getByTestId('search-open').waitFor();
      await page.keyboard.press('/');
      await dialog(page).waitFor();
      // `?` typed in the box is text, not the help.
      await page.keyboard.type('?');
      expect(await page.getByTestId('search-input').inputValue()).toBe('?');
      expect(await page.getByTestId('shortcuts-dialog').count()).toBe(0);
      await page.keyboard.press('Escape');
      await dialog(page).waitFor({ state: 'hidden' });

      // `?` lists the shortcuts, in the page's language.
      await page.keyboard.press('?');
      const help = page.getByTestId('shortcuts-dialog');
      await help.waitFor();
      await help.getByText(text(header, 'shortcuts.title'), { exact: true }).waitFor();
      await help.getByText(text(header, 'shortcuts.actions.checkIn'), { exact: true }).waitFor();
      expect(await help.getByTestId('shortcut-row').count()).toBeGreaterThanOrEqual(8);
      await screenshot(page, `search-shortcuts-${header}`);
      // A shortcut does nothing while a dialog is open.
      await page.keyboard.press('g');
      await page.keyboard.press('b');
      expect(new URL(page.url()).pathname).toBe('/today');
      await page.keyboard.press('Escape');
      await help.waitFor({ state: 'hidden' });

      // On today, c goes to the board's vacant rooms (no room in sight).
      await settle(page);
      await page.keyboard.press('c');
      await page.waitForURL('**/room?status=vacant');

      // On a vacant room's page, c opens its check-in.
      const vacant = await api<{ id: number }>(page, 'room.create', { name: `SE-${code}-v${Date.now().toString(36).slice(-5)}` }, 'mutation');
      await page.goto(`${baseUrl()}/room/${vacant.id}`);
      await page.getByTestId('action-check-in').waitFor();
      await page.keyboard.press('c');
      await page.getByTestId('check-in-dialog').waitFor();
      expect(new URL(page.url()).pathname).toBe(`/room/${vacant.id}`);
    });
  });

  it('on a phone: the navbar button opens the box and a tap opens the guest', async () => {
    await withPage(browser, { language: code, width: 390, height: 844 }, async (page) => {
      await signIn(page, { account: '13800000000', password: 'demo1234' });
      const guest = await guestInHouse(page, code);
      await page.goto(`${baseUrl()}/today`);
      await page.getByTestId('search-open').click();
      await dialog(page).waitFor();
      await page.getByTestId('search-input').fill(guest.name);
      const result = dialog(page).locator('[data-testid="search-result"][data-group="guests"]', { hasText: guest.name });
      await result.waitFor();
      await screenshot(page, `search-phone-${header}`);
      const box = await dialog(page).boundingBox();
      expect(box && box.width).toBeLessThanOrEqual(390);
      await result.click();
      await page.waitForURL(`**/room/thetouristsDetails?id=${guest.guestId}`);
    });
  });
});
