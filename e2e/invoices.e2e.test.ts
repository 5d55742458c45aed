import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER, baseUrl, closeRedis, launchBrowser, newContext, screenshot, signIn } from './support';
import { answerOf, api, expectToast, languageRuns, text } from './support-board';
import { checkInNow, ownRoom } from './support-money';
import { closeSql, sql } from './support-stays';

/**
 * Invoices and credit notes (issue 36 "Invoices", docs/invoices.md), as a clerk and a manager would:
 * a guest paid and checked out; on the guest's page the bill offers "Issue invoice"; the dialog
 * proposes the guest's name and language and refuses an empty buyer; the invoice is numbered, opens
 * on a printable sheet written in the language chosen (another than the interface's), with the
 * hotel's legal details and the lines; a manager cancels it with a credit note (a reason required),
 * after which the bill can be invoiced again. In zh-CN and en on a desktop, in Arabic on a phone.
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

const RUNS = [
  { code: 'chs', header: 'zh-CN', room: '971', written: 'en', width: 1280 },
  { code: 'en', header: 'en', room: '972', written: 'de', width: 1280 },
  { code: 'Arabic', header: 'ar', room: '973', written: 'ar', width: 390 },
] as const;

describe.each(languageRuns(RUNS, import.meta.url))('an invoice and its credit note in $header', ({ code, header, room, written, width }) => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await newContext(browser, { language: code, width, height: 844 });
    page = await context.newPage();
    await signIn(page, DEMO_OWNER);
  });
  afterAll(async () => {
    await context?.close();
  });

  it(`invoices ${room}'s settled bill in ${written}, prints it, cancels it with a credit note and invoices it again`, async () => {
    await api(page, 'invoice.setDetails', { legalName: 'Demo Hotel Co., Ltd.', taxId: '91310000DEMO0001' }, 'mutation');
    const roomId = await ownRoom(room);
    const guest = `Invoiced ${room}`;
    const stay = await checkInNow(page, roomId, guest);
    const owed = (await api<{ owed: number }>(page, 'order.folio', { stayId: stay.id })).owed;
    await api(page, 'order.settle', { stayId: stay.id, checkOut: true, payment: { amount: owed, method: 'bank_card' } }, 'mutation');
    const [primary] = await sql<{ id: number }>(`SELECT id FROM "StayGuest" WHERE "stayId" = $1 AND "isPrimary"`, [stay.id]);

    await page.goto(`${baseUrl()}/room/thetouristsDetails?id=${primary!.id}`);
    const bill = page.getByTestId('guest-stay-bill');
    await bill.locator('[data-testid="stay-folio"][data-state="settled"]').waitFor();
    await bill.getByTestId('invoice-issue').click();
    const dialog = page.getByTestId('issue-invoice-dialog');
    await dialog.waitFor();
    // Proposed: the guest's name; the clerk names the buyer and chooses the language.
    expect(await page.getByTestId('invoice-buyer-name').inputValue()).toBe(guest);
    await page.getByTestId('invoice-buyer-name').fill('');
    await page.getByTestId('issue-invoice-submit').click();
    await dialog.getByText(text(header, 'invoices.validation.buyerRequired')).waitFor();
    await page.getByTestId('invoice-buyer-name').fill(`ACME ${room}`);
    await page.getByTestId('invoice-buyer-tax-id').fill('DE123456789');
    await page.getByTestId('invoice-language').selectOption(written);
    await screenshot(page, `invoice-dialog-${header}`);
    const issued = answerOf(page, 'invoice.issue');
    await page.getByTestId('issue-invoice-submit').click();
    await issued;
    const [invoice] = await sql<{ id: number; number: number }>(
      `SELECT id, number FROM "Invoice" WHERE "folioId" = (SELECT id FROM "Folio" WHERE "stayId" = $1) ORDER BY id DESC LIMIT 1`,
      [stay.id],
    );
    const { id, number } = invoice!;
    await expectToast(page, text(header, 'invoices.issued', { number }));

    // The printable sheet, written in the language chosen.
    await page.waitForURL((url) => url.pathname === `/invoice/${id}`);
    const sheet = page.getByTestId('invoice-sheet');
    await sheet.waitFor();
    expect(await sheet.getAttribute('lang')).toBe(written);
    expect(await page.getByTestId('invoice-title').innerText()).toBe(text(written, 'invoices.title'));
    expect(await page.getByTestId('invoice-number').innerText()).toBe(text(written, 'invoices.number', { number: String(number).padStart(6, '0') }));
    expect(await sheet.innerText()).toContain('Demo Hotel Co., Ltd.');
    expect(await page.getByTestId('invoice-buyer').innerText()).toContain(`ACME ${room}`);
    const lines = page.getByTestId('invoice-line');
    expect(await lines.first().innerText()).toContain(text(written, 'invoices.lines.room', { room }));
    expect(Number(await page.getByTestId('invoice-lines').locator('[data-testid="invoice-line"]').first().getAttribute('data-amount'))).toBe(29_900);
    await page.getByTestId('invoice-print').isEnabled();
    await screenshot(page, `invoice-sheet-${header}`);
    // The same document as the server's PDF, named in its language by its number.
    const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByTestId('invoice-pdf').click()]);
    expect(pdf.suggestedFilename()).toBe(`${text(written, 'invoices.title')}-${String(number).padStart(6, '0')}.pdf`);
    expect((await readFile(await pdf.path())).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // Back on the bill: the invoice stands; "Issue invoice" is gone. A manager cancels it with a credit note.
    await page.getByTestId('invoice-back').click();
    const row = bill.locator(`[data-testid="bill-invoice"][data-number="${number}"]`);
    await row.waitFor();
    expect(await bill.getByTestId('invoice-issue').count()).toBe(0);
    await row.getByTestId('bill-invoice-credit').click();
    const credit = page.getByTestId('credit-invoice-dialog');
    await credit.waitFor();
    await page.getByTestId('credit-invoice-submit').click();
    await credit.getByText(text(header, 'validation.reasonRequired')).waitFor();
    await page.getByTestId('credit-reason').fill('Wrong buyer');
    const credited = answerOf(page, 'invoice.credit');
    await page.getByTestId('credit-invoice-submit').click();
    await credited;
    await credit.waitFor({ state: 'detached' });
    await bill.locator(`[data-testid="bill-invoice"][data-kind="credit_note"][data-number="${number + 1}"]`).waitFor();
    await row.getByText(text(header, 'invoices.creditedBy', { number: number + 1 })).waitFor();
    // The bill can be invoiced again.
    await bill.getByTestId('invoice-issue').waitFor();
    await screenshot(page, `invoice-credited-${header}`);
    const [rows] = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM "Invoice" WHERE "folioId" = (SELECT id FROM "Folio" WHERE "stayId" = $1)`, [
      stay.id,
    ]);
    expect(rows!.n).toBe(2);
  });
});
