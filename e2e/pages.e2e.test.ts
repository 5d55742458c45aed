import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, checkA11y, closeRedis, launchBrowser, newContext, root, settle, signIn, visit } from './support';
import { LANGUAGES, api, languageRuns, roomByName, withPage } from './support-board';
import { checkInNow, ownRoom } from './support-money';
import { closeSql } from './support-stays';

/**
 * Every page of the console, in Arabic and in one of Chinese and English on every run (decision 034,
 * amended: the flows run in one language each; `E2E_LANGUAGES=all` sweeps all three): each page has
 * one h1 and no accessibility violation (axe, docs/accessibility.md) once it has loaded. A new
 * route without a row here fails the test (the route files are read).
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

/** The console's pages behind sign-in, by route file (apps/web/src/routes/_auth); ids filled in at run time. */
const SIGNED_IN: Record<string, (ids: { room: number; guest: number; invoice: number }) => string> = {
  '/accessRules': () => '/accessRules',
  '/auditLog': () => '/auditLog',
  '/bindCardReaderToUser/bindCardReaderToUser': () => '/bindCardReaderToUser/bindCardReaderToUser',
  '/bindCardReaderToUser/cardReaderAndUserList': () => '/bindCardReaderToUser/cardReaderAndUserList',
  '/cardDispenser': () => '/cardDispenser',
  '/cardEncryption/cardEncryption': () => '/cardEncryption/cardEncryption',
  '/cardToEncryption/cardToEncryption': () => '/cardToEncryption/cardToEncryption',
  '/center/personalCenter/': () => '/center/personalCenter/',
  '/center/personalCenter/addCard': () => '/center/personalCenter/addCard',
  '/center/personalCenter/addUniversalCard': () => '/center/personalCenter/addUniversalCard',
  '/center/personalCenter/cardList': () => '/center/personalCenter/cardList',
  '/center/personalCenter/cardSenderFingerTest': () => '/center/personalCenter/cardSenderFingerTest',
  '/center/personalCenter/selectRoomList': () => '/center/personalCenter/selectRoomList',
  '/center/personalCenter/universalCardList': () => '/center/personalCenter/universalCardList',
  '/customer/customer': () => '/customer/customer',
  '/faces': () => '/faces',
  '/guestMessages': () => '/guestMessages',
  '/hotelInfo': () => '/hotelInfo',
  '/invoice/$invoiceId': ({ invoice }) => `/invoice/${invoice}`,
  '/housekeeping/': () => '/housekeeping',
  '/housekeeping/mine': () => '/housekeeping/mine',
  '/lock-messages': () => '/lock-messages',
  '/lockAccounts': () => '/lockAccounts',
  '/order/balance': () => '/order/balance',
  '/order/trialBalance': () => '/order/trialBalance',
  '/room/': () => '/room',
  '/room/$roomId': ({ room }) => `/room/${room}`,
  '/room/breakfast': () => '/room/breakfast',
  '/room/calendarFeeds': () => '/room/calendarFeeds',
  '/room/category': () => '/room/category',
  '/room/guests': () => '/room/guests',
  '/room/priceTemplate': () => '/room/priceTemplate',
  '/room/tenant': () => '/room/tenant',
  '/room/thetouristsDetails': ({ guest }) => `/room/thetouristsDetails?id=${guest}`,
  '/reports': () => '/reports?period=week',
  '/shifts': () => '/shifts',
  '/staff': () => '/staff',
  '/thirdPartyAuthorization/thirdPartyAuthorization': () => '/thirdPartyAuthorization/thirdPartyAuthorization',
  '/timeline': () => '/timeline',
  '/today': () => '/today',
  '/unlock-records': () => '/unlock-records',
  '/user/changePsw': () => '/user/changePsw',
  '/webhooks': () => '/webhooks',
};
/** Route files that are no page of their own: they send the visitor on (an index), or are the frame and the unknown path. */
const NOT_PAGES = new Set(['/', '/$', '/cardEncryption/', '/cardToEncryption/', '/customer/', '/user/']);
const PUBLIC = ['/login', '/find', '/404'];

/** The route ids of the signed-in pages, from the route files (what a new page adds). */
function routeIds(): string[] {
  const dir = path.join(root, 'apps/web/src/routes/_auth');
  const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.tsx'));
  return files.map((f) => /createFileRoute\('\/_auth([^']*)'/.exec(fs.readFileSync(path.join(dir, f), 'utf8'))?.[1] ?? f).sort();
}

/** Waits for a page to have loaded: its one h1, no skeleton or busy region left, nothing moving. */
async function loaded(page: Page, where: string) {
  await page.locator('h1').first().waitFor();
  // Its lists drawn (a list still loading shows a skeleton or says it is busy).
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], [data-slot="skeleton"]'), undefined, { timeout: 15_000 });
  await settle(page);
  expect(await page.locator('h1').count(), where).toBe(1);
}

describe('every page', () => {
  it('has a row here for each route file', () => {
    expect(routeIds().filter((id) => !NOT_PAGES.has(id) && !(id in SIGNED_IN))).toEqual([]);
  });

  it('moves nothing for a visitor who asks for less motion, and animates for one who does not', async () => {
    // The sign-in button's hover and focus transition: as long as written for a visitor without
    // the preference, a hundredth of a millisecond with it (styles.css).
    const transition = (motion: 'reduce' | 'no-preference') =>
      withPage(browser, { language: 'en', motion }, async (page) => {
        await page.goto(`${baseUrl()}/login`);
        return page.getByTestId('login-submit').evaluate((button) => parseFloat(getComputedStyle(button).transitionDuration));
      });
    expect(await transition('reduce')).toBeLessThan(0.001);
    expect(await transition('no-preference')).toBeGreaterThanOrEqual(0.1);
  });
});

/** The signed-in pages in chunks of six: one test per chunk keeps each well inside the time limit on a busy machine. */
const CHUNKS = Object.entries(SIGNED_IN).reduce<[string, (ids: { room: number; guest: number; invoice: number }) => string][][]>((chunks, entry, i) => {
  if (i % 6 === 0) chunks.push([]);
  chunks[chunks.length - 1]!.push(entry);
  return chunks;
}, []);

// Arabic on every run: right to left is a layout of its own. Chinese and English draw the same
// left-to-right pages and take turns as every file's language does (decision 034, amended
// 2026-11-28); the flows' automatic check still checks the screens they pass through in theirs.
const RUNS =
  (process.env.E2E_LANGUAGES?.trim() || 'rotate') === 'rotate'
    ? LANGUAGES.filter((run) => run.header === 'ar' || languageRuns(LANGUAGES.slice(0, 2), import.meta.url).includes(run))
    : languageRuns(LANGUAGES, import.meta.url);

describe.each(RUNS)('every page in $header', ({ code, header }) => {
  // One sign-in a language: the chunks visit their pages in the same signed-in tab.
  let context: BrowserContext;
  let page: Page;
  let ids: { room: number; guest: number; invoice: number };
  beforeAll(async () => {
    context = await newContext(browser, { language: code });
    page = await context.newPage();
    await signIn(page, DEMO_OWNER);
    const room = (await roomByName(page, '101')).id;
    const stays = await api<{ items: { guests: { id: number }[] }[] }>(page, 'stay.list', { state: 'in_house', pageSize: 20 });
    // An invoice of this language's own room: a guest checked in, paid and gone, the bill invoiced.
    const stay = await checkInNow(page, await ownRoom(`Pages-${header}`), `Pages ${header}`);
    const owed = (await api<{ owed: number }>(page, 'order.folio', { stayId: stay.id })).owed;
    await api(page, 'order.settle', { stayId: stay.id, checkOut: true, payment: { amount: owed, method: 'cash' } }, 'mutation');
    const invoice = await api<{ id: number }>(page, 'invoice.issue', { stayId: stay.id, language: header, buyer: { name: `Pages ${header}` } }, 'mutation');
    ids = { room, guest: stays.items.flatMap((s) => s.guests)[0]!.id, invoice: invoice.id };
  });
  afterAll(async () => {
    await context?.close();
  });

  it.each(CHUNKS.map((pages) => ({ pages, first: pages[0]![0] })))('signed in, from $first: one h1 and no accessibility violation', async ({ pages }) => {
    for (const [id, pathOf] of pages) {
      const where = pathOf(ids);
      await visit(page, where);
      await loaded(page, where);
      await checkA11y(page, `page ${id} ${header}`);
    }
  });

  it('signed out: one h1 and no accessibility violation', async () => {
    await withPage(browser, { language: code }, async (page) => {
      for (const where of PUBLIC) {
        await page.goto(`${baseUrl()}${where}`);
        await loaded(page, where);
        await checkA11y(page, `page ${where} ${header}`);
      }
    });
  });
});
