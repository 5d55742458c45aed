import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, closeRedis, launchBrowser, newContext, screenshot, signIn, inContext } from './support';
import { LANGUAGES, answerOf, api, expectToast, text, withPage, languageRuns } from './support-board';
import { checkInNow, ownRoom } from './support-money';
import { closeSql } from './support-stays';

/**
 * Hotel information and the personal centre (issue 9 §4) in Chinese, English and Arabic. The
 * owner changes the hotel's time zone on /hotelInfo from the keyboard; the audit log then shows
 * that change's time in the new zone (not in the old one). On /center/personalCenter the owner
 * changes the nickname (the navbar follows), sees a second browser's session in the list, signs
 * out everywhere else after a confirmation, and the second browser is signed out. The demo
 * hotel's time zone is put back at the end.
 */

type Hotel = { timeZone: string };
type AuditPage = { items: { id: number; at: string; action: string }[] };

let browser: Browser;
let originalZone = 'Asia/Shanghai';
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  // The other browser tests expect the demo hotel in its own zone.
  await withPage(browser, {}, async (page) => {
    await signIn(page, DEMO_OWNER);
    await api(page, 'hotel.update', { timeZone: originalZone }, 'mutation');
  }).catch(() => undefined);
  await browser?.close();
  await closeRedis();
  await closeSql();
});

const formatIn = (page: Page, header: string, at: string, timeZone: string) =>
  page.evaluate(({ header, at, timeZone }) => new Intl.DateTimeFormat(header, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(at)), {
    header,
    at,
    timeZone,
  });

describe.each(languageRuns(LANGUAGES, import.meta.url))('hotel information and the personal centre in $header', ({ code, header }) => {
  const zone = { chs: 'America/New_York', en: 'Pacific/Auckland', Arabic: 'Europe/London' }[code];

  it("changes the hotel's time zone from the keyboard, and a list shows its times in the new zone", async () => {
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page, DEMO_OWNER);
      const before = await api<Hotel>(page, 'hotel.info', {});
      if (code === 'chs') originalZone = before.timeZone;
      await page.goto(`${baseUrl()}/hotelInfo`);
      await page.getByTestId('hotel-info-form').waitFor();
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(text(header, 'settings.hotel.title'));
      // The menu leads here (owners and administrators).
      expect(await page.locator(`a[href="/hotelInfo"]`).count()).toBeGreaterThan(0);

      // A latitude out of range is said under its field, in the language.
      await page.getByTestId('hotel-latitude').fill('95');
      await page.getByTestId('hotel-longitude').fill('121.47');
      await page.getByTestId('hotel-save').click();
      await page.locator('#hotel-latitude-error').getByText(text(header, 'settings.validation.latitudeInvalid')).waitFor();
      await page.getByTestId('hotel-latitude').fill('31.23');

      // The time zone, chosen and saved from the keyboard.
      await page.getByTestId('hotel-timeZone').focus();
      await page.getByTestId('hotel-timeZone').selectOption(zone);
      await page.keyboard.press('Tab');
      // A disabled button takes no focus: wait until it may be pressed, then focus it and press Enter.
      await expect.poll(() => page.getByTestId('hotel-save').isEnabled()).toBe(true);
      const saved = answerOf(page, 'hotel.update');
      await page.getByTestId('hotel-save').press('Enter');
      await saved;
      await expectToast(page, text(header, 'settings.hotel.saved'));
      await expect.poll(async () => (await api<Hotel>(page, 'hotel.info', {})).timeZone).toBe(zone);
      await screenshot(page, `settings-hotel-${header}`);

      // The audit log lists the change first, its time in the new zone.
      const audit = await api<AuditPage>(page, 'audit.list', { page: 1, pageSize: 5, action: 'hotel.update' });
      const entry = audit.items[0]!;
      await page.goto(`${baseUrl()}/auditLog`);
      const row = page.getByTestId(`audit-${entry.id}`);
      await row.waitFor();
      const shown = await row.locator('time').innerText();
      expect(shown).toBe(await formatIn(page, header, entry.at, zone));
      expect(shown).not.toBe(await formatIn(page, header, entry.at, before.timeZone));
    });
  });

  it('sets the tax included in room prices, refusing a rate that is not one, in force from the save; the bill says it (issue 36)', async () => {
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page, DEMO_OWNER);
      let stayId: number | null = null;
      try {
        await api(page, 'hotel.setTaxRule', { appliesTo: 'rooms', ratePercent: null }, 'mutation');
        await page.goto(`${baseUrl()}/hotelInfo`);
        const card = page.getByTestId('tax-rules');
        await card.getByText(text(header, 'settings.taxes.none')).first().waitFor();
        await page.getByTestId('tax-rooms').fill('6.125');
        await page.getByTestId('tax-save').click();
        await card.getByText(text(header, 'settings.validation.taxRateInvalid')).waitFor();
        await page.getByTestId('tax-rooms').fill('6');
        const saved = answerOf(page, 'hotel.setTaxRule');
        await page.getByTestId('tax-save').click();
        await saved;
        await expectToast(page, text(header, 'settings.taxes.saved'));
        // The toast stands below the header, never over its buttons and breadcrumb (issue 39 §12), once it has slid in.
        const headerBottom = await page
          .locator('header')
          .first()
          .evaluate((h) => h.getBoundingClientRect().bottom);
        await expect
          .poll(() =>
            page
              .locator('[data-sonner-toast]', { hasText: text(header, 'settings.taxes.saved') })
              .first()
              .evaluate((t) => t.getBoundingClientRect().top),
          )
          .toBeGreaterThanOrEqual(headerBottom);
        expect((await api<{ rooms: { ratePercent: number } | null }>(page, 'hotel.taxRules', {})).rooms?.ratePercent).toBe(6);
        await expect.poll(() => page.getByTestId('tax-rooms').inputValue()).toBe('6');
        await screenshot(page, `settings-taxes-${header}`);

        // A guest checked in now: the bill's room charge says the tax it includes (299.00 at 6 %: 16.92).
        const roomId = await ownRoom(`Tax-${code}`);
        stayId = (await checkInNow(page, roomId, `Taxed ${code}`)).id;
        await page.goto(`${baseUrl()}/room/${roomId}`);
        const tax = page.locator('[data-testid="folio-entry"][data-kind="room_charge"] [data-testid="folio-entry-tax"]');
        await tax.waitFor();
        expect(await tax.textContent()).toMatch(/16[.,]92|١٦٫٩٢/);
        await screenshot(page, `bill-tax-${header}`);
      } finally {
        // The other browser tests expect the demo hotel without taxes, and the file's room empty.
        await api(page, 'hotel.setTaxRule', { appliesTo: 'rooms', ratePercent: null }, 'mutation').catch(() => undefined);
        if (stayId) await api(page, 'stay.checkOut', { stayId }, 'mutation').catch(() => undefined);
      }
    });
  });

  it('adds a rate on top of room prices and a city tax, refusing an amount that is not one; the bill shows each as a tax line (issue 36)', async () => {
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page, DEMO_OWNER);
      let stayId: number | null = null;
      const reset = async () => {
        await api(page, 'hotel.setTaxRule', { appliesTo: 'rooms', ratePercent: null }, 'mutation');
        await api(page, 'hotel.setCityTax', { amountPerNight: null }, 'mutation');
      };
      try {
        await reset();
        await page.goto(`${baseUrl()}/hotelInfo`);
        const card = page.getByTestId('tax-rules');
        await card.getByText(text(header, 'settings.taxes.cityHint')).waitFor();
        await page.getByTestId('tax-rooms').fill('10');
        await page.getByTestId('tax-rooms-mode').selectOption('added');
        await page.getByTestId('tax-city').fill('0');
        await page.getByTestId('tax-save').click();
        await card.getByText(text(header, 'settings.validation.cityTaxInvalid')).waitFor();
        await page.getByTestId('tax-city').fill('2.50');
        const saved = answerOf(page, 'hotel.setCityTax');
        await page.getByTestId('tax-save').click();
        await saved;
        await expectToast(page, text(header, 'settings.taxes.saved'));
        expect(await api(page, 'hotel.taxRules', {})).toMatchObject({ rooms: { ratePercent: 10, mode: 'added' }, extras: null, city: { amountPerNight: 250 } });
        await expect.poll(() => page.getByTestId('tax-rooms-mode').inputValue()).toBe('added');
        await screenshot(page, `settings-taxes-added-${header}`);

        // A guest checked in now for a night at 299.00: 29.90 of tax on top, and 2.50 of city tax, each a tax line.
        const roomId = await ownRoom(`TaxAdded-${code}`);
        stayId = (await checkInNow(page, roomId, `Taxed ${code}`)).id;
        await page.goto(`${baseUrl()}/room/${roomId}`);
        const lines = page.locator('[data-testid="folio-entry"][data-tax]');
        await expect.poll(() => lines.count()).toBe(2);
        expect(await lines.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-amount')))).toEqual(['-2990', '-250']);
        const [added, city] = [await lines.nth(0).innerText(), await lines.nth(1).innerText()];
        expect(added).toContain(text(header, 'orders.taxLine'));
        expect(added).toContain(text(header, 'orders.notes.taxAdded', { rate: '10' }));
        expect(city).toContain(text(header, 'orders.notes.cityTax', { nights: 1 }));
        // A tax is not corrected alone: no "correct" beside it.
        expect(await lines.locator('[data-testid="folio-correct"]').count()).toBe(0);
        await screenshot(page, `bill-tax-added-${header}`);
      } finally {
        // The other browser tests expect the demo hotel without taxes, and the file's room empty.
        await reset().catch(() => undefined);
        if (stayId) await api(page, 'stay.checkOut', { stayId }, 'mutation').catch(() => undefined);
      }
    });
  });

  it('changes the nickname, and signs out a second browser everywhere else after a confirmation', async () => {
    // A second browser signed in as the same account.
    const other = await newContext(browser, { language: code });
    const otherPage = await other.newPage();
    await inContext(other, async () => {
      await signIn(otherPage, DEMO_OWNER);
      await withPage(browser, { language: code }, async (page) => {
        await signIn(page, DEMO_OWNER, '/center/personalCenter');
        await page.getByTestId('personal-center').waitFor();
        const original = await page.getByTestId('nickname').inputValue();
        const nickname = `Owner ${code}`;
        await page.getByTestId('nickname').fill(nickname);
        await page.getByTestId('nickname').press('Enter');
        await expectToast(page, text(header, 'settings.personal.nicknameSaved'));
        await page.getByTestId('user-menu').getByText(nickname).waitFor();

        // Links to the card pages and the fingerprint test.
        for (const id of ['link-management-cards', 'link-universal-cards', 'link-finger-test']) await page.getByTestId(id).waitFor();

        // The current session is marked; the second browser's is listed too.
        const rows = page.getByTestId('session-row');
        await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(2);
        expect(await page.locator('[data-testid="session-row"][data-current="true"]').count()).toBe(1);
        await screenshot(page, `settings-personal-${header}`);
        await page.getByTestId('sessions').scrollIntoViewIfNeeded();
        await screenshot(page, `settings-sessions-${header}`);

        await page.getByTestId('sessions-revoke-others').click();
        await page.getByRole('alertdialog').waitFor();
        await expect(page.getByRole('alertdialog').innerText()).resolves.toContain(text(header, 'settings.sessions.confirmTitle'));
        await screenshot(page, `settings-sessions-confirm-${header}`);
        await page.getByTestId('sessions-revoke-others-confirm').click();
        await page.getByRole('alertdialog').waitFor({ state: 'detached' });
        await expect.poll(() => rows.count()).toBe(1);

        // This browser still works; the other one is signed out at its next request.
        expect((await api<{ id: number }>(page, 'auth.me', undefined)).id).toBeGreaterThan(0);
        const status = await otherPage.evaluate(async () => (await fetch('/trpc/auth.me', { headers: { language: 'en' } })).status);
        expect(status).toBe(401);
        await otherPage.reload();
        await otherPage.getByRole('alertdialog').or(otherPage.locator('#account')).first().waitFor();

        await api(page, 'account.updateNickname', { nickname: original }, 'mutation');
      });
    });
  });
});
