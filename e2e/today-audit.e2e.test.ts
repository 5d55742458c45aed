import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, closeRedis, launchBrowser, screenshot, settle, signIn } from './support';
import { LANGUAGES, api, digits, text, withPage, languageRuns } from './support-board';

/**
 * The today board (/today) and the audit log (/auditLog) in Chinese, English and Arabic. Each
 * language makes two rooms of its own (TA-<code>-1 and -2): one marked dirty, a guest checked into
 * the other. The board's figures are those today.get answers and those of the lists they open
 * (the room board's status counts, the guest list's total); the dirty rooms figure, opened from
 * the keyboard, shows the board filtered to dirty rooms with ours among them, and in house the
 * guest list of stays in house with our guest. The audit log then lists our room's renaming first,
 * by the demo owner through the web console, its before and after in a dialog opened and closed
 * from the keyboard; the area filter and "only this action" keep room actions, then that one.
 */

type Today = {
  date: string;
  rooms: { total: number; dirty: number; maintain: number; checked_in: number };
  arrivals: { expected: number; arrived: number };
  departures: { due: number; departed: number };
  inHouse: number;
  overdue: number;
  breakfast: { stays: number; guests: number; served: number };
  locks: { roomsTotal: number };
  deliveries: { failed: number };
  takings: { total: number; currency: string } | null;
};
type Room = { id: number; name: string };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await closeRedis();
});

/** The number a figure card shows. */
const figure = (page: Page, id: string) => page.getByTestId(`today-${id}`).getByTestId('today-value').innerText();

describe.each(languageRuns(LANGUAGES, import.meta.url))('the today board and the audit log in $header', ({ code, header }) => {
  const names = [`TA-${code}-1`, `TA-${code}-2`] as const;
  const guest = `Today Guest ${code}`;
  let dirtyRoom: Room;
  let guestRoom: Room;

  it('shows figures that match the data, and a figure opens its filtered list', async () => {
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page, DEMO_OWNER);
      const created = await Promise.all(names.map((name) => api<Room>(page, 'room.create', { name }, 'mutation')));
      [dirtyRoom, guestRoom] = [created[0]!, created[1]!];
      await api(page, 'room.setStatus', { roomId: dirtyRoom.id, target: 'dirty' }, 'mutation');
      const now = Date.now();
      await api(
        page,
        'stay.checkIn',
        {
          roomId: guestRoom.id,
          checkInAt: new Date(now).toISOString(),
          expectedCheckOutAt: new Date(now + 2 * 86_400_000).toISOString(),
          breakfast: true,
          guests: [{ name: guest }],
          idempotencyKey: `e2e-today-${code}-${now}`,
        },
        'mutation',
      );
      const today = await api<Today>(page, 'today.get', undefined);
      // The figures are those of the lists they open.
      const listTotal = async (procedure: string, input: unknown) => (await api<{ total: number }>(page, procedure, input)).total;
      expect(await listTotal('room.list', { status: 'dirty' })).toBe(today.rooms.dirty);
      expect(await listTotal('room.list', { status: 'maintain' })).toBe(today.rooms.maintain);
      expect(await listTotal('stay.list', { state: 'in_house' })).toBe(today.inHouse);
      expect(await listTotal('stay.list', { state: 'expired' })).toBe(today.overdue);
      expect(await listTotal('stay.list', { state: 'reserved', from: today.date, to: today.date })).toBe(today.arrivals.expected);
      expect(today.rooms.dirty).toBeGreaterThanOrEqual(1);
      expect(today.inHouse).toBeGreaterThanOrEqual(1);

      await page.goto(`${baseUrl()}/today`);
      await page.getByTestId('today-page').waitFor();
      await page.getByTestId('today-dirty').waitFor();
      expect(await page.title()).toContain(text(header, 'route.today'));
      const shown: [string, number][] = [
        ['arrivals', today.arrivals.expected],
        ['departures', today.departures.due],
        ['in-house', today.inHouse],
        ['overdue', today.overdue],
        ['dirty', today.rooms.dirty],
        ['maintain', today.rooms.maintain],
        ['breakfast', today.breakfast.guests],
        ['locks', today.locks.roomsTotal],
        ['deliveries', today.deliveries.failed],
      ];
      for (const [id, value] of shown) expect(await figure(page, id), id).toBe(digits(header, value));
      expect(await page.getByTestId('today-arrivals').getByTestId('today-title').innerText()).toBe(text(header, 'today.arrivals.title'));
      expect(await page.getByTestId('today-in-house').getByTestId('today-detail').innerText()).toContain(digits(header, today.rooms.total));
      // The owner manages orders: the day's takings are there.
      expect(await page.getByTestId('today-takings').isVisible()).toBe(true);
      expect(await page.locator('html').getAttribute('dir')).toBe(header === 'ar' ? 'rtl' : 'ltr');
      await screenshot(page, `today-board-${header}`);

      // Dirty rooms, from the keyboard: the room board filtered to them, ours among them, counted the same.
      const dirtyLink = page.getByTestId('today-dirty').getByTestId('today-link');
      await dirtyLink.focus();
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.pathname === '/room' && url.searchParams.get('status') === 'dirty');
      await page.getByTestId(`room-tile-${dirtyRoom.name}`).waitFor();
      expect(await page.getByTestId(`room-tile-${dirtyRoom.name}`).getAttribute('data-status')).toBe('dirty');
      expect(await page.getByTestId('status-filter-dirty').getAttribute('aria-pressed')).toBe('true');
      expect(await page.getByTestId('status-filter-dirty').getAttribute('data-count')).toBe(String(today.rooms.dirty));
      // The tiles past the first screenful render in the background (decision 029): wait for them all.
      const tileStatuses = () => page.locator('[data-testid^="room-tile-"]').evaluateAll((els) => els.map((el) => el.getAttribute('data-status')));
      await expect.poll(async () => (await tileStatuses()).length, { timeout: 15_000 }).toBe(Math.min(today.rooms.dirty, 50));
      const tiles = await tileStatuses();
      expect(new Set(tiles)).toEqual(new Set(['dirty']));
      await screenshot(page, `today-dirty-list-${header}`);

      // In house: the guest list of stays in house, ours among them, its total the figure.
      await page.goBack();
      await page.getByTestId('today-in-house').waitFor();
      await page.getByTestId('today-in-house').getByTestId('today-link').click();
      await page.waitForURL((url) => url.pathname === '/room/tenant' && url.searchParams.get('state') === 'in_house');
      await page.getByTestId('stay-list-table').getByText(guest).waitFor();
      const total = page.locator('[data-slot="pagination-total"]');
      await total.waitFor();
      expect(await total.innerText()).toBe(text(header, 'pagination.total', { count: today.inHouse, formatted: digits(header, today.inHouse) }));

      // The breakfast figure opens today's breakfast list.
      await page.goBack();
      await page.getByTestId('today-breakfast').getByTestId('today-link').click();
      await page.waitForURL((url) => url.pathname === '/room/breakfast' && url.searchParams.get('date') === today.date);
      await page.getByTestId('breakfast-list').waitFor();
    });
  });

  it('lists a room just renamed with its before and after and its channel, and filters by action', async () => {
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page, DEMO_OWNER);
      const renamed = `${dirtyRoom.name}-renamed`;
      await api(page, 'room.update', { id: dirtyRoom.id, name: renamed }, 'mutation');

      await page.goto(`${baseUrl()}/auditLog`);
      await page.getByTestId('audit-table').waitFor();
      expect(await page.title()).toContain(text(header, 'route.auditLog'));
      const first = page.locator('[data-testid^="audit-"][data-action]').first();
      expect(await first.getAttribute('data-action')).toBe('room.update');
      expect(await first.getByTestId('audit-actor').innerText()).toContain('Demo Owner');
      expect(await first.getByTestId('audit-target').innerText()).toContain(renamed);
      expect(await first.getByTestId('audit-channel-badge').innerText()).toBe(text(header, 'auditLog.channels.console'));
      expect(await first.getByTestId('audit-action').innerText()).toContain(text(header, 'auditLog.areas.room'));
      expect(await first.getByTestId('audit-action-label').innerText()).toBe(text(header, 'auditLog.actions.room.update'));
      await screenshot(page, `audit-log-${header}`);

      // Its before and after, from the keyboard.
      const details = first.getByTestId('audit-details');
      await details.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByTestId('audit-entry');
      await dialog.waitFor();
      await settle(page);
      const nameRow = dialog.getByTestId('audit-diff-name');
      expect(await nameRow.getAttribute('data-change')).toBe('changed');
      expect(await nameRow.getByTestId('audit-before').innerText()).toBe(dirtyRoom.name);
      expect(await nameRow.getByTestId('audit-after').innerText()).toBe(renamed);
      expect(await dialog.getByTestId('audit-channel-badge').innerText()).toBe(text(header, 'auditLog.channels.console'));
      await screenshot(page, `audit-entry-${header}`);
      // The fields that did not change come on request.
      expect(await dialog.locator('[data-change="same"]').count()).toBe(0);
      const showSame = dialog.getByTestId('audit-show-same');
      await showSame.click();
      await dialog.getByTestId('audit-diff-sortOrder').waitFor();
      expect(await dialog.getByTestId('audit-diff-sortOrder').getAttribute('data-change')).toBe('same');
      expect(await showSame.getAttribute('aria-expanded')).toBe('true');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      // The dialog gives the focus back just after it is gone (Radix's focus scope, on a timer): wait for it.
      await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'audit-details');

      // The area filter: room actions only, our renaming among them.
      await page.getByTestId('audit-area').selectOption('room');
      await page.waitForURL((url) => url.searchParams.get('action') === 'room');
      await page.waitForFunction(() =>
        Array.from(document.querySelectorAll('[data-action]')).every((el) => el.getAttribute('data-action')!.startsWith('room.')),
      );
      expect(await page.locator('[data-testid^="audit-"][data-action="room.update"]').count()).toBeGreaterThanOrEqual(1);
      expect(await page.locator('[data-testid^="audit-"][data-action="room.status"]').count()).toBeGreaterThanOrEqual(1);

      // Only this action: every row is a renaming, and the filter says so.
      await page.locator('[data-testid^="audit-"][data-action="room.update"]').first().getByTestId('audit-action').click();
      await page.waitForURL((url) => url.searchParams.get('action') === 'room.update');
      await page.getByTestId('audit-action-filter').waitFor();
      // The filter says the action in words, not its code.
      expect(await page.getByTestId('audit-action-filter').innerText()).toContain(text(header, 'auditLog.actions.room.update'));
      await page.waitForFunction(() => Array.from(document.querySelectorAll('[data-action]')).every((el) => el.getAttribute('data-action') === 'room.update'));
      // The web console's channel keeps it; removing the action filter brings the other actions back.
      await page.getByTestId('audit-channel').selectOption('console');
      await page.waitForURL((url) => url.searchParams.get('channel') === 'console');
      await page.locator('[data-testid^="audit-"][data-action="room.update"]').first().waitFor();
      await screenshot(page, `audit-log-filtered-${header}`);
      await page.getByTestId('audit-action-filter').getByRole('button').click();
      await page.waitForURL((url) => !url.searchParams.has('action'));
      await page.locator('[data-testid^="audit-"][data-action="stay.checkIn"]').first().waitFor();
    });
  });
});
