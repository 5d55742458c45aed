import fs from 'node:fs';
import ExcelJS from 'exceljs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, closeRedis, launchBrowser, screenshot, settle, signIn } from './support';
import { LANGUAGES, api, text, withPage, languageRuns } from './support-board';

/**
 * Data export (issue 9 §5) in Chinese, English and Arabic: each language makes three rooms of its
 * own (EX-<code>-1..3), finds them on the room board's table, exports everything that matches the
 * search from the export dialog (a file name of its own), sees the progress bar fill, downloads
 * the file, opens it with exceljs and finds the page's headers and rows in it: the room, its group
 * and its status as the page shows them, and the price as a number with the hotel's currency.
 * Then the audit log's Export button, with the page's action filter: only those entries; and the
 * guest register (a stay's guest and co-guest found by a search, current stays only) and its export.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await closeRedis();
});

describe.each(languageRuns(LANGUAGES, import.meta.url))('export in $header', ({ code, header }) => {
  it('exports the room board with a progress bar, and the downloaded file holds what the page shows', async () => {
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page, DEMO_OWNER);
      const prefix = `EX-${code}-${Date.now() % 100_000}`;
      for (const n of [1, 2, 3]) await api(page, 'room.create', { name: `${prefix}-${n}` }, 'mutation');
      await page.goto(`${baseUrl()}/room?view=table&search=${encodeURIComponent(prefix)}`);
      const table = page.getByTestId('room-table');
      await table.locator('tbody tr').nth(2).waitFor();
      const headers = (await table.locator('thead th').allInnerTexts()).map((h) => h.trim()).filter((h) => h && h !== text(header, 'common.actions'));
      const shown = await table
        .locator('tbody tr')
        .evaluateAll((rows) => rows.map((row) => Array.from(row.querySelectorAll('td'), (td) => (td as HTMLElement).innerText.trim())));
      expect(shown.map((r) => r[0]!.split('\n')[0])).toEqual([1, 2, 3].map((n) => `${prefix}-${n}`));

      await page.getByTestId('export-open').click();
      const dialog = page.getByTestId('export-dialog');
      await dialog.waitFor();
      expect(await dialog.getByRole('heading').innerText()).toBe(text(header, 'export.title', { what: text(header, 'route.roomBoard') }));
      await dialog.getByTestId('export-file-name').fill(`${prefix} rooms`);
      await dialog.getByTestId('export-scope-all').check();
      await screenshot(page, `export-dialog-${code}`);
      await dialog.getByTestId('export-start').click();
      const progress = dialog.getByTestId('export-progress');
      await progress.waitFor();
      expect(await progress.getAttribute('role')).toBe('progressbar');
      const download = dialog.getByTestId('export-download');
      await download.waitFor();
      expect(await progress.getAttribute('aria-valuenow')).toBe('100');
      expect(await progress.getAttribute('data-done')).toBe('3');
      expect(await dialog.getByTestId('export-status').innerText()).toBe(text(header, 'export.ready', { rows: new Intl.NumberFormat(header).format(3) }));
      await settle(page);
      await screenshot(page, `export-ready-${code}`);

      const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
      expect(file.suggestedFilename()).toBe(`${prefix} rooms.xlsx`);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(fs.readFileSync((await file.path())!) as unknown as ArrayBuffer);
      const sheet = book.worksheets[0]!;
      const rows: ExcelJS.CellValue[][] = [];
      sheet.eachRow((row) => rows.push((row.values as ExcelJS.CellValue[]).slice(1)));
      // The page's columns, in its language, then the price with the currency.
      expect(rows[0]!.slice(0, headers.length)).toEqual(headers);
      expect(String(rows[0]!.at(-1))).toMatch(new RegExp(`^${text(header, 'stays.price')} \\([A-Z]{3}\\)$`));
      expect(rows.slice(1).map((r) => [r[0], r[1], r[2]])).toEqual(shown.map((r) => [r[0]!.split('\n')[0], r[1], r[2]]));
      expect(rows.slice(1).every((r) => typeof r.at(-1) === 'number')).toBe(true);
      expect(sheet.views[0]?.rightToLeft ?? false).toBe(header === 'ar');
    });
  });

  it("lists a stay's guest and co-guest on the guest register, found by a search, and exports them", async () => {
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page, DEMO_OWNER);
      const tag = `EXG-${code}-${Date.now() % 100_000}`;
      const room = await api<{ id: number }>(page, 'room.create', { name: tag }, 'mutation');
      const now = Date.now();
      await api(
        page,
        'stay.checkIn',
        {
          roomId: room.id,
          checkInAt: new Date(now).toISOString(),
          expectedCheckOutAt: new Date(now + 86_400_000).toISOString(),
          guests: [{ name: `${tag} main` }, { name: `${tag} co` }],
          idempotencyKey: `e2e-guests-${tag}`,
        },
        'mutation',
      );
      await page.goto(`${baseUrl()}/room/guests`);
      await page.getByTestId('guests-page').waitFor();
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(text(header, 'route.guests'));
      await page.getByTestId('guests-search').fill(tag);
      await page.waitForURL((url) => url.searchParams.get('search') === tag);
      await page.getByTestId('guests-show-current').click();
      await page.waitForURL((url) => url.searchParams.get('show') === 'current');
      const table = page.getByTestId('guests-table');
      await expect.poll(() => table.locator('tbody tr').count()).toBe(2);
      const names = await table.locator('tbody tr td:first-child').allInnerTexts();
      expect(names.map((n) => n.trim()).sort()).toEqual([`${tag} co`, `${tag} main`]);
      await settle(page);
      await screenshot(page, `guests-${code}`);

      await page.getByTestId('export-open').click();
      const dialog = page.getByTestId('export-dialog');
      await dialog.waitFor();
      await dialog.getByTestId('export-start').click();
      const download = dialog.getByTestId('export-download');
      await download.waitFor();
      const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(fs.readFileSync((await file.path())!) as unknown as ArrayBuffer);
      const rows: ExcelJS.CellValue[][] = [];
      book.worksheets[0]!.eachRow((row) => rows.push((row.values as ExcelJS.CellValue[]).slice(1)));
      expect(rows[0]![0]).toBe(text(header, 'export.columns.guestName'));
      expect(
        rows
          .slice(1)
          .map((r) => String(r[0]))
          .sort(),
      ).toEqual([`${tag} co`, `${tag} main`]);
      expect(rows.slice(1).every((r) => r[4] === tag)).toBe(true);
    });
  });

  it('exports the audit log with its filter, the same Export button and dialog', async () => {
    await withPage(browser, { language: code }, async (page) => {
      await signIn(page, DEMO_OWNER);
      const name = `EXA-${code}-${Date.now() % 100_000}`;
      await api(page, 'room.create', { name }, 'mutation');
      await page.goto(`${baseUrl()}/auditLog?action=room.create`);
      const table = page.getByTestId('audit-table');
      await table.locator('tbody tr[data-action="room.create"]').first().waitFor();
      await page.getByTestId('export-open').click();
      const dialog = page.getByTestId('export-dialog');
      await dialog.waitFor();
      expect(await dialog.getByRole('heading').innerText()).toBe(text(header, 'export.title', { what: text(header, 'route.auditLog') }));
      await dialog.getByTestId('export-scope-all').check();
      await dialog.getByTestId('export-start').click();
      const download = dialog.getByTestId('export-download');
      await download.waitFor();
      await settle(page);
      await screenshot(page, `export-audit-log-${code}`);
      const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(fs.readFileSync((await file.path())!) as unknown as ArrayBuffer);
      const rows: ExcelJS.CellValue[][] = [];
      book.worksheets[0]!.eachRow((row) => rows.push((row.values as ExcelJS.CellValue[]).slice(1)));
      expect(rows[0]!.slice(0, 3)).toEqual(['auditLog.columns.time', 'auditLog.columns.actor', 'auditLog.columns.action'].map((key) => text(header, key)));
      // Only what the filter lets through, the room just made among it.
      expect(rows.length).toBeGreaterThan(1);
      expect(rows.slice(1).every((r) => r[2] === text(header, 'auditLog.actions.room.create'))).toBe(true);
      expect(rows.slice(1).some((r) => String(r[3]).endsWith(name))).toBe(true);
    });
  });
});
