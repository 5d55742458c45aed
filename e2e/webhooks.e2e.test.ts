import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../apps/server/src/modules/webhooks/verify-example';
import { baseUrl, closeRedis, launchBrowser, screenshot, signIn } from './support';
import { LANGUAGES, api, text, withPage, languageRuns } from './support-board';

/**
 * The webhooks page (issue 29 §2, docs/webhooks.md) in Chinese, English and Arabic: a manager adds
 * an endpoint of a receiver this test runs on 127.0.0.1 (the e2e console allows loopback, as an
 * install may), sees its secret once, sends a test event that the receiver gets signed with that
 * secret, reads the delivery log, sends it again (the same webhook-id), and deletes the endpoint
 * after a confirmation.
 */

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

let browser: Browser;
let server: http.Server;
const received: Received[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await closeRedis();
});

describe.each(languageRuns(LANGUAGES, import.meta.url))('webhooks in $header', ({ code, header }) => {
  it('adds an endpoint, shows its secret once, sends a signed test event, logs it, sends it again and deletes it', async () => {
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page);
      const path = `/hooks/${header}-${Date.now()}`;
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
      const before = received.length;
      try {
        await page.goto(`${baseUrl()}/webhooks`);
        await page.getByTestId('webhooks-page').waitFor();
        await page
          .getByRole('heading', { name: text(header, 'webhooks.title') })
          .first()
          .waitFor();
        await page.getByTestId('webhook-new').click();
        await page.getByTestId('webhook-url').fill(url);
        await page.getByTestId('webhook-description').fill('PMS');
        await page.getByRole('checkbox', { name: text(header, 'webhooks.events.reservation_created') }).click();
        await page.getByRole('checkbox', { name: text(header, 'webhooks.events.credential_on_lock') }).click();
        await page.getByTestId('webhook-submit').click();
        await page.getByTestId('webhook-secret-dialog').waitFor();
        await page.getByText(text(header, 'webhooks.secret.warning')).waitFor();
        const secret = await page.getByTestId('webhook-secret').inputValue();
        expect(secret).toMatch(/^whsec_/);
        await page.getByTestId('webhook-secret-copy').click();
        await screenshot(page, `webhooks-secret-${header}`);
        await page.getByTestId('webhook-secret-done').click();

        const row = page.locator('[data-testid^="webhook-row-"]', { hasText: url });
        await row.waitFor();
        const id = Number((await row.getAttribute('data-testid'))!.replace('webhook-row-', ''));
        await row.getByText(text(header, 'webhooks.events.credential_on_lock')).waitFor();
        await page.getByTestId(`webhook-test-${id}`).click();
        await page.getByText(text(header, 'webhooks.testQueued')).first().waitFor();
        await expect.poll(() => received.slice(before).filter((r) => r.body.includes('"webhook.test"')).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
        const first = received.slice(before).find((r) => r.body.includes('"webhook.test"'))!;
        expect(verifyWebhook(secret, first.headers, first.body)).toBe(true);

        await page.getByTestId(`webhook-log-${id}`).click();
        const log = page.getByTestId('webhook-log-dialog');
        await log.getByText(text(header, 'webhooks.log.status.succeeded')).first().waitFor();
        await log.getByText(text(header, 'webhooks.log.title')).first().waitFor();
        await log
          .getByRole('button', { name: text(header, 'webhooks.log.resend') })
          .first()
          .click();
        await expect.poll(() => received.slice(before).filter((r) => r.body.includes('"webhook.test"')).length, { timeout: 20_000 }).toBe(2);
        const again = received.slice(before).filter((r) => r.body.includes('"webhook.test"'))[1]!;
        expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
        // Both attempts in the log before one is opened (the second arriving re-orders the list).
        await expect.poll(() => log.getByTestId('webhook-attempt').count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
        const attempt = log.getByTestId('webhook-attempt').first();
        await attempt.click();
        await attempt.getByText('thanks').first().waitFor();
        await screenshot(page, `webhooks-log-${header}`);
        await page.keyboard.press('Escape');

        await page.getByTestId(`webhook-delete-${id}`).click();
        await page.getByTestId('webhook-delete-dialog').waitFor();
        await page.getByTestId('webhook-delete-confirm').click();
        await row.waitFor({ state: 'detached' });
      } finally {
        const left = await api<{ items: { id: number; url: string }[] }>(page, 'webhooks.list', undefined);
        for (const e of left.items.filter((e) => e.url === url)) await api(page, 'webhooks.delete', { id: e.id }, 'mutation');
      }
    });
  });
});
