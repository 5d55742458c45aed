import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, closeRedis, launchBrowser, screenshot, signIn } from './support';
import { api, withPage } from './support-board';

/**
 * The JSON API's reference (/api/v1/docs, docs/api.md), in English: served by the console with its
 * renderer bundled (no request leaves for another origin, nothing refused by the console's CSP), it
 * shows the document generated from the code, its operations by area; a key made by the demo owner
 * lists the rooms through the API, as the quick-start does with curl.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await closeRedis();
});

describe('the JSON API reference', () => {
  it('shows the generated document with its operations, from the console alone; a key lists the rooms', async () => {
    await withPage(browser, { language: 'en' }, async (page) => {
      const elsewhere: string[] = [];
      const problems: string[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith(baseUrl()) && !r.url().startsWith('data:')) elsewhere.push(r.url());
      });
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(e.message));

      await page.goto(`${baseUrl()}/api/v1/docs`);
      await page.locator('.swagger-ui .info .title').getByText('Hotel console JSON API').waitFor();
      // The operations, grouped by tag, as the document names them.
      for (const tag of ['Rooms', 'Stays', 'Credentials', 'Folio', 'Locks']) await page.locator(`.opblock-tag[data-tag="${tag}"]`).waitFor();
      await page.locator('.opblock-summary-path[data-path="/api/v1/reservations"]').first().waitFor();
      // One operation opened: its parameters, the Idempotency-Key among them.
      await page.locator('.opblock-summary-path[data-path="/api/v1/reservations"]').first().click();
      await page.locator('.opblock.is-open .parameters').getByText('Idempotency-Key').first().waitFor();
      await screenshot(page, 'json-api-docs-en');
      expect(elsewhere).toEqual([]);
      expect(problems).toEqual([]);

      // A key of the demo owner, and the quick-start's first call.
      await signIn(page, DEMO_OWNER);
      const made = await api<{ key: string }>(page, 'apiKey.create', { name: `E2E JSON API ${Date.now()}`, permissions: ['room.read'] }, 'mutation');
      const rooms = await fetch(`${baseUrl()}/api/v1/rooms?limit=5`, { headers: { authorization: `Bearer ${made.key}` } });
      expect(rooms.status).toBe(200);
      expect(rooms.headers.get('ratelimit-limit')).toMatch(/^\d+$/);
      const body = (await rooms.json()) as { items: { name: string }[]; nextCursor: string | null };
      expect(body.items.length).toBeGreaterThan(0);
    });
  });
});
