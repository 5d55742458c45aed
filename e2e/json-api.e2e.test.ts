import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, closeRedis, launchBrowser, screenshot, signIn } from './support';
import { LANGUAGES, api, languageRuns, text, withPage } from './support-board';

/**
 * The JSON API's reference (/api/v1/docs, docs/api.md) in Chinese, English and Arabic: the demo
 * owner opens it from the API keys page (its link in the console's language); it is served by the
 * console with its renderer bundled, and loads with every other origin cut off (no request leaves
 * for another origin, nothing refused by the console's CSP); its own header is in the reader's
 * language and direction and leads back to the keys; it shows the document generated from the
 * code, its operations by area; a key made by the demo owner lists the rooms through the API, as
 * the quick-start does with curl.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await closeRedis();
});

describe.each(languageRuns(LANGUAGES, import.meta.url))('the JSON API reference in $header', ({ code, header }) => {
  it('opens from the API keys page, loads from the console alone with its header translated; a key lists the rooms', async () => {
    await withPage(browser, { language: code }, async (page) => {
      const context = page.context();
      const elsewhere: string[] = [];
      const problems: string[] = [];
      // Offline as a self-hosted install may be: every other origin is cut off, and any request there is recorded.
      await context.route(
        (url) => !url.href.startsWith(baseUrl()) && url.protocol !== 'data:',
        (route) => {
          elsewhere.push(route.request().url());
          return route.abort('internetdisconnected');
        },
      );
      context.on('request', (r) => {
        if (!r.url().startsWith(baseUrl()) && !r.url().startsWith('data:')) elsewhere.push(r.url());
      });
      context.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text());
      });
      context.on('weberror', (e) => problems.push(e.error().message));

      await signIn(page, DEMO_OWNER);
      await page.getByTestId('menu-third-party-authorization').click();
      await page.getByTestId('api-keys-page').waitFor();
      const link = page.getByTestId('api-keys-reference');
      expect((await link.textContent())?.trim()).toBe(text(header, 'apiKeys.reference'));
      expect(await link.getAttribute('href')).toMatch(/^\/api\/v1\/docs\?lang=/);

      // The link opens the reference in a tab of its own.
      const [docs] = await Promise.all([context.waitForEvent('page'), link.click()]);
      await docs.locator('.swagger-ui .info .title').getByText('Hotel console JSON API').waitFor();
      // Busy until Swagger UI has drawn the document (a check of the page before then found no heading).
      await docs.waitForSelector('#swagger-ui:not([aria-busy])');
      expect(await docs.title()).toBe(text(header, 'apiKeys.reference'));
      const own = docs.getByTestId('api-docs-header');
      expect(await own.getAttribute('lang')).toBe(header);
      expect(await own.getAttribute('dir')).toBe(header === 'ar' ? 'rtl' : 'ltr');
      expect(await own.locator('p').textContent()).toBe(text(header, 'apiKeys.referenceNote'));
      // The operations, grouped by tag, as the document names them.
      for (const tag of ['Hotel', 'Guests', 'Rooms', 'Stays', 'Credentials', 'Folio', 'Locks']) await docs.locator(`.opblock-tag[data-tag="${tag}"]`).waitFor();
      // One operation opened: its parameters, the Idempotency-Key among them.
      await docs.locator('.opblock-summary-path[data-path="/api/v1/reservations"]').first().click();
      await docs.locator('.opblock.is-open .parameters').getByText('Idempotency-Key').first().waitFor();
      await screenshot(docs, `json-api-docs-${header}`);

      // Its header leads back to the keys.
      const back = docs.getByTestId('api-docs-back');
      expect(await back.textContent()).toBe(text(header, 'apiKeys.referenceBack'));
      await back.click();
      await docs.getByTestId('api-keys-page').waitFor();
      expect(elsewhere).toEqual([]);
      expect(problems).toEqual([]);

      // A key of the demo owner, and the quick-start's first call.
      const made = await api<{ key: string }>(page, 'apiKey.create', { name: `E2E JSON API ${header} ${Date.now()}`, permissions: ['room.read'] }, 'mutation');
      const rooms = await fetch(`${baseUrl()}/api/v1/rooms?limit=5`, { headers: { authorization: `Bearer ${made.key}` } });
      expect(rooms.status).toBe(200);
      expect(rooms.headers.get('ratelimit-limit')).toMatch(/^\d+$/);
      const body = (await rooms.json()) as { items: { name: string }[]; nextCursor: string | null };
      expect(body.items.length).toBeGreaterThan(0);
    });
  });
});
