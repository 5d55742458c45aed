import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, closeRedis, launchBrowser, newContext, screenshot, signIn } from './support';
import { api, digits, expectToast, roomByName, text, languageRuns } from './support-board';
import { lockIdOf, sim } from './support-locks';
import { closeSql, openRoom } from './support-stays';

/**
 * Locks on the console (issue 7 §1, §5, §6), in Chinese, English and Arabic, against the lock
 * simulator the console runs inside itself: the navbar says the locks are simulated; a room's lock
 * panel shows the lock online with its battery, and opens it remotely; a lock the simulator takes
 * offline makes the next remote unlock fail with the translated reason, shows the room offline on
 * the board, and leaves a lock message, which the messages page lists and the navbar's count drops
 * once it is read. In English, what the lock holds is read back and a code put on it behind the
 * console's back is removed. Rooms 108, 207 and 306 are this file's (their stays are left alone;
 * each lock is back online at the end).
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
  { code: 'chs', header: 'zh-CN', room: '108' },
  { code: 'en', header: 'en', room: '207' },
  { code: 'Arabic', header: 'ar', room: '306' },
] as const;

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

async function openLockPanel(page: Page, room: string) {
  await openRoom(page, room);
  await page.getByTestId('tab-lock').click();
  await page.getByTestId('lock-panel').waitFor();
  await page.getByTestId('lock-online').waitFor();
}

/** The navbar's unread count, once it has been loaded. */
async function bellCount(page: Page): Promise<number> {
  const bell = page.getByTestId('lock-messages-bell');
  await page.waitForFunction(() => document.querySelector('[data-testid="lock-messages-bell"]')?.hasAttribute('data-count'));
  return Number(await bell.getAttribute('data-count'));
}

/** How many remote unlocks the simulator's cloud has done without an error. */
async function unlocksDone(): Promise<number> {
  const { calls } = await sim<{ calls: { path: string; errcode: number }[] }>('GET', '/calls');
  return calls.filter((c) => c.path.includes('lock/unlock') && c.errcode === 0).length;
}

const lockOnline = (page: Page) => page.getByTestId('lock-online').getAttribute('data-value');

describe.each(languageRuns(RUNS, import.meta.url))('locks in $header', ({ code, header, room }) => {
  let context: BrowserContext;
  let page: Page;
  let lockId: string;
  beforeAll(async () => {
    lockId = await lockIdOf(room);
    context = await newContext(browser, { language: code });
    page = await context.newPage();
    await signIn(page, DEMO_OWNER);
  });
  afterAll(async () => {
    // The lock is back: online in the simulator, and as the console sees it.
    await sim('PATCH', `/locks/${lockId}`, { online: true }).catch(() => undefined);
    if (page) await api(page, 'lock.status', { roomId: (await roomByName(page, room)).id, refresh: true }).catch(() => undefined);
    await context?.close();
  });

  it('says in the navbar that the locks are simulated, and why, on hover or keyboard focus', async () => {
    await page.goto(`${baseUrl()}/room`);
    const badge = page.getByTestId('simulated-locks-badge');
    await badge.waitFor();
    expect(await badge.innerText()).toBe(text(header, 'credentials.simulatedBadge'));
    await badge.focus();
    const hint = page.getByTestId('simulated-locks-hint');
    await hint.waitFor();
    expect(await hint.innerText()).toContain(text(header, 'locks.simulatedHint'));
    await page.keyboard.press('Escape');
    await hint.waitFor({ state: 'detached' });
  });

  it(`shows the lock of room ${room} online with its battery, and opens it remotely after a confirmation`, async () => {
    await openLockPanel(page, room);
    // The first status of every lock is read in the background at start: asked now, it is there.
    await page.getByTestId('lock-refresh').click();
    await expect.poll(() => lockOnline(page), { timeout: 15_000 }).toBe('online');
    expect(await page.getByTestId('lock-online').innerText()).toBe(text(header, 'locks.online'));
    const battery = Number(await page.getByTestId('lock-battery').getAttribute('data-value'));
    expect(battery).toBeGreaterThan(0);
    expect(await page.getByTestId('lock-battery').innerText()).toContain(`${battery}%`);
    expect(await page.getByTestId('lock-gateway').innerText()).toContain(text(header, 'locks.online'));
    if (code !== 'chs') await screenshot(page, `locks-panel-${header}`);

    const opened = await unlocksDone();
    await page.getByTestId('lock-unlock').click();
    const dialog = page.getByTestId('lock-unlock-dialog');
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain(text(header, 'locks.unlockTitle', { room }));
    await page.getByTestId('lock-unlock-confirm').click();
    await expectToast(page, text(header, 'locks.unlocked', { room }));
    await dialog.waitFor({ state: 'detached' });
    // The simulator's cloud was asked to open the lock once more, and did.
    expect(await unlocksDone()).toBe(opened + 1);
  });

  it('says "open failed" with the reason when the lock is offline; the board marks the room; the message is listed, and the count drops once it is read', async () => {
    await openLockPanel(page, room);
    const before = await bellCount(page);
    await sim('PATCH', `/locks/${lockId}`, { online: false });

    await page.getByTestId('lock-unlock').click();
    await page.getByTestId('lock-unlock-confirm').click();
    const error = page.getByTestId('lock-unlock-dialog').getByTestId('form-error');
    await error.waitFor({ timeout: 15_000 });
    expect(await error.innerText()).toBe(text(header, 'credentials.errors.openFailed', { reason: text(header, 'credentials.errors.lock_offline') }));
    if (code !== 'chs') await screenshot(page, `locks-unlock-failed-${header}`);
    await page.keyboard.press('Escape');
    await page.getByTestId('lock-unlock-dialog').waitFor({ state: 'detached' });

    // The console now shows the lock offline, and has a new unread message for it.
    await expect.poll(() => lockOnline(page)).toBe('offline');
    expect(await page.getByTestId('lock-online').innerText()).toBe(text(header, 'locks.offline'));
    await page.getByTestId('room-heading').locator('xpath=..').getByTestId('lock-offline').waitFor();
    await expect.poll(() => bellCount(page)).toBeGreaterThan(before);
    const unread = await bellCount(page);
    expect(await page.getByTestId('lock-messages-bell').getAttribute('aria-label')).toBe(text(header, 'lockMessages.bell', { number: digits(header, unread) }));

    // The board marks the room's tile, with a label for screen readers.
    await page.goto(`${baseUrl()}/room`);
    const marker = page.getByTestId(`room-tile-${room}`).getByTestId('lock-offline');
    await marker.waitFor();
    expect(await marker.innerText()).toBe(text(header, 'lockMessages.kinds.lock_offline'));
    if (code !== 'chs') {
      await marker.hover();
      await page.locator('[data-slot="tooltip-content"]').first().waitFor();
      await screenshot(page, `locks-board-offline-${header}`);
      await page.setViewportSize(PHONE);
      await page.mouse.move(0, 0);
      await marker.scrollIntoViewIfNeeded();
      await screenshot(page, `locks-board-offline-${header}-phone`);
      await page.setViewportSize(DESKTOP);
    }

    // The bell leads to the messages; the new one is there, unread, for this room.
    await page.getByTestId('lock-messages-bell').click();
    await page.getByTestId('lock-messages-table').waitFor();
    await page.getByTestId('lock-messages-show-unread').click();
    await page.waitForURL(/show=unread/);
    const row = page.locator('[data-testid^="lock-message-"][data-kind="lock_offline"][data-read="false"]', { hasText: room }).first();
    await row.waitFor();
    expect(await row.innerText()).toContain(text(header, 'lockMessages.kinds.lock_offline'));
    expect(await page.locator('h1').innerText()).toBe(text(header, 'route.lockMessages'));
    if (code !== 'chs') {
      await screenshot(page, `locks-messages-${header}`);
      await page.setViewportSize(PHONE);
      await screenshot(page, `locks-messages-${header}-phone`);
      await page.setViewportSize(DESKTOP);
    }
    const id = (await row.getAttribute('data-testid'))!.replace('lock-message-', '');
    await page.getByTestId(`lock-message-read-${id}`).click();
    // Read: gone from the unread list, and the navbar counts one fewer.
    await page.getByTestId(`lock-message-${id}`).waitFor({ state: 'detached' });
    await expect.poll(() => bellCount(page)).toBe(unread - 1);

    // Deleted after a confirmation.
    await page.getByTestId('lock-messages-show-all').click();
    await page.getByTestId(`lock-message-${id}`).waitFor();
    await page.getByTestId(`lock-message-delete-${id}`).click();
    const confirm = page.getByTestId('lock-message-delete-dialog');
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain(text(header, 'lockMessages.deleteTitle'));
    await page.getByTestId('lock-message-delete-confirm').click();
    await expectToast(page, text(header, 'common.deleted'));
    await page.getByTestId(`lock-message-${id}`).waitFor({ state: 'detached' });

    // Back online (the panel's "Check now" asks the lock cloud again).
    await sim('PATCH', `/locks/${lockId}`, { online: true });
    await openLockPanel(page, room);
    if (code !== 'chs') {
      await page.setViewportSize(PHONE);
      await page.getByTestId('lock-panel').scrollIntoViewIfNeeded();
      await screenshot(page, `locks-panel-${header}-phone`);
      await page.setViewportSize(DESKTOP);
    }
    await page.getByTestId('lock-refresh').click();
    await expect.poll(() => lockOnline(page), { timeout: 15_000 }).toBe('online');
  });

  if (code === 'en') {
    it('reads what the lock holds and removes a code the console did not put there, after a confirmation', async () => {
      await sim('POST', `/locks/${lockId}/drift`, { action: 'plant', kind: 'passcode', code: '739146', name: 'Keypad code' });
      await openLockPanel(page, room);
      await page.getByTestId('lock-contents-read').click();
      await page.getByTestId('lock-contents-table').waitFor({ timeout: 15_000 });
      const row = page.locator('[data-drift="unmanaged"]', { hasText: 'Keypad code' });
      await row.waitFor();
      expect(await row.innerText()).toContain(text(header, 'credentials.drift.unmanaged'));
      expect(await row.innerText()).toContain('739146');
      await page.getByTestId('lock-contents-table').scrollIntoViewIfNeeded();
      await screenshot(page, `locks-contents-${header}`);
      await row.getByRole('button', { name: text(header, 'locks.remove') }).click();
      const dialog = page.getByTestId('lock-item-remove-dialog');
      await dialog.waitFor();
      expect(await dialog.innerText()).toContain(text(header, 'locks.removeText', { item: 'Keypad code', room }));
      await page.getByTestId('lock-item-remove-confirm').click();
      await expectToast(page, text(header, 'locks.removed'));
      await row.waitFor({ state: 'detached', timeout: 15_000 });
      // The lock no longer opens with it.
      expect(await sim<{ opened: boolean }>('POST', `/locks/${lockId}/use`, { passcode: '739146' })).toMatchObject({ opened: false });
    });
  }
});
