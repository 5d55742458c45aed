import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, closeRedis, launchBrowser, newContext, screenshot, signIn } from './support';
import { languageRuns } from './support-board';
import { guestKeysDialog, closeGuestKeys } from './support-keys';
import { pairedRoom, sim } from './support-locks';
import { answerCheckOut, closeSql, text, waitForRoomStatus } from './support-stays';

/**
 * A guest's stay and the lock, end to end (issue 7 §7), in Chinese, English and Arabic: check a
 * guest in with a lock password, see it sending then on the lock (no reload), use it at the
 * simulated lock, see the unlock record appear on the room page with the guest's name (no reload),
 * check out, see the password taken off the lock, and the simulated lock now refuses it.
 * Each run has a room of its own, made for it and paired with a new simulated lock, so no other
 * browser test's rooms are touched.
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
  { code: 'chs', header: 'zh-CN', room: 'F-zh', guest: '王小明', pin: '385172' },
  { code: 'en', header: 'en', room: 'F-en', guest: 'Ruth Becker', pin: '496283' },
  { code: 'Arabic', header: 'ar', room: 'F-ar', guest: 'ليلى حداد', pin: '507394' },
] as const;

describe.each(languageRuns(RUNS, import.meta.url))('a stay and its lock password in $header', ({ code, header, room, guest, pin }) => {
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

  it('checks in with a password, which reaches the lock, opens it, shows in the records with the guest, and stops at check-out', async () => {
    const { roomId, lockId } = await pairedRoom(room);
    await page.goto(`${baseUrl()}/room/${roomId}`);
    await page.getByTestId('room-detail').waitFor();

    // Check-in with a custom lock password; the lock's answer is held until "sending" has been seen.
    await page.getByTestId('action-check-in').click();
    const dialog = page.getByTestId('check-in-dialog');
    await dialog.waitFor();
    await page.locator('#guest-0-name').fill(guest);
    await page.getByTestId('issuePassword').click();
    await page.getByTestId('passwordCode').fill(pin);
    await sim('PATCH', `/locks/${lockId}`, { latencyMs: 600_000 });
    try {
      await page.getByTestId('check-in-submit').click();
      await dialog.waitFor({ state: 'detached', timeout: 20_000 });
      await waitForRoomStatus(page, 'checked_in');
      const item = page.getByTestId('stay-credentials').locator('[data-testid^="stay-password-"]');
      await item.first().waitFor();
      await item.and(page.locator('[data-state="pending"]')).waitFor({ timeout: 10_000 });
      // The lock answers now: the page follows it to "on the lock" without a reload.
      await sim('PATCH', `/locks/${lockId}`, { latencyMs: null });
      await item.and(page.locator('[data-state="on_lock"]')).waitFor({ timeout: 20_000 });
      expect(await item.first().getByTestId('delivery-state').innerText()).toBe(text(header, 'credentials.states.on_lock'));
    } finally {
      await sim('PATCH', `/locks/${lockId}`, { latencyMs: null });
    }
    // What the guest holds, shown once after the check-in: the code in full, on the lock.
    const keys = await guestKeysDialog(page, 'check_in');
    await keys.locator('[data-testid^="guest-keys-password-"][data-state="on_lock"]').waitFor({ timeout: 20_000 });
    expect(await keys.locator('[data-testid^="guest-keys-code-"]').innerText()).toBe(pin);
    await closeGuestKeys(page);
    await screenshot(page, `flow-on-lock-${header}`);

    // The guest opens the door; the record arrives by the lock cloud's callback, the page follows it.
    expect(await sim<{ opened: boolean }>('POST', `/locks/${lockId}/use`, { passcode: pin })).toMatchObject({ opened: true });
    await page.getByTestId('tab-unlock').click();
    const row = page.locator('[data-testid^="unlock-row-"]').filter({ hasText: guest });
    await row.first().waitFor({ timeout: 20_000 });
    expect(await row.first().innerText()).toContain(text(header, 'frontDesk.detail.unlockStyles.password'));
    await screenshot(page, `flow-record-${header}`);

    // Check-out (confirmed): the password comes off the lock, and the lock refuses it.
    await page.getByTestId('action-check-out').click();
    await page.getByTestId('check-out-confirm').waitFor();
    await answerCheckOut(page);
    await page.getByTestId('check-out-submit').click();
    await page.getByTestId('check-out-confirm').waitFor({ state: 'detached' });
    await page.getByTestId('tab-credentials').click();
    await page.getByTestId('credentials-tab').waitFor();
    await page.getByTestId('credentials-scope-history').click();
    const past = page.locator('[data-testid^="password-row-"]').first();
    await page.waitForFunction(() => document.querySelector('[data-testid^="password-row-"]')?.getAttribute('data-state') === 'removed', undefined, {
      timeout: 20_000,
    });
    expect(await past.innerText()).toContain(text(header, 'credentials.revokeReasons.check_out'));
    expect(await sim<{ opened: boolean }>('POST', `/locks/${lockId}/use`, { passcode: pin })).toMatchObject({ opened: false });
    await page.getByTestId('credentials-tab').scrollIntoViewIfNeeded();
    await screenshot(page, `flow-checked-out-${header}`);
  });
});
