import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, closeRedis, launchBrowser, newContext, screenshot, settle, signIn } from './support';
import { api, languageRuns } from './support-board';
import { attributeBecomes, checkInNow, ownRoom } from './support-money';
import { closeSql, sql, text } from './support-stays';

/**
 * (Named to sort after every other browser test file: the language rotation of the files before it
 * stays as it was; decision 034.)
 *
 * The manager's reports (issue 26 §2), in the run's language: today's open report follows a payment
 * taken elsewhere without a reload; a past day is closed after a confirmation and shows who closed
 * it; its week has seven days, the closed one marked, and the chart (its library loaded with it);
 * the week's .csv downloads headed in the page's language; a phone shows it all without sideways
 * scrolling. Rooms 9941-9943 are this file's own.
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

const RUNS = languageRuns(
  [
    { code: 'chs', header: 'zh-CN', room: '9941', back: 2 },
    { code: 'en', header: 'en', room: '9942', back: 9 },
    { code: 'Arabic', header: 'ar', room: '9943', back: 16 },
  ] as const,
  import.meta.url,
);

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

describe.each(RUNS)('reports in $header', ({ code, header, room, back }) => {
  let desk: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    desk = await newContext(browser, { language: code });
    page = await desk.newPage();
    await signIn(page, DEMO_OWNER);
  });
  afterAll(async () => {
    await desk?.close();
  });

  it(`follows today's money live, closes a past day, shows its week with the chart and gives its .csv (room ${room})`, async () => {
    const roomId = await ownRoom(room);
    const stay = await checkInNow(page, roomId, `Report ${room}`);

    // Today (the hotel's), open: a payment taken elsewhere reaches the figures without a reload.
    await page.goto(`${baseUrl()}/reports`);
    const figures = '[data-testid="report-figures"]';
    await page.waitForSelector(figures, { timeout: 15_000 });
    const today = (await page.getByTestId('reports-page').getAttribute('data-from'))!;
    expect(await page.getByTestId('report-state').getAttribute('data-state')).toBe('open');
    await page.getByText(text(header, 'reports.state.running')).waitFor();
    const received = Number(await page.locator(figures).getAttribute('data-received'));
    await api(page, 'order.recordPayment', { stayId: stay.id, amount: 12_300, method: 'cash', note: '', requestId: randomUUID() }, 'mutation');
    await attributeBecomes(page, figures, 'data-received', received + 12_300);
    await screenshot(page, `reports-today-${header}`);

    // A past day that no run has closed yet: this run's own, or the first open one before it.
    let day = addDays(today, -back);
    for (let i = 0; i < 6; i++) {
      const report = await api<{ closed: boolean }>(page, 'order.dayReport', { date: day });
      if (!report.closed) break;
      day = addDays(day, -1);
    }
    await page.goto(`${baseUrl()}/reports?date=${day}`);
    await attributeBecomes(page, '[data-testid="report-state"]', 'data-state', 'open', 15_000);
    await page.getByText(text(header, 'reports.state.overNotClosed')).waitFor();
    await page.getByTestId('report-close').click();
    const dialog = page.getByTestId('report-close-dialog');
    await dialog.waitFor();
    await dialog.getByText(text(header, 'reports.close.description')).waitFor();
    await dialog.getByText(text(header, 'reports.close.audit')).waitFor();
    await screenshot(page, `reports-close-dialog-${header}`);
    await page.getByTestId('report-close-confirm').click();
    await dialog.waitFor({ state: 'detached' });
    await attributeBecomes(page, '[data-testid="report-state"]', 'data-state', 'closed');
    expect(await page.getByTestId('report-close').count()).toBe(0);
    const [closed] = await sql<{ closedByAccountId: number; nickname: string }>(
      `SELECT d."closedByAccountId", a.nickname FROM "DayClose" d JOIN "Account" a ON a.id = d."closedByAccountId" WHERE d.date = $1 AND d."hotelId" = (SELECT "hotelId" FROM "Room" WHERE id = $2)`,
      [day, roomId],
    );
    expect(closed).toBeDefined();
    expect(await page.getByTestId('report-state').textContent()).toContain(closed!.nickname);
    await screenshot(page, `reports-day-closed-${header}`);

    // Its week: seven days, the closed one marked, and the chart drawn.
    await page.getByTestId('report-period-week').click();
    await page.waitForSelector('[data-testid="report-days"]');
    expect(await page.locator('[data-testid^="report-day-"]').count()).toBe(7);
    expect(await page.getByTestId(`report-day-${day}`).getAttribute('data-state')).toBe('closed');
    await page.waitForSelector('[data-testid="report-chart"] canvas');
    await settle(page);
    await screenshot(page, `reports-week-${header}`);
    // The chart itself in the picture: each day labelled once on its axis.
    await page.getByTestId('report-chart').scrollIntoViewIfNeeded();
    await screenshot(page, `reports-week-chart-${header}`);

    // The week's .csv, headed in the page's language: a header, seven days and the sums.
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-export-csv').click()]);
    const csv = fs.readFileSync((await file.path())!, 'utf8');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    const lines = csv.slice(1).trimEnd().split('\r\n');
    expect(lines).toHaveLength(9);
    expect(lines[0]!.startsWith(`${text(header, 'reports.columns.date')},${text(header, 'reports.columns.state')},`)).toBe(true);
    expect(lines.find((l) => l.startsWith(day))).toContain(text(header, 'reports.state.closed'));

    // The same on a phone: nothing scrolls sideways.
    const phone = await newContext(browser, { language: code, width: 390, height: 844 });
    try {
      const small = await phone.newPage();
      await signIn(small, DEMO_OWNER);
      await small.goto(`${baseUrl()}/reports?period=week&date=${day}`);
      await small.waitForSelector('[data-testid="report-chart"] canvas', { timeout: 15_000 });
      await settle(small);
      const overflow = await small.evaluate(() => document.scrollingElement!.scrollWidth - document.scrollingElement!.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(small, `reports-week-phone-${header}`);
    } finally {
      await phone.close();
    }
  });
});
