import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const screenshotDir = path.join(root, 'test-output', 'e2e');
export const baseUrl = () => inject('baseUrl');

export const DEMO_OWNER = { account: '13800000000', password: 'demo1234' };
export const DEMO_STAFF = { account: '13900000000', password: 'staff1234' };

/** Debian's Chromium, headless, with the flags this machine's closed network needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** A fresh browser profile; `language` is a code of spec §9 stored as the console stores it. */
export async function newContext(browser: Browser, options: { language?: string; width?: number; height?: number } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: options.height ?? 800 }, locale: 'en-US' });
  if (options.language) {
    await context.addInitScript((code) => {
      if (!window.localStorage.getItem('language')) window.localStorage.setItem('language', code);
    }, options.language);
  }
  return context;
}

/** Waits until every CSS transition and animation on the page has finished (dialogs slide and fade in). */
export async function settle(page: Page) {
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
}

export async function screenshot(page: Page, name: string) {
  fs.mkdirSync(screenshotDir, { recursive: true });
  await settle(page);
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
}

let redis: Redis | undefined;
function redisClient() {
  redis ??= new Redis(inject('redisUrl'));
  return redis;
}
export async function closeRedis() {
  redis?.disconnect();
  redis = undefined;
}

/** The answer of the graphic code on the page, read from Redis as only a test can (there is no bypass). */
export async function captchaAnswer(page: Page): Promise<string> {
  const image = page.getByTestId('captcha');
  await image.locator('img').waitFor();
  const id = await image.getAttribute('data-captcha-id');
  if (!id) throw new Error('no captcha id on the page');
  const answer = await redisClient().get(`${inject('redisPrefix')}:captcha:${id}`);
  if (!answer) throw new Error(`captcha ${id} not in Redis`);
  return answer;
}

export async function readSmsOutbox(): Promise<{ to: string; text: string; at: string }[]> {
  const items = await redisClient().lrange(`${inject('redisPrefix')}:dev:sms-outbox`, 0, -1);
  return items.map((i) => JSON.parse(i) as { to: string; text: string; at: string });
}

export async function fillLogin(page: Page, credentials: { account: string; password: string }) {
  await page.locator('#account').fill(credentials.account);
  await page.locator('#password').fill(credentials.password);
  await page.locator('#captchaCode').fill(await captchaAnswer(page));
  await page.getByTestId('login-submit').click();
}

/** Signs in through the real form and waits for the console. */
export async function signIn(page: Page, credentials = DEMO_OWNER, path = '/login') {
  await page.goto(`${baseUrl()}${path}`);
  await fillLogin(page, credentials);
  await page.getByTestId('sidebar').waitFor();
}
