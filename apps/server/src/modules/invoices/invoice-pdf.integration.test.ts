/**
 * Issue 36 "Invoices": the PDF of an invoice or credit note (docs/invoices.md, "The PDF"), made by
 * the server from the document as issued, in its own language: Chinese, Arabic (right to left,
 * its words joined), a long bill over several pages; read back with Mozilla's pdf.js, as a reader
 * would. The same rules as reading the invoice: another hotel's, a room out of the reader's rooms,
 * a role that may not read bills, no session.
 */
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COOKIES, type TLanguageHeader } from '@console/shared';
import { createTestContext, type TestContext } from '../../test/harness';
import { ledgerHotel, member, stayIn } from '../../test/ledger-kit';
import { recordCharge } from '../orders/posting';
import { getFolio, settleFolio } from '../orders/settlement.service';
import { setTaxRule } from '../journal/tax-rules';
import { issueInvoice, setInvoiceDetails } from './invoices.service';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

type Hotel = Awaited<ReturnType<typeof ledgerHotel>>;

async function invoiced(h: Hotel, language: TLanguageHeader, extras: string[], roomIndex = 1) {
  const stay = await stayIn(h.staff, h.rooms[roomIndex]!.id, { to: 'next_noon' });
  for (const [i, note] of extras.entries()) await recordCharge(h.staff, { stayId: stay.id, amount: 1_000 + i, note });
  const owed = (await getFolio(h.staff, { stayId: stay.id })).owed;
  await settleFolio(h.staff, { stayId: stay.id, checkOut: true, payment: { amount: owed, method: 'cash' } });
  return issueInvoice(h.staff, {
    stayId: stay.id,
    language,
    buyer: { name: 'محمد علي · 张伟 · José', taxId: 'DE123456789', address: 'Königstraße 5, Berlin' },
  });
}

const download = (id: number | string, token?: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/invoices/${id}/pdf?lang=en`, headers: token ? { cookie: `${COOKIES.session}=${token}` } : {} });

/**
 * Each page's text as pdf.js reads it, its pieces joined by one space (each word is drawn on its
 * own, and pdf.js adds spaces between pieces in different fonts: "91310000 MA1FL4").
 */
async function pagesOf(pdf: Buffer): Promise<string[]> {
  const doc = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, isEvalSupported: false }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(
      content.items
        .map((item) => ('str' in item ? item.str : ''))
        .join(' ')
        .replace(/\s+/g, ' '),
    );
  }
  await doc.destroy();
  return pages;
}

describe('an invoice as a PDF', () => {
  it("writes the document in Chinese: the hotel's details, the buyer, the nights, the tax, the totals; named by its number", async () => {
    const h = await ledgerHotel(ctx);
    await setInvoiceDetails(h.owner, { legalName: '日出酒店管理有限公司', taxId: '91310000MA1FL4' });
    await setTaxRule(h.owner, { appliesTo: 'rooms', ratePercent: 10, mode: 'added' });
    const invoice = await invoiced(h, 'zh-CN', ['迷你吧']);
    const res = await download(invoice.id, h.staffToken);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="__-000001.pdf"; filename*=UTF-8''${encodeURIComponent('发票-000001.pdf')}`);
    const [page, ...more] = await pagesOf(res.rawPayload);
    expect(more).toEqual([]);
    const t = (key: string, params?: Record<string, unknown>) => ctx.deps.i18n.t('zh-CN', key, params);
    const squeezed = page!.replace(/ /g, '');
    for (const text of [
      '日出酒店管理有限公司',
      '91310000MA1FL4',
      t('invoices.title'),
      '000001',
      'José',
      '张伟',
      'DE123456789',
      '迷你吧',
      t('invoices.lines.room', { room: '102' }),
    ])
      expect(squeezed).toContain(text.replace(/ /g, ''));
    // The amounts as the printable page writes them in Chinese: the night, the tax added, the extra, the total.
    for (const amount of ['¥200.00', '¥20.00', '¥10.00', '¥230.00']) expect(page).toContain(amount);
    expect(squeezed).toContain(t('invoices.totals.due'));
  });

  it('writes an Arabic document right to left in the Arabic font, its numbers and Latin names left to right', async () => {
    const h = await ledgerHotel(ctx);
    const invoice = await invoiced(h, 'ar', ['Minibar']);
    const res = await download(invoice.id, h.ownerToken);
    expect(res.statusCode).toBe(200);
    // Its Arabic in Noto Sans Arabic, embedded (pdf.js reads shaped Arabic back poorly: the order
    // of a line is checked on the text engine itself, pdf-text.test.ts).
    expect(res.rawPayload.toString('latin1')).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansArabic/);
    const doc = await getDocument({ data: new Uint8Array(res.rawPayload) }).promise;
    const items = (await (await doc.getPage(1)).getTextContent()).items.flatMap((i) => ('str' in i && i.str.trim() ? [i] : []));
    const x = (text: string) => items.find((i) => i.str.includes(text))!.transform[4] as number;
    for (const text of ['000001', 'Minibar', 'José', 'DE123456789', 'Königstraße']) expect(x(text), text).toBeGreaterThan(0);
    // Laid out from the right: the number under the title at the page's left (the end side), the buyer at its right.
    expect(x('000001')).toBeLessThan(150);
    expect(x('DE123456789')).toBeGreaterThan(300);
    // The amounts read left to right, at the end side.
    expect(x('CN¥')).toBeLessThan(150);
    await doc.destroy();
  });

  it('carries a long bill over pages, the header of the lines again on each, each page numbered', async () => {
    const h = await ledgerHotel(ctx);
    const invoice = await invoiced(
      h,
      'en',
      Array.from({ length: 45 }, (_, i) => `Extra ${i + 1}`),
    );
    const pages = await pagesOf((await download(invoice.id, h.staffToken)).rawPayload);
    expect(pages.length).toBeGreaterThan(1);
    for (const [i, page] of pages.entries()) {
      expect(page).toContain(`Invoice No. 000001 · ${i + 1} / ${pages.length}`);
      expect(page).toContain('Description');
    }
    const all = pages.join(' ');
    for (let i = 1; i <= 45; i++) expect(all).toContain(`Extra ${i} `);
    expect(pages.at(-1)).toContain('Balance due');
  });

  it("is read under invoice.get's rules: the hotel's, the reader's rooms, a role that reads bills, a session", async () => {
    const h = await ledgerHotel(ctx);
    const other = await ledgerHotel(ctx);
    const invoice = await invoiced(h, 'en', []);
    expect((await download(invoice.id)).statusCode).toBe(401);
    expect((await download(invoice.id, 'garbage')).statusCode).toBe(401);
    expect((await download(invoice.id, other.ownerToken)).statusCode).toBe(404);
    // A clerk of room 101 only: the invoice of 102 is not hers.
    expect((await download(invoice.id, h.limitedStaff.token)).statusCode).toBe(404);
    const attendant = await member(ctx, h.hotel.id, 'housekeeping');
    expect((await download(invoice.id, attendant.token)).statusCode).toBe(403);
    const bad = await download('1e308', h.ownerToken);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: { code: 'VALIDATION', message: 'Invalid ID' } });
    expect((await download(invoice.id + 1000, h.ownerToken)).statusCode).toBe(404);
  });
});
