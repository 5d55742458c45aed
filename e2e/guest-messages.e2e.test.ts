import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUEST_MESSAGE_SAMPLE, GUEST_MESSAGE_VARIABLES, renderTemplate } from '@console/shared';
import { DEMO_OWNER, baseUrl, closeRedis, launchBrowser, newContext, readSmsOutbox, root, screenshot, signIn } from './support';
import { digits, languageRuns } from './support-board';
import { closeGuestKeys, guestKeysDialog } from './support-keys';
import { pairedRoom } from './support-locks';
import { closeSql, sql, text, waitForRoomStatus } from './support-stays';

/**
 * Guest messages (issue 20 §3, docs/guest-messages.md) in Chinese, English and Arabic: the settings
 * page shows each template with its variables and a preview; a template naming an unknown variable
 * is refused with the translated error, a valid one is saved as the hotel's own text, and reset
 * brings the product's text back. A guest checked in with a door code is told it once the lock
 * has confirmed it: the stay card's log shows the SMS sent (and the dev SMS outbox holds it), the
 * e-mail failed because this console has no SMTP server, and "send again" sends them again.
 * Rooms GM-zh, GM-en and GM-ar are this file's own, each paired with a new simulated lock.
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
  { code: 'chs', header: 'zh-CN', room: 'GM-zh', guest: '林小雨', mobile: '13700002001', pin: '618204' },
  { code: 'en', header: 'en', room: 'GM-en', guest: 'Nora Quinn', mobile: '13700002002', pin: '729315' },
  { code: 'Arabic', header: 'ar', room: 'GM-ar', guest: 'سلمى ناصر', mobile: '13700002003', pin: '830426' },
] as const;

/** Waits until an element of the page shows exactly this text. */
const shows = (page: Page, selector: string, expected: string) =>
  page.waitForFunction(([s, t]) => document.querySelector(s)?.textContent?.trim() === t, [selector, expected] as const, { timeout: 15_000 });

/** The product's text of a message as the locale file holds it, its variables left in (`text` fills them). */
function productTemplate(header: string, key: 'sms' | 'emailSubject' | 'emailBody'): string {
  const locale = JSON.parse(fs.readFileSync(path.join(root, 'locales', `${header}.json`), 'utf8')) as { guestMessages: { defaults: Record<string, string> } };
  return locale.guestMessages.defaults[key]!;
}

const smsTo = async (mobile: string) => (await readSmsOutbox()).filter((m) => m.to === mobile);

describe.each(languageRuns(RUNS, import.meta.url))('guest messages in $header', ({ code, header, room, guest, mobile, pin }) => {
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

  it('shows the SMS template with its variables and a preview, refuses an unknown variable, saves the hotel’s own text and resets it', async () => {
    await page.goto(`${baseUrl()}/guestMessages`);
    await page.getByTestId('guest-messages-page').waitFor();
    // The interface language's SMS, the product's text, previewed with the sample values.
    const body = page.getByTestId('guest-messages-body');
    await body.waitFor();
    expect(await page.getByTestId('guest-messages-language').inputValue()).toBe(header);
    expect(await page.getByTestId('guest-messages-channel').inputValue()).toBe('sms');
    const kind = '[data-testid="guest-messages-template-kind"]';
    await shows(page, kind, text(header, 'guestMessages.isDefault'));
    const productText = productTemplate(header, 'sms');
    expect(await body.inputValue()).toBe(productText);
    const preview = page.getByTestId('guest-messages-preview');
    expect((await preview.innerText()).trim()).toBe(renderTemplate(productText, GUEST_MESSAGE_SAMPLE));
    for (const name of GUEST_MESSAGE_VARIABLES) {
      const variable = page.getByRole('button', { name: `{{${name}}} ${text(header, `guestMessages.vars.${name}`)}` });
      expect(await variable.count()).toBe(1);
    }
    await screenshot(page, `guest-messages-default-${header}`);

    // A variable that does not exist: the translated error, and nothing to save.
    await body.fill(`${productText} {{roomNumber}}`);
    await shows(page, '[data-testid="guest-messages-unknown"]', text(header, 'guestMessages.errors.unknownVariable', { names: '{{roomNumber}}' }));
    expect(await page.getByTestId('guest-messages-save').isDisabled()).toBe(true);
    await screenshot(page, `guest-messages-unknown-${header}`);

    // A valid text (a variable inserted by its button): saved as the hotel's own, kept on reload.
    await body.fill(`${room} · {{guest}} · `);
    await page.getByRole('button', { name: `{{code}} ${text(header, 'guestMessages.vars.code')}` }).click();
    const own = `${room} · {{guest}} · {{code}}`;
    await page.waitForFunction((value) => (document.querySelector('[data-testid="guest-messages-body"]') as HTMLTextAreaElement).value === value, own);
    expect(await page.getByTestId('guest-messages-unknown').count()).toBe(0);
    await shows(page, '[data-testid="guest-messages-preview"]', renderTemplate(own, GUEST_MESSAGE_SAMPLE));
    await page.getByTestId('guest-messages-save').click();
    await page.getByText(text(header, 'guestMessages.saved')).waitFor();
    await shows(page, kind, text(header, 'guestMessages.isOwn'));
    await page.reload();
    await page.getByTestId('guest-messages-page').waitFor();
    await shows(page, kind, text(header, 'guestMessages.isOwn'));
    expect(await body.inputValue()).toBe(own);
    const saved = await sql<{ body: string }>(`SELECT body FROM "GuestMessageTemplate" WHERE channel = 'sms' AND language = $1`, [header]);
    expect(saved.map((t) => t.body)).toEqual([own]);
    await screenshot(page, `guest-messages-own-${header}`);

    // Reset: the product's text again.
    await page.getByTestId('guest-messages-reset').click();
    await page.getByText(text(header, 'guestMessages.resetDone')).waitFor();
    await shows(page, kind, text(header, 'guestMessages.isDefault'));
    expect(await body.inputValue()).toBe(productText);
    expect(await page.getByTestId('guest-messages-reset').isDisabled()).toBe(true);
    expect(await sql(`SELECT id FROM "GuestMessageTemplate" WHERE channel = 'sms' AND language = $1`, [header])).toEqual([]);
  });

  it('says which address guests see the e-mail from and that replies go to the hotel’s address (issue 27 §8)', async () => {
    await page.goto(`${baseUrl()}/guestMessages`);
    const seen = page.getByTestId('guest-messages-sender-seen');
    await seen.waitFor();
    // This console has no SMTP_FROM: no sender address, and it says why.
    expect((await page.getByTestId('guest-messages-seen-from').innerText()).trim()).toBe('—');
    expect((await page.getByTestId('guest-messages-seen-why').innerText()).trim()).toBe(text(header, 'guestMessages.seen.noSender'));
    const address = `front-desk-${header.toLowerCase()}@harbour-e2e.example`;
    await page.getByTestId('guest-messages-sender-name').fill(`${room} desk`);
    await page.getByTestId('guest-messages-sender-email').fill(address);
    await page.getByTestId('guest-messages-seen-unsaved').waitFor();
    await page.getByTestId('guest-messages-save-settings').click();
    await page.getByText(text(header, 'guestMessages.settingsSaved')).waitFor();
    await page.getByTestId('guest-messages-seen-reply-to').filter({ hasText: address }).waitFor();
    expect(await page.getByTestId('guest-messages-seen-reply-to').innerText()).toContain(`${room} desk`);
    expect(await page.getByTestId('guest-messages-seen-unsaved').count()).toBe(0);
    // The hourly limit of the install (the default), nothing held.
    expect((await page.getByTestId('guest-messages-mail-limit').innerText()).trim()).toBe(
      text(header, 'guestMessages.limit.perHour', { n: digits(header, 200) }),
    );
    await seen.scrollIntoViewIfNeeded();
    await screenshot(page, `guest-messages-sender-${header}`);
    expect(await sql(`SELECT "hotelId" FROM "GuestMessageSettings" WHERE "senderEmail" = $1`, [address])).toHaveLength(1);
  });

  it(`tells a guest checked in to ${room} with a door code by SMS once the lock confirmed it, logs the e-mail that could not be sent, and sends again`, async () => {
    const { roomId } = await pairedRoom(room);
    const email = `guest-${header.toLowerCase()}@example.com`;
    await page.goto(`${baseUrl()}/room/${roomId}`);
    await page.getByTestId('room-detail').waitFor();
    await page.getByTestId('action-check-in').click();
    const dialog = page.getByTestId('check-in-dialog');
    await dialog.waitFor();
    await page.locator('#guest-0-name').fill(guest);
    await page.locator('#guest-0-mobile').fill(mobile);
    await page.locator('#guest-0-email').fill(email);
    await page.getByTestId('issuePassword').click();
    await page.getByTestId('passwordCode').fill(pin);
    await page.getByTestId('check-in-submit').click();
    await dialog.waitFor({ state: 'detached', timeout: 20_000 });
    await waitForRoomStatus(page, 'checked_in');
    const keys = await guestKeysDialog(page, 'check_in');
    await keys.locator('[data-testid^="guest-keys-password-"][data-state="on_lock"]').waitFor({ timeout: 20_000 });
    await closeGuestKeys(page);

    // Once the lock confirmed the code: the SMS sent, the e-mail failed (no SMTP server here), and why.
    const log = page.getByTestId('stay-messages');
    await log.waitFor();
    const sms = log.locator('[data-testid="stay-message"][data-channel="sms"]');
    const mail = log.locator('[data-testid="stay-message"][data-channel="email"]');
    await sms.and(page.locator('[data-state="sent"]')).waitFor({ timeout: 20_000 });
    await mail.and(page.locator('[data-state="failed"]')).waitFor({ timeout: 20_000 });
    expect(await sms.innerText()).toContain(mobile);
    expect(await sms.innerText()).toContain(text(header, 'guestMessages.states.sent'));
    expect(await sms.innerText()).toContain(text(header, 'guestMessages.triggers.on_lock'));
    expect(await mail.innerText()).toContain(email);
    expect(await mail.innerText()).toContain(text(header, 'guestMessages.states.failed'));
    expect((await mail.getByTestId('stay-message-error').innerText()).trim()).toBe(
      `${text(header, 'guestMessages.failures.not_configured')} (SMTP_URL is not set)`,
    );
    const sent = await smsTo(mobile);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain(pin);
    expect(sent[0]!.text).toContain(room);
    expect(sent[0]!.text).toContain(guest);
    await log.scrollIntoViewIfNeeded();
    await screenshot(page, `guest-messages-log-${header}`);

    // Send again: both queued again, the SMS sent with the same code, the e-mail failing as before.
    await page.getByTestId('stay-messages-send-again').click();
    await page.getByText(text(header, 'guestMessages.log.queuedAgain')).waitFor();
    await sms.nth(1).and(page.locator('[data-state="sent"]')).waitFor({ timeout: 20_000 });
    await mail.nth(1).and(page.locator('[data-state="failed"]')).waitFor({ timeout: 20_000 });
    expect(await sms.filter({ hasText: text(header, 'guestMessages.triggers.again') }).count()).toBe(1);
    expect(await mail.filter({ hasText: text(header, 'guestMessages.triggers.again') }).count()).toBe(1);
    await expect.poll(async () => (await smsTo(mobile)).length).toBe(2);
    expect((await smsTo(mobile))[1]!.text).toContain(pin);
    await screenshot(page, `guest-messages-again-${header}`);
  });
});
