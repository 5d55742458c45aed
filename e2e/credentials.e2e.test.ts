import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, closeRedis, launchBrowser, newContext, screenshot, settle, signIn, snapshot } from './support';
import { languageRuns } from './support-board';
import { lockIdOf, sim } from './support-locks';
import { closeSql, focusedId, openRoom, text, waitForRoomStatus } from './support-stays';

/**
 * Lock passwords on the room page, in Chinese, Arabic and English, against the lock simulator the
 * console runs inside itself (every demo room is paired with a simulated lock): a custom password
 * issued from the Credentials tab is refused in a bad format with the translated message, is
 * "sending" and then "on the lock" with no reload (the lock really opens with it), and once
 * revoked (confirmed) leaves the active list for the history. In English a check-in issues the
 * stay's password too, and the stay card follows it onto the lock. Rooms 102 (the demo guest's),
 * 203 (the demo reservation) and 105 are this file's; their stays and statuses are left as they
 * were, except 105, which is checked in.
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
  { code: 'chs', header: 'zh-CN', room: '102', holder: 'stay', pin: '583916', checkIn: false },
  { code: 'Arabic', header: 'ar', room: '203', holder: 'standalone', pin: '729104', checkIn: false },
  { code: 'en', header: 'en', room: '105', holder: 'standalone', pin: '640285', checkIn: true },
] as const;

/** Gateway writes to this lock take `ms` (null: the simulator's default), so "sending" can be seen. */
const slowLock = (lockId: string, ms: number | null) => sim('PATCH', `/locks/${lockId}`, { latencyMs: ms });

async function waitForState(row: Locator, state: string, timeout = 20_000) {
  await row.and(row.page().locator(`[data-state="${state}"]`)).waitFor({ timeout });
}

/** A screenshot taken at once (`screenshot` waits for every animation, and a spinner's never ends while it spins), and checked with axe. */
const snapNow = snapshot;

async function openCredentials(page: Page, room: string) {
  await openRoom(page, room);
  await page.getByTestId('tab-credentials').click();
  await page.getByTestId('credentials-tab').waitFor();
  // Loaded: the table, or the empty list.
  await page.locator('[data-testid="password-table"], [data-testid="credentials-empty"]').first().waitFor();
}

describe.each(languageRuns(RUNS, import.meta.url))('lock passwords in $header', ({ code, header, room, holder, pin, checkIn }) => {
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

  if (checkIn) {
    it(`checks a guest into ${room} with a lock password, which the stay card follows onto the lock`, async () => {
      const lockId = await lockIdOf(room);
      await openRoom(page, room);
      await page.getByTestId('action-check-in').click();
      const dialog = page.getByTestId('check-in-dialog');
      await dialog.waitFor();
      await page.locator('#guest-0-name').fill('Mira Kovac');
      // Off unless asked for; asked for, a custom code in a bad format stops the check-in with the spec's message.
      expect(await page.getByTestId('passwordCode').count()).toBe(0);
      await page.getByTestId('issuePassword').click();
      // Turned on, the field proposes a random six-digit code, never an empty one.
      await expect.poll(() => page.getByTestId('passwordCode').inputValue()).toMatch(/^\d{6}$/);
      await page.getByTestId('passwordCode').fill('12345');
      await page.getByTestId('check-in-submit').click();
      await expect.poll(() => page.locator('#passwordCode-error').innerText()).toBe(text(header, 'validation.customPasswordFormat'));
      expect(await dialog.isVisible()).toBe(true);
      await page.getByTestId('passwordCode').fill('471958');
      await page.getByTestId('passwordCode').press('Tab');
      await screenshot(page, `check-in-password-${header}`);

      await slowLock(lockId, 2_500);
      try {
        await page.getByTestId('check-in-submit').click();
        await dialog.waitFor({ state: 'detached', timeout: 20_000 });
        await waitForRoomStatus(page, 'checked_in');
        const card = page.getByTestId('stay-credentials');
        const item = card.locator('[data-testid^="stay-password-"]');
        await item.first().waitFor();
        expect(await item.count()).toBe(1);
        await waitForState(item, 'pending');
        expect(await item.getByTestId('delivery-state').innerText()).toBe(text(header, 'credentials.states.pending'));
        await waitForState(item, 'on_lock');
        expect(await item.getByTestId('delivery-state').innerText()).toBe(text(header, 'credentials.states.on_lock'));
      } finally {
        await slowLock(lockId, null);
      }
      expect(await sim<{ opened: boolean }>('POST', `/locks/${lockId}/use`, { passcode: '471958' })).toMatchObject({ opened: true });
      await page.getByTestId('stay-credentials').scrollIntoViewIfNeeded();
      await screenshot(page, `stay-card-password-${header}`);
    });
  } else {
    it('shows the optional lock password of the check-in dialog', async () => {
      // 105 is vacant until the English run checks a guest in: only looked at here, never sent.
      await openRoom(page, '105');
      await page.getByTestId('action-check-in').click();
      const dialog = page.getByTestId('check-in-dialog');
      await dialog.waitFor();
      await page.getByTestId('issuePassword').click();
      await page.getByTestId('passwordCode').waitFor();
      await page.getByTestId('check-in-password-kind-air').check();
      await page.getByTestId('air-password-rules').waitFor();
      await page.getByTestId('check-in-password').scrollIntoViewIfNeeded();
      await screenshot(page, `check-in-password-${header}`);
      await page.getByTestId('form-dialog-cancel').click();
      await page.getByTestId('discard-changes').waitFor();
      await page.getByTestId('discard-confirm').click();
      await dialog.waitFor({ state: 'detached' });
    });
  }

  it(`issues a custom password on ${room} from the Credentials tab, sees it reach the lock, and revokes it`, async () => {
    const lockId = await lockIdOf(room);
    await openCredentials(page, room);
    // Every room here has a current stay (in house, reserved, just checked in): the dialog offers it once loaded.
    await page.locator('[data-testid="current-stay"][data-state]').waitFor();
    if (header === 'ar') expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    const before = await page.locator('[data-testid^="password-row-"]').count();

    await page.getByTestId('issue-password').first().click();
    const dialog = page.getByTestId('issue-password-dialog');
    await dialog.waitFor();
    await settle(page);
    // The keyboard starts on who the password is for, the stay's guest; arrows choose another.
    await expect.poll(() => focusedId(page)).toBe('issue-holder-stay');
    expect(await page.getByTestId('issue-holder-stay').isChecked()).toBe(true);
    if (holder === 'standalone') {
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      expect(await page.getByTestId('issue-holder-standalone').isChecked()).toBe(true);
      await page.getByTestId('issue-holder-name').fill('Night porter');
    }
    expect(await page.getByTestId('issue-kind-custom').isChecked()).toBe(true);

    // A bad format is refused with the spec's message, in the console's language.
    await page.getByTestId('issue-code').fill('12a4');
    await page.getByTestId('issue-password-submit').click();
    await expect.poll(() => page.locator('#issue-code-error').innerText()).toBe(text(header, 'validation.customPasswordFormat'));
    expect(await page.getByTestId('issue-code').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, `issue-password-bad-code-${header}`);

    // Over the air: the cloud's rules are said, and the validity the lock will apply.
    await page.getByTestId('issue-kind-air').check();
    await page.getByTestId('air-password-rules').waitFor();
    await page.getByTestId('issue-effective-validity').waitFor();
    await screenshot(page, `issue-password-air-${header}`);
    await page.getByTestId('issue-kind-custom').check();

    await page.getByTestId('issue-code').fill(pin);
    await slowLock(lockId, 2_500);
    let id: string;
    try {
      await page.getByTestId('issue-password-submit').click();
      await dialog.waitFor({ state: 'detached', timeout: 20_000 });
      // The new row, first (newest first): sending, then on the lock, with no reload.
      const rows = page.locator('[data-testid^="password-row-"]');
      await expect.poll(() => rows.count()).toBe(before + 1);
      const row = rows.first();
      id = (await row.getAttribute('data-testid'))!.replace('password-row-', '');
      await waitForState(row, 'pending');
      expect(await row.getByTestId('delivery-state').innerText()).toBe(text(header, 'credentials.states.pending'));
      await page.getByTestId('credentials-tab').scrollIntoViewIfNeeded();
      await snapNow(page, `credentials-pending-${header}`);
      await waitForState(row, 'on_lock');
      expect(await row.getByTestId('delivery-state').innerText()).toBe(text(header, 'credentials.states.on_lock'));
    } finally {
      await slowLock(lockId, null);
    }
    expect(await sim<{ opened: boolean }>('POST', `/locks/${lockId}/use`, { passcode: pin })).toMatchObject({ opened: true });

    // The digits are hidden until asked for.
    const code = page.getByTestId(`password-${id}-code`);
    expect(await code.innerText()).not.toContain(pin);
    await page.getByTestId(`password-${id}-reveal`).click();
    expect(await code.innerText()).toBe(pin);
    await page.getByTestId('credentials-tab').scrollIntoViewIfNeeded();
    await screenshot(page, `credentials-tab-${header}`);

    // Revoked after a confirmation: taken off the lock, then gone from the active list.
    await page.getByTestId(`password-${id}-revoke`).click();
    const confirm = page.getByTestId('revoke-password-dialog');
    await confirm.waitFor();
    await screenshot(page, `credentials-revoke-${header}`);
    await page.getByTestId('revoke-password-confirm').click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByTestId(`password-row-${id}`).waitFor({ state: 'detached', timeout: 20_000 });
    expect(await sim<{ opened: boolean }>('POST', `/locks/${lockId}/use`, { passcode: pin })).toMatchObject({ opened: false });

    // The history keeps it, removed, with why.
    await page.getByTestId('credentials-scope-history').click();
    const past = page.getByTestId(`password-row-${id}`);
    await past.waitFor();
    expect(await past.getAttribute('data-state')).toBe('removed');
    expect(await past.innerText()).toContain(text(header, 'credentials.revokeReasons.manual'));
    await page.getByTestId('credentials-tab').scrollIntoViewIfNeeded();
    await screenshot(page, `credentials-history-${header}`);
  });
});
