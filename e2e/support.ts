import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { chromium, type Browser, type BrowserContext, type Page, type Request, type Route } from 'playwright-core';
import { expect, inject } from 'vitest';
import { COOKIES } from '@console/shared';
import { encryptUserInfo } from '../apps/web/src/lib/user-info-codec';
import type { E2eServer } from './global-setup';
import { checkA11y, watchA11y } from './support-a11y';

export { checkA11y } from './support-a11y';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const screenshotDir = path.join(root, 'test-output', 'e2e');
/**
 * The console of the worker running this file (e2e/global-setup.ts starts one per worker, each on
 * its own database and Redis prefix): VITEST_POOL_ID is the worker's number, 1 to E2E_WORKERS.
 */
export function server(): E2eServer {
  if (own) return own;
  const servers = inject('e2eServers');
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  const found = servers[(worker - 1) % servers.length];
  if (!found) throw new Error(`no console for worker ${worker} (${servers.length} started)`);
  return found;
}
export const baseUrl = () => server().baseUrl;

let own: E2eServer | undefined;
/** A file that started a console of its own (`startConsole` in global-setup.ts) talks to it from then on (null: the worker's again). */
export function useServer(console: E2eServer | null) {
  own = console ?? undefined;
}

export const DEMO_OWNER = { account: '13800000000', password: 'demo1234' };
export const DEMO_STAFF = { account: '13900000000', password: 'staff1234' };

/**
 * The browser: `CHROMIUM_PATH`, else Debian's `chromium-headless-shell` when installed (.ci/run
 * installs it: the same Chromium without the desktop browser around it, 17% less CPU for four
 * browser files, decision 070), else Debian's `chromium`.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? (fs.existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');

/** The worker's browser, shared by its files (`isolate: false`): see `launchBrowser`. */
let sharedBrowser: Promise<Browser> | null = null;

/**
 * Debian's Chromium, headless, with the flags this machine's closed network needs: the browser of
 * this worker, launched by its first file and kept for the next ones (a launch was
 * 1.5 s of CPU and 3 s of a file's time on a loaded machine, 45 times a run). A file's
 * `browser.close()` closes the profiles (contexts) it opened, not the browser; a browser that went
 * away (it crashed) is launched again by the next file; playwright ends it when the worker exits.
 */
export function launchBrowser(): Promise<Browser> {
  if (sharedBrowser) return sharedBrowser;
  const launched = chromium
    .launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    })
    .then((browser) => {
      browser.on('disconnected', () => {
        if (sharedBrowser === launched) sharedBrowser = null;
      });
      browser.close = async () => {
        await Promise.all(browser.contexts().map((context) => context.close().catch(() => undefined)));
      };
      return browser;
    });
  sharedBrowser = launched;
  launched.catch(() => {
    if (sharedBrowser === launched) sharedBrowser = null;
  });
  return launched;
}

/** The browser profiles of this file still open: pictured when a test fails (`failurePictures`). */
const openContexts = new Set<BrowserContext>();
/** Where a failed test's pages are pictured, for `scripts/flake-check.mjs` and whoever reads the failure. */
export const failureDir = path.join(screenshotDir, 'failures');

/** Pictures taken in this file: each has a number of its own. */
let pictureCount = 0;

/**
 * What each page said while the test ran (its console's errors and warnings, uncaught errors,
 * requests that failed or were refused), the last lines of it, kept for a failure's picture: a
 * flake met once under load is then read from its log, not guessed from its picture.
 */
const pageLogs = new WeakMap<Page, string[]>();
function watchPage(page: Page) {
  const log: string[] = [];
  pageLogs.set(page, log);
  const add = (line: string) => {
    log.push(`${new Date().toISOString()} ${line}`);
    if (log.length > 300) log.shift();
  };
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') add(`console.${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => add(`page error: ${error.stack ?? error.message}`));
  page.on('requestfailed', (request) => add(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText ?? ''})`));
  page.on('response', (response) => {
    if (response.status() >= 400) add(`response ${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) add(`navigated: ${frame.url()}`);
  });
}

/**
 * A picture of each page given (or of every page still open) as a failed test left it, under
 * test-output/e2e/failures, each listed in its `pictures.jsonl` with its file and test (the test's
 * name as vitest reports it, `describe > test`). Never throws: the test's own error is what the run
 * reports.
 */
export async function failurePictures(pages: Page[] = [...openContexts].flatMap((c) => c.pages())) {
  const state = expect.getState();
  const file = path.basename(state.testPath ?? 'unknown').replace(/\.e2e\.test\.ts$/, '');
  const test = (state.currentTestName ?? 'hook').replace(/[^\p{L}\p{N}]+/gu, '-').slice(0, 120);
  fs.mkdirSync(failureDir, { recursive: true });
  for (const page of pages) {
    if (page.isClosed()) continue;
    const n = (pictureCount += 1);
    const picture = path.join(failureDir, `${file}--${test}--${n}.png`);
    const taken = await page.screenshot({ path: picture, fullPage: true, timeout: 10_000 }).catch(() => undefined);
    const lines = pageLogs.get(page) ?? [];
    const log = lines.length ? picture.replace(/\.png$/, '.log') : undefined;
    if (log) fs.writeFileSync(log, `${lines.join('\n')}\n`);
    if (taken || log)
      fs.appendFileSync(
        path.join(failureDir, 'pictures.jsonl'),
        `${JSON.stringify({ file: state.testPath, test: state.currentTestName, picture: taken ? picture : `${picture} (not taken)`, log })}\n`,
      );
  }
}

/**
 * Runs a test's steps in a browser profile of their own and closes it after, pictures of its pages
 * first when a step failed (a `finally` that closed the profile left no picture of the failure to
 * read: issue 37 §1).
 */
export async function inContext<T>(context: BrowserContext, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    await failurePictures(context.pages());
    throw error;
  } finally {
    await context.close();
  }
}

/**
 * Whether the browser profiles ask for less motion (the console then draws no animation:
 * styles.css). By default they do: animations were a fifth of the browser's work in a file of
 * dialogs (2026-11-27: 169 s of CPU against 138 s for four files), frames drawn for nobody.
 * `E2E_MOTION=full` runs the tests with every animation, as most clerks see the console.
 */
const reducedMotion = process.env.E2E_MOTION === 'full' ? 'no-preference' : 'reduce';

/** A fresh browser profile; `language` is a code of spec §9 stored as the console stores it. */
export async function newContext(
  browser: Browser,
  options: { language?: string; width?: number; height?: number; motion?: 'reduce' | 'no-preference' } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    locale: 'en-US',
    reducedMotion: options.motion ?? reducedMotion,
  });
  openContexts.add(context);
  context.on('close', () => openContexts.delete(context));
  context.on('page', watchPage);
  await watchA11y(context);
  if (options.language) {
    await context.addInitScript((code) => {
      // Not on the blank page a new tab starts with (it has no storage: a SecurityError in its log).
      if (window.location.protocol === 'about:') return;
      if (!window.localStorage.getItem('language')) window.localStorage.setItem('language', code);
    }, options.language);
  }
  return context;
}

/**
 * Waits until every CSS transition and animation on the page has finished (dialogs slide and fade
 * in). A toast starts its entrance only once it is mounted, a frame or more after it is added
 * (sonner's `data-mounted`): a check made in between saw no transition, and axe then measured the
 * contrast of a toast half faded in. So the toasts are waited for to mount, and the animations
 * again after two frames.
 */
export async function settle(page: Page) {
  await page.evaluate(async () => {
    const finished = () => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined)));
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
    await finished();
    for (let i = 0; i < 60 && document.querySelector('[data-sonner-toast]:not([data-mounted="true"])'); i++) await frame();
    await frame();
    await frame();
    await finished();
  });
}

/**
 * Whether a test's screens are pictured in test-output/e2e (`E2E_PICTURES=all`) or only a failed
 * test's (`E2E_PICTURES=failures`). By default a developer's run keeps every picture to look at and
 * CI (`CI=true`) only a failure's: nobody opens CI's, and a full-page picture costs the browser as
 * much as drawing the screen again.
 */
export const keepPictures = process.env.E2E_PICTURES ? process.env.E2E_PICTURES === 'all' : !process.env.CI;

/** A full-page picture of the page as it is now, in test-output/e2e (when pictures are kept), and the screen checked with axe. */
export async function snapshot(page: Page, name: string) {
  if (keepPictures) {
    fs.mkdirSync(screenshotDir, { recursive: true });
    await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
  }
  await checkA11y(page, name);
}

/** A full-page picture once everything has settled, and the screen checked with axe (support-a11y.ts). */
export async function screenshot(page: Page, name: string) {
  await settle(page);
  await snapshot(page, name);
}

/**
 * The same once the dialogs have finished sliding in, not waiting for endless animations: a
 * spinner turns until its lock answers (the demo's thirty locks share one busy gateway).
 */
export async function screenshotWhileSpinning(page: Page, name: string) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  await snapshot(page, name);
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
  const answer = await redisClient().get(`${server().redisPrefix}:captcha:${id}`);
  if (!answer) throw new Error(`captcha ${id} not in Redis`);
  return answer;
}

export async function readSmsOutbox(): Promise<{ to: string; text: string; at: string }[]> {
  const items = await redisClient().lrange(`${server().redisPrefix}:dev:sms-outbox`, 0, -1);
  return items.map((i) => JSON.parse(i) as { to: string; text: string; at: string });
}

export async function fillLogin(page: Page, credentials: { account: string; password: string }) {
  await page.locator('#account').fill(credentials.account);
  await page.locator('#password').fill(credentials.password);
  await page.locator('#captchaCode').fill(await captchaAnswer(page));
  await page.getByTestId('login-submit').click();
}

/**
 * Goes to a path of the open console as a click on one of its links would: the router changes the
 * page without loading the console again (a load costs the browser the console's whole JavaScript
 * anew, three quarters of a browser file's time). Outside a signed-in console, or to the page
 * already shown, a load. Returns once the router has finished showing the page asked for (the
 * layout's `main[data-route]` is its path and search, as the address bar has them: empty while a
 * navigation is under way) and the page left is gone (its heading replaced); what the new page draws
 * is the caller's to wait for. Queries it has in its cache show first and refresh, as after a click.
 * (Waiting for the heading alone returned while the router still showed the page left when that
 * page re-drew its heading, or had none: issue 37 §1.)
 */
export async function visit(page: Page, where: string): Promise<void> {
  const moved =
    page.url().startsWith(baseUrl()) &&
    (await page.evaluate((to) => {
      if (!document.querySelector('[data-testid="sidebar"]') || `${window.location.pathname}${window.location.search}` === to) return false;
      for (const heading of Array.from(document.querySelectorAll('h1'))) heading.setAttribute('data-e2e-left', '');
      const state = window.history.state as { __TSR_index?: number } | null;
      const key = Math.random().toString(36).slice(2, 10);
      window.history.pushState({ __TSR_index: (state?.__TSR_index ?? 0) + 1, key, __TSR_key: key }, '', to);
      return true;
    }, where));
  if (!moved) {
    await page.goto(`${baseUrl()}${where}`);
    return;
  }
  await page.waitForFunction((to) => {
    const shown = document.querySelector('main[data-route]')?.getAttribute('data-route');
    const here = `${window.location.pathname}${window.location.search}`;
    return shown === here && window.location.pathname === new URL(to, window.location.origin).pathname && !document.querySelector('h1[data-e2e-left]');
  }, where);
}

/**
 * Signs in and waits for the console at `path`. To a path of the sign-in page (`/login...`), through
 * the real form, as a clerk does. Elsewhere as the form would, but by its two calls (a graphic code,
 * read from Redis, then `auth.login` from the console's origin), and then one load of the page
 * asked for: the sign-in page drawn and the console loaded twice cost a browser file a tenth of its
 * time, for a form that the sign-in tests (console, board) drive themselves.
 */
export async function signIn(page: Page, credentials = DEMO_OWNER, path = '/') {
  if (path.startsWith('/login')) {
    await page.goto(`${baseUrl()}${path}`);
    await fillLogin(page, credentials);
    await page.getByTestId('sidebar').waitFor();
    return;
  }
  const headers = { origin: baseUrl(), 'content-type': 'application/json', language: 'en' };
  const captcha = await page.request.post(`${baseUrl()}/trpc/auth.captcha`, { headers, data: {} });
  const id = ((await captcha.json()) as { result: { data: { id: string } } }).result.data.id;
  const code = await redisClient().get(`${server().redisPrefix}:captcha:${id}`);
  const answer = await page.request.post(`${baseUrl()}/trpc/auth.login`, {
    headers,
    data: { account: credentials.account, password: credentials.password, captchaId: id, captchaCode: code },
  });
  if (!answer.ok()) throw new Error(`sign-in of ${credentials.account} answered ${answer.status()}: ${await answer.text()}`);
  // The session cookie, given to the browser profile as the answer set it (the request context
  // keeps a cookie of its own, not the profile's, for http://127.0.0.1).
  const cookies = answer
    .headersArray()
    .filter((h) => h.name.toLowerCase() === 'set-cookie')
    .map((h) => /^([^=]+)=([^;]*)/.exec(h.value)!)
    .map(([, name, value]) => ({ name: name!, value: value!, url: baseUrl(), httpOnly: true, sameSite: 'Strict' as const }));
  // The stored user info the console's guard and menu read, as the sign-in page stores it.
  const user = ((await answer.json()) as { result: { data: unknown } }).result.data;
  const stored = { name: COOKIES.userInfo, value: encryptUserInfo(JSON.stringify(user)), url: baseUrl(), sameSite: 'Strict' as const };
  await page.context().addCookies([...cookies, stored]);
  await page.goto(`${baseUrl()}${path}`);
  await page.getByTestId('sidebar').waitFor();
}

/**
 * Holds the next request to `url` (a glob) until `release` (the page shows itself busy meanwhile),
 * then lets it go on as sent; `check` sees it first. Once (`times: 1`): the route goes by itself,
 * nothing is unrouted from inside its own handler (which hung once).
 */
export function holdNextRequest(page: Page, url: string, check?: (request: Request) => void): { release(): void; done: Promise<void> } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const done = new Promise<void>((resolve, reject) => {
    void page.route(
      url,
      async (route: Route) => {
        try {
          await released;
          check?.(route.request());
          await route.continue();
          resolve();
        } catch (error) {
          reject(error as Error);
        }
      },
      { times: 1 },
    );
  });
  return { release, done };
}
