import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, DEMO_STAFF, baseUrl, closeRedis, launchBrowser, screenshot, settle, signIn } from './support';
import { LANGUAGES, expectToast, text, withPage, languageRuns } from './support-board';

/**
 * Third-party authorisation (/thirdPartyAuthorization/thirdPartyAuthorization) in Chinese, English
 * and Arabic: the demo owner (apiKeyAuth) opens it from the menu, makes a key that may only read
 * rooms (the form's messages first, then managing implies reading, from the keyboard), sees it
 * once with its warning (closing asks whether it was copied; the copy button puts it on the clipboard), never again in the list; the key
 * works on the card-service gateway (GET /linQuan/getRoomListByHotelId, code 200) and its last use
 * shows; revoked after a confirmation, it leaves the keys in use, shows as revoked among all of
 * them, and the gateway refuses it. A member without apiKeyAuth has no menu entry.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await closeRedis();
});

/** The gateway's answer to the room list with a bearer token, as a third-party system would call it. */
async function gatewayRooms(key: string): Promise<{ status: number; code: number }> {
  const response = await fetch(`${baseUrl()}/linQuan/getRoomListByHotelId`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await response.json()) as { code: number };
  return { status: response.status, code: body.code };
}

const isChecked = (page: Page, id: string) =>
  page
    .getByTestId(id)
    .getAttribute('data-state')
    .then((s) => s === 'checked');
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

describe.each(languageRuns(LANGUAGES, import.meta.url))('third-party API keys in $header', ({ code, header }) => {
  it('makes a key that reads rooms, shows it once, the gateway takes it; revoked, the gateway refuses it', async () => {
    await withPage(browser, { language: code }, async (page) => {
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
      await signIn(page, DEMO_OWNER);
      // The owner has apiKeyAuth: the entry is in the menu.
      await page.getByTestId('menu-third-party-authorization').click();
      await page.waitForURL('**/thirdPartyAuthorization/thirdPartyAuthorization');
      await page.getByTestId('api-keys-page').waitFor();
      await page.locator('[data-testid="api-keys-table"], [data-testid="api-keys-empty"]').first().waitFor();
      expect(await page.title()).toContain(text(header, 'apiKeys.title'));
      expect(await page.getByTestId('menu-third-party-authorization').getAttribute('data-active')).toBe('true');
      expect(await page.locator('html').getAttribute('dir')).toBe(header === 'ar' ? 'rtl' : 'ltr');

      // "New key" from the keyboard: the name field has the focus.
      await page.getByTestId('api-key-new').focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByTestId('api-key-dialog');
      await dialog.waitFor();
      await settle(page);
      await expect.poll(() => focusedId(page)).toBe('api-key-name');

      // Sent empty: a name and something the key may do are asked for, in the page's language.
      await page.getByTestId('api-key-submit').click();
      await dialog.getByText(text(header, 'validation.nameRequired')).waitFor();
      await dialog.getByText(text(header, 'apiKeys.errors.scopeRequired')).waitFor();

      const name = `E2E ${code} ${Date.now()}`;
      await page.getByTestId('api-key-name').fill(name);
      // Managing rooms ticks reading them too; clearing reading clears managing (Space on the focused box).
      await page.getByTestId('api-key-perm-room-manage').click();
      expect(await isChecked(page, 'api-key-perm-room-read')).toBe(true);
      expect(await isChecked(page, 'api-key-perm-room-manage')).toBe(true);
      await page.getByTestId('api-key-perm-room-read').focus();
      await page.keyboard.press('Space');
      expect(await isChecked(page, 'api-key-perm-room-read')).toBe(false);
      expect(await isChecked(page, 'api-key-perm-room-manage')).toBe(false);
      await page.keyboard.press('Space');
      expect(await isChecked(page, 'api-key-perm-room-read')).toBe(true);
      expect(await isChecked(page, 'api-key-perm-room-manage')).toBe(false);
      // Each box is named by its area and column.
      expect(
        await dialog
          .getByRole('checkbox', { name: `${text(header, 'apiKeys.areas.room')} ${text(header, 'apiKeys.access.read')}`, exact: true })
          .getAttribute('data-testid'),
      ).toBe('api-key-perm-room-read');
      // Each box shows its scope's name in the API, as docs/api.md and the reference name it.
      expect(await page.getByTestId('api-key-perm-room-read-scope').innerText()).toBe('room.read');
      expect(await page.getByTestId('api-key-perm-stay-manage-scope').innerText()).toBe('stay.manage');
      // The area's row is named in the page's language.
      expect(await page.getByTestId('api-key-area-room').innerText()).toContain(text(header, 'apiKeys.areas.room'));
      expect(await dialog.getByText(text(header, 'apiKeys.errors.scopeRequired')).count()).toBe(0);
      await screenshot(page, `api-keys-new-${header}`);

      await page.getByTestId('api-key-submit').click();
      const created = page.getByTestId('api-key-created-dialog');
      await created.waitFor();
      const key = await page.getByTestId('api-key-secret').inputValue();
      expect(key).toMatch(/^slk_[A-Za-z0-9_-]{40,}$/);
      expect(await page.getByTestId('api-key-once-warning').innerText()).toBe(text(header, 'apiKeys.created.warning'));
      expect(await created.innerText()).toContain(text(header, 'apiKeys.created.title', { name }));
      await screenshot(page, `api-keys-created-${header}`);

      // Closing asks whether it was copied: "back" keeps the key on screen, then Escape asks again and it closes.
      await page.getByTestId('api-key-done').click();
      const ask = page.getByTestId('api-key-close-confirm');
      await ask.waitFor();
      expect(await ask.innerText()).toContain(text(header, 'apiKeys.created.confirmNotCopied'));
      await ask.getByRole('button', { name: text(header, 'apiKeys.created.confirmBack') }).click();
      await ask.waitFor({ state: 'detached' }).catch(() => ask.waitFor({ state: 'hidden' }));
      expect(await created.isVisible()).toBe(true);
      // Copied to the clipboard: the closing question says so.
      await page.getByTestId('api-key-copy').click();
      await page.getByTestId('api-key-copy-state').getByText(text(header, 'apiKeys.created.copiedHint')).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
      await page.keyboard.press('Escape');
      await ask.waitFor();
      expect(await ask.innerText()).toContain(text(header, 'apiKeys.created.confirmCopied'));
      await page.getByTestId('api-key-close-confirm-yes').click();
      await created.waitFor({ state: 'hidden' });

      // The list names the key by its first characters; the key itself is nowhere on the page again.
      const row = page.locator('[data-testid^="api-key-row-"]', { hasText: name });
      await row.waitFor();
      const id = (await row.getAttribute('data-testid'))!.replace('api-key-row-', '');
      expect(await row.getAttribute('data-state')).toBe('active');
      expect(await row.getByTestId('api-key-prefix').innerText()).toContain(key.slice(0, 12));
      expect(await page.content()).not.toContain(key);
      const badges = row.getByTestId('api-key-permissions').locator('[data-area]');
      expect(await badges.count()).toBe(1);
      expect(await badges.first().getAttribute('data-area')).toBe('room');
      expect(await badges.first().getAttribute('data-access')).toBe('read');
      // Each badge names the scopes in the API's words too (docs/api.md, the reference's "Scope:").
      expect((await badges.first().innerText()).replace(/\s+/g, ' ')).toBe(
        `${text(header, 'apiKeys.areas.room')} · ${text(header, 'apiKeys.access.read')} room.read`,
      );
      expect(await row.getByTestId('api-key-state').innerText()).toBe(text(header, 'apiKeys.states.active'));
      expect(await row.getByTestId('api-key-last-used').innerText()).toBe(text(header, 'apiKeys.neverUsed'));

      // A third-party system uses it on the card-service gateway.
      expect(await gatewayRooms(key)).toMatchObject({ status: 200, code: 200 });
      await page.reload();
      await row.waitFor();
      expect(await row.getByTestId('api-key-last-used').innerText()).not.toBe(text(header, 'apiKeys.neverUsed'));
      await screenshot(page, `api-keys-list-${header}`);

      // Revoked after a confirmation (from the keyboard): gone from the keys in use.
      await page.getByTestId(`api-key-revoke-${id}`).focus();
      await page.keyboard.press('Enter');
      const revokeDialog = page.getByTestId('api-key-revoke-dialog');
      await revokeDialog.waitFor();
      expect(await revokeDialog.innerText()).toContain(text(header, 'apiKeys.revoke.title', { name }));
      await screenshot(page, `api-keys-revoke-${header}`);
      await page.getByTestId('api-key-revoke-confirm').click();
      await expectToast(page, text(header, 'apiKeys.revoke.succeeded', { name }));
      await row.waitFor({ state: 'detached' });
      // Among all keys it shows as revoked, with nothing left to do.
      await page.getByTestId('api-keys-show-all').click();
      const revokedRow = page.locator(`[data-testid="api-key-row-${id}"][data-state="revoked"]`);
      await revokedRow.waitFor();
      expect(await revokedRow.getByTestId('api-key-state').innerText()).toBe(text(header, 'apiKeys.states.revoked'));
      expect(await page.getByTestId(`api-key-revoke-${id}`).count()).toBe(0);
      await screenshot(page, `api-keys-revoked-${header}`);

      // The gateway refuses it from now on.
      const refused = await gatewayRooms(key);
      expect(refused.code).not.toBe(200);
      expect(refused.status).toBe(401);
    });
  });

  it.runIf(code === 'chs')('has no menu entry for a member without apiKeyAuth', async () => {
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page, DEMO_STAFF);
      await page.getByTestId('menu-room-board').waitFor();
      expect(await page.getByTestId('menu-third-party-authorization').count()).toBe(0);
    });
  });
});
