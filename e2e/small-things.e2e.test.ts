import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, closeRedis, launchBrowser, screenshot, settle, signIn } from './support';
import { LANGUAGES, api, expectToast, text, withPage, languageRuns } from './support-board';
import { readerAddress } from './support-readers';

/**
 * Issue 17 §5, "small things that a clerk noticed", in Chinese, English and Arabic: the room's
 * lock has a tab of its own (not "status"); a status the room already has is not offered, and a
 * stale page that asks for it is told "already" (never "changed"); the bulk "mark clean" bar stays
 * in sight while the board scrolls, on a desktop and a phone; the check-in dialog says a room is
 * not cleaned as it opens; the card writer names the address the reader service answers at (the
 * simulator's free port here, not 13570); the hotel's only owner is not offered Delete; sessions
 * say browser and system; and the phone board: every status chip in sight, nothing wider than the
 * phone on the board, the today board, the guest list, the balance page and the staff list.
 * Each language works on rooms of its own (`S5-<code>-n`).
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await closeRedis();
});

type Room = { id: number; name: string };
const PHONE = { width: 390, height: 844 };

/** The page's rooms of this file, made once per language. */
async function roomsOf(page: Page, code: string, count = 2): Promise<[Room, Room, ...Room[]]> {
  const names = Array.from({ length: count }, (_, i) => `S5-${code}-${i + 1}`);
  const found = await api<{ items: Room[] }>(page, 'room.list', { search: `S5-${code}-`, pageSize: 20 });
  const rooms: Room[] = [];
  for (const name of names) rooms.push(found.items.find((r) => r.name === name) ?? (await api<Room>(page, 'room.create', { name }, 'mutation')));
  return rooms as [Room, Room, ...Room[]];
}

/** Nothing on the page is wider than the window: neither the document nor the scrolling main area scrolls sideways. */
async function horizontalOverflow(page: Page) {
  return page.evaluate(() => {
    const main = document.querySelector('main');
    const doc = document.documentElement;
    return { document: doc.scrollWidth - doc.clientWidth, main: main ? main.scrollWidth - main.clientWidth : 0 };
  });
}

describe.each(languageRuns(LANGUAGES, import.meta.url))('small things in $header', ({ code, header }) => {
  it('gives the lock a tab of its own, and says "already" for a status the room has', async () => {
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page, DEMO_OWNER);
      const [room] = await roomsOf(page, code);
      await api(page, 'room.setStatus', { roomId: room.id, target: 'clean' }, 'mutation');
      await page.goto(`${baseUrl()}/room/${room.id}`);
      await page.getByTestId('room-detail').waitFor();

      // The lock: its own tab, named as a lock; the status tab holds the room's status only.
      expect(await page.getByTestId('tab-lock').innerText()).toBe(text(header, 'frontDesk.detail.tabs.lock'));
      await page.getByTestId('tab-status').click();
      await page.getByTestId('room-status').waitFor();
      expect(await page.getByTestId('lock-panel').count()).toBe(0);
      await page.getByTestId('tab-lock').click();
      await page.getByTestId('lock-panel').waitFor();
      expect(await page.getByTestId('room-status').count()).toBe(0);
      expect(page.url()).toContain('tab=lock');
      await screenshot(page, `small-lock-tab-${header}`);

      // Marking it dirty works, and then "mark dirty" is the room's state, not an offer.
      await page.getByTestId('tab-status').click();
      const dirty = page.getByTestId('status-target-dirty');
      await dirty.click();
      await expectToast(page, text(header, 'frontDesk.detail.statusChanged'));
      await page.waitForFunction(() => document.querySelector('[data-testid="clean-status"]')?.getAttribute('data-value') === 'dirty');
      expect(await dirty.isDisabled()).toBe(true);
      expect(await dirty.getAttribute('aria-pressed')).toBe('true');
      expect(await page.getByTestId('status-target-clean').isDisabled()).toBe(false);

      // Another clerk cleans it; this page shows it clean. Then, while this page's live feed is down
      // (a dropped connection: with it, the page turns dirty by itself within a second and the button
      // is no longer offered), it is made dirty: "mark dirty" on the stale page says "already".
      await api(page, 'room.setStatus', { roomId: room.id, target: 'clean' }, 'mutation');
      await page.route(/\/trpc\/event\.feed/, (route) => route.abort());
      await page.reload();
      await page.getByTestId('room-status').waitFor();
      await page.waitForFunction(() => document.querySelector('[data-testid="clean-status"]')?.getAttribute('data-value') === 'clean');
      await api(page, 'room.setStatus', { roomId: room.id, target: 'dirty' }, 'mutation');
      await dirty.click();
      await expectToast(page, text(header, 'statusChange.already.dirty', { rooms: room.name }));
      await page.waitForFunction(() => document.querySelector('[data-testid="clean-status"]')?.getAttribute('data-value') === 'dirty');
      await screenshot(page, `small-already-dirty-${header}`);
      expect(await page.locator('[data-sonner-toast]', { hasText: text(header, 'frontDesk.detail.statusChanged') }).count()).toBeLessThanOrEqual(1);
    });
  });

  it('says the room is not cleaned as the check-in dialog opens, before anything is filled', async () => {
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page, DEMO_OWNER);
      const [, room] = await roomsOf(page, code);
      await api(page, 'room.setStatus', { roomId: room.id, target: 'dirty' }, 'mutation');
      await page.goto(`${baseUrl()}/room/${room.id}`);
      await page.getByTestId('action-check-in').click();
      const dialog = page.getByTestId('check-in-dialog');
      const notice = dialog.getByTestId('room-dirty-notice');
      await notice.waitFor();
      expect(await notice.innerText()).toContain(text(header, 'frontDesk.stay.warnings.room_dirty', { room: room.name }));
      // Nothing typed yet.
      expect(await page.locator('#guest-0-name').inputValue()).toBe('');
      await screenshot(page, `small-dirty-at-open-${header}`);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      // A clean room says nothing.
      await api(page, 'room.setStatus', { roomId: room.id, target: 'clean' }, 'mutation');
      await page.reload();
      await page.getByTestId('action-check-in').click();
      await dialog.waitFor();
      await page.locator('#guest-0-name').waitFor();
      await settle(page);
      expect(await dialog.getByTestId('room-dirty-notice').count()).toBe(0);
    });
  });

  it('keeps the bulk "mark clean" bar in sight while the board scrolls, on a desktop and a phone', async () => {
    // A laptop's short screen: the board scrolls whatever other tests have added to the demo hotel
    // by then (at 800 px high, its 30 rooms scrolled 99 px when this file ran first).
    for (const viewport of [{ width: 1280, height: 560 }, PHONE]) {
      await withPage(browser, { language: code, ...viewport }, async (page) => {
        await signIn(page, DEMO_OWNER);
        const [room] = await roomsOf(page, code);
        await api(page, 'room.setStatus', { roomId: room.id, target: 'dirty' }, 'mutation');
        await page.goto(`${baseUrl()}/room?pageSize=100`);
        await page.getByTestId('room-tiles').waitFor();
        await page.getByTestId('select-rooms').click();
        const bar = page.getByTestId('selection-bar');
        await bar.waitFor();
        await page.getByTestId('room-tile-101').click();
        // The last tile of the page, far down: the bar is still in sight when it is picked.
        await page.locator('[data-testid^="room-tile-"]').last().scrollIntoViewIfNeeded();
        const scrolled = await page.evaluate(() => document.querySelector('main')!.scrollTop);
        expect(scrolled).toBeGreaterThan(200);
        await page.locator('[data-testid^="room-tile-"]').last().click();
        expect(await page.getByTestId('selection-count').getAttribute('data-count')).toBe('2');
        const box = (await bar.boundingBox())!;
        expect(box.y).toBeGreaterThanOrEqual(0);
        expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
        expect(await page.getByTestId('bulk-mark-clean').isVisible()).toBe(true);
        await screenshot(page, `small-sticky-bar-${viewport.width}-${header}`);
        // It works from there: the rooms picked are cleaned.
        await page.getByTestId('bulk-mark-clean').click();
        await page.getByTestId('confirm-action').click();
        await bar.waitFor({ state: 'detached' });
      });
    }
  });

  it('names the address the card reader answers at, not the usual port', async () => {
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page, DEMO_OWNER);
      const address = await readerAddress(1);
      expect(address).not.toContain(':13570');
      await page.goto(`${baseUrl()}/center/personalCenter/addCard`);
      const label = page.getByTestId('card-writer-reader-type');
      await label.waitFor();
      await expect.poll(() => label.innerText()).toBe(text(header, 'readers.type1', { address }));
      await screenshot(page, `small-card-writer-address-${header}`);
    });
  });

  it('shows sessions as browser and system, not raw user agents', async () => {
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page, DEMO_OWNER, '/center/personalCenter');
      const sessions = page.getByTestId('sessions');
      await sessions.waitFor();
      const devices = sessions.getByTestId('session-device');
      await devices.first().waitFor();
      const userAgent = await page.evaluate(() => navigator.userAgent);
      const major = /Chrome\/(\d+)/.exec(userAgent)?.[1];
      const first = await devices.first().innerText();
      expect(first).not.toContain('Mozilla/');
      expect(first).toContain(major);
      expect(first).toContain('Linux');
      expect(await devices.first().getAttribute('title')).toBe(userAgent);
      await sessions.scrollIntoViewIfNeeded();
      await screenshot(page, `small-sessions-${header}`);
    });
  });

  it('fits the phone board: every status chip in sight, nothing wider than the phone on the board and the lists', async () => {
    await withPage(browser, { language: code, ...PHONE }, async (page) => {
      await signIn(page, DEMO_OWNER, '/room');
      await page.getByTestId('room-tiles').waitFor();
      for (const status of ['all', 'vacant', 'reserved', 'checked_in', 'dirty', 'maintain']) {
        const chip = page.getByTestId(`status-filter-${status}`);
        const box = (await chip.boundingBox())!;
        expect(box.x, status).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, status).toBeLessThanOrEqual(PHONE.width);
        expect(await chip.isVisible()).toBe(true);
      }
      expect(await horizontalOverflow(page)).toEqual({ document: 0, main: 0 });
      await screenshot(page, `small-phone-board-${header}`);
      // The dirty chip filters from the first screen.
      await page.getByTestId('status-filter-dirty').click();
      await page.waitForURL(/status=dirty/);

      // A guest of this file's own with a deposit: the balance page has rows to show.
      const stayRoom = (await roomsOf(page, code, 3))[2]!;
      const now = Date.now();
      await api(
        page,
        'stay.checkIn',
        {
          roomId: stayRoom.id,
          checkInAt: new Date(now - 60_000).toISOString(),
          expectedCheckOutAt: new Date(now + 86_400_000).toISOString(),
          guests: [{ name: `S5 ${code}` }],
          depositAmount: 10_000,
          depositMethod: 'cash',
          idempotencyKey: `e2e-s5-phone-${code}`,
          acknowledge: ['room_dirty'],
        },
        'mutation',
      ).catch(async (error: unknown) => {
        // Run again on the same database: the guest is still in (a new key would be refused as overlapping).
        if (!(await api<{ currentStay: unknown }>(page, 'room.get', { id: stayRoom.id })).currentStay) throw error;
      });

      const lists = [
        { slug: 'today', path: '/today', ready: 'today-date' },
        { slug: 'guests', path: '/room/guests', ready: 'guests-table' },
        { slug: 'balance', path: '/order/balance', ready: 'balance-orders' },
        { slug: 'staff', path: '/staff', ready: 'staff-table' },
        { slug: 'board-table', path: '/room?view=table', ready: 'room-table' },
      ];
      for (const list of lists) {
        await page.goto(`${baseUrl()}${list.path}`);
        await page.getByTestId(list.ready).waitFor();
        await settle(page);
        expect(await horizontalOverflow(page), list.slug).toEqual({ document: 0, main: 0 });
        // The rows' own containers do not scroll sideways either.
        const wide = await page.evaluate(
          () => Array.from(document.querySelectorAll('[data-slot="table-container"]')).filter((el) => el.scrollWidth > el.clientWidth + 1).length,
        );
        expect(wide, list.slug).toBe(0);
        await screenshot(page, `small-phone-${list.slug}-${header}`);
      }
    });
  });
});
