import PDFDocument from 'pdfkit';
import { LANGUAGES, fromMinor, minorDigits, type TLanguageHeader } from '@console/shared';
import type { TInvoiceDto } from '@console/shared/dto';
import type { AuthedContext } from '../../context';
import type { Translator } from '../../infra/i18n';
import { getInvoice } from './invoices.service';
import { PageText, type TextBox } from './pdf-text';

/**
 * An invoice or credit note as a PDF (docs/invoices.md, "The PDF"): the printable page's sheet,
 * made by the server, in the document's language whatever the reader's (right to left in Arabic),
 * from the document as issued. An A4 page, or more for a long bill: the lines' table goes on with
 * its header repeated, and each page says the document's number and page.
 */

const PAGE = { width: 595.28, height: 841.89, margin: 48 };
const WIDTH = PAGE.width - 2 * PAGE.margin;
const BOTTOM = PAGE.height - PAGE.margin - 18;
const GREY = '#737373';
const RULE = '#d4d4d4';

/** `invoice.get`'s rules (stay.manage, the hotel's, the actor's rooms), then the document as a PDF. */
export async function invoicePdf(ctx: AuthedContext, raw: { id: unknown }): Promise<{ fileName: string; type: string; body: Buffer }> {
  const invoice = await getInvoice(ctx, { id: raw.id as number });
  const body = await renderInvoicePdf(invoice, ctx.deps.i18n, ctx.actor.timeZone);
  const t = (key: string) => ctx.deps.i18n.t(invoice.language as TLanguageHeader, key);
  const title = t(invoice.kind === 'invoice' ? 'invoices.title' : 'invoices.creditNote');
  return { fileName: `${title}-${numberOf(invoice.number)}.pdf`, type: 'application/pdf', body };
}

const numberOf = (n: number) => String(n).padStart(6, '0');

export function renderInvoicePdf(invoice: TInvoiceDto, i18n: Translator, timeZone: string): Promise<Buffer> {
  const lang = invoice.language as TLanguageHeader;
  const dir = LANGUAGES.find((l) => l.header === lang)?.dir ?? 'ltr';
  const t = (key: string, params?: Record<string, unknown>) => i18n.t(lang, key, params);
  const money = new Intl.NumberFormat(lang, { style: 'currency', currency: invoice.currency, minimumFractionDigits: minorDigits(invoice.currency) });
  const dayFormat = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' });
  const instantFormat = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone });
  const f = {
    money: (minor: number) => money.format(fromMinor(minor, invoice.currency)),
    day: (date: string) => dayFormat.format(new Date(`${date}T00:00:00Z`)),
    instant: (iso: string) => instantFormat.format(new Date(iso)),
  };
  const doc = invoice.document;
  const title = t(invoice.kind === 'invoice' ? 'invoices.title' : 'invoices.creditNote');
  const number = t('invoices.number', { number: numberOf(invoice.number) });

  const pdf = new PDFDocument({
    size: 'A4',
    margin: 0,
    bufferPages: true,
    lang,
    displayTitle: true,
    info: { Title: `${title} ${number}`, Author: doc.seller.legalName || doc.seller.name, CreationDate: new Date(invoice.issuedAt) },
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });

  const text = new PageText(pdf, lang, dir);
  /** A column from `x` (points from the page's start side) `width` wide, in page coordinates. */
  const at = (x: number, width: number) => ({ x: dir === 'rtl' ? PAGE.margin + WIDTH - x - width : PAGE.margin + x, width });
  let y = PAGE.margin;
  const para = (value: string, x: number, width: number, top: number, box: Partial<TextBox> = {}) =>
    text.paragraph(value, { ...at(x, width), top, size: 9.5, ...box });
  const rule = (top: number) =>
    pdf
      .moveTo(PAGE.margin, top)
      .lineTo(PAGE.margin + WIDTH, top)
      .lineWidth(0.6)
      .strokeColor(RULE)
      .stroke();
  const room = (needed: number) => {
    if (y + needed <= BOTTOM) return false;
    pdf.addPage({ size: 'A4', margin: 0 });
    y = PAGE.margin;
    return true;
  };

  // The seller on the start side, the document's title and number on the end side.
  const half = WIDTH * 0.56;
  let left = y;
  left += para(doc.seller.legalName || doc.seller.name, 0, half, left, { size: 13, weight: 'bold' });
  if (doc.seller.legalName) left += para(doc.seller.name, 0, half, left);
  if (doc.seller.address) left += para(doc.seller.address, 0, half, left);
  if (doc.seller.tel) left += para(doc.seller.tel, 0, half, left, { dir: 'ltr' });
  if (doc.seller.taxId) left += para(t('invoices.taxNumber', { taxId: doc.seller.taxId }), 0, half, left);
  let right = y;
  const end = { align: 'end' as const };
  right += para(title, half, WIDTH - half, right, { ...end, size: 20, weight: 'bold' });
  right += para(number, half, WIDTH - half, right, { ...end, weight: 'bold' });
  right += para(`${t('invoices.issuedOn')}: ${f.instant(invoice.issuedAt)}`, half, WIDTH - half, right, end);
  right += para(`${t('invoices.businessDate')}: ${f.day(invoice.businessDate)}`, half, WIDTH - half, right, end);
  y = Math.max(left, right) + 14;

  if (invoice.credits) y += para(t('invoices.credits', { number: numberOf(invoice.credits.number) }), 0, WIDTH, y);
  if (invoice.reason) y += para(t('invoices.reasonLine', { reason: invoice.reason }), 0, WIDTH, y);
  if (invoice.creditedBy)
    y += para(t('invoices.creditedBy', { number: numberOf(invoice.creditedBy.number) }), 0, WIDTH, y, { color: '#b91c1c', weight: 'bold' });
  y += 6;

  // The buyer and the stay, side by side.
  const col = WIDTH / 2 - 8;
  let buyer = y;
  buyer += para(t('invoices.buyer'), 0, col, buyer, { size: 8, weight: 'bold', color: GREY });
  buyer += para(doc.buyer.name, 0, col, buyer, { weight: 'bold' });
  if (doc.buyer.address) buyer += para(doc.buyer.address, 0, col, buyer);
  if (doc.buyer.taxId) buyer += para(t('invoices.taxNumber', { taxId: doc.buyer.taxId }), 0, col, buyer);
  let stay = y;
  const second = WIDTH / 2 + 8;
  stay += para(t('invoices.stay'), second, col, stay, { size: 8, weight: 'bold', color: GREY });
  stay += para(`${t('invoices.guest')}: ${doc.stay.guestName}`, second, col, stay);
  stay += para(`${t('invoices.room')}: ${doc.stay.roomName}`, second, col, stay);
  stay += para(`${t('invoices.arrival')}: ${f.instant(doc.stay.arrival)} · ${t('invoices.departure')}: ${f.instant(doc.stay.departure)}`, second, col, stay);
  y = Math.max(buyer, stay) + 14;

  // The lines: date, description, amount; the header again on each new page.
  const DATE = { x: 0, width: 92 };
  const AMOUNT = { x: WIDTH - 128, width: 128 };
  const DESCRIPTION = { x: DATE.width + 6, width: AMOUNT.x - DATE.width - 18 };
  const header = () => {
    para(t('invoices.date'), DATE.x, DATE.width, y, { size: 8, color: GREY, weight: 'bold' });
    para(t('invoices.description'), DESCRIPTION.x, DESCRIPTION.width, y, { size: 8, color: GREY, weight: 'bold' });
    para(t('invoices.amount'), AMOUNT.x, AMOUNT.width, y, { size: 8, color: GREY, weight: 'bold', align: 'end' });
    y += 14;
    rule(y - 2);
    y += 3;
  };
  header();
  for (const line of doc.lines) {
    const description = text.wrap(line.description, DESCRIPTION.width, 9.5);
    const taxNote = line.taxIncluded === null ? null : t('invoices.taxIncludedShort', { amount: f.money(line.taxIncluded) });
    const height = Math.max(description.length, taxNote ? 2 : 1) * 9.5 * 1.45 + 5;
    if (room(height)) header();
    para(f.day(line.date), DATE.x, DATE.width, y);
    description.forEach((part, i) => text.line(part, { ...at(DESCRIPTION.x, DESCRIPTION.width), top: y + i * 9.5 * 1.45, size: 9.5 }));
    para(f.money(line.amount), AMOUNT.x, AMOUNT.width, y, { align: 'end', dir: 'ltr' });
    if (taxNote) para(taxNote, AMOUNT.x, AMOUNT.width, y + 9.5 * 1.45, { align: 'end', size: 8, color: GREY, dir: 'ltr' });
    y += height;
    rule(y - 3);
  }
  y += 12;

  // The taxes and the payments on the start side, the totals on the end side.
  const listWidth = WIDTH * 0.55;
  const totalsX = WIDTH * 0.6;
  const totalsWidth = WIDTH - totalsX;
  const pair = (label: string, amount: string, x: number, width: number, top: number, box: Partial<TextBox> = {}) => {
    const labelHeight = para(label, x, width - 100, top, box);
    para(amount, x + width - 100, 100, top, { ...box, align: 'end', dir: 'ltr' });
    return Math.max(labelHeight, 9.5 * 1.45);
  };
  const listHeight = (doc.taxes.length ? (doc.taxes.length + 1) * 16 : 0) + (doc.payments.length ? (doc.payments.length + 1) * 16 + 6 : 0);
  room(Math.min(Math.max(listHeight, 4 * 16), BOTTOM - PAGE.margin));
  let list = y;
  if (doc.taxes.length) {
    list += para(t('invoices.taxesHeading'), 0, listWidth, list, { size: 8, weight: 'bold', color: GREY });
    for (const tax of doc.taxes) {
      const label = tax.included ? `${tax.description} (${t('invoices.includedNote')})` : tax.description;
      list += pair(label, f.money(tax.amount), 0, listWidth, list);
    }
    list += 6;
  }
  if (doc.payments.length) {
    list += para(t('invoices.paymentsHeading'), 0, listWidth, list, { size: 8, weight: 'bold', color: GREY });
    for (const payment of doc.payments) list += pair(`${f.day(payment.date)} · ${payment.description}`, f.money(payment.amount), 0, listWidth, list);
  }
  let totals = y;
  for (const key of ['charges', 'taxes', 'paid', 'due'] as const) {
    const strong = key === 'charges' || key === 'due';
    totals += pair(t(`invoices.totals.${key}`), f.money(doc.totals[key]), totalsX, totalsWidth, totals, strong ? { weight: 'bold' } : {});
  }
  y = Math.max(list, totals);

  // Each page: the document's number and the page's.
  const pages = pdf.bufferedPageRange();
  for (let i = 0; i < pages.count; i++) {
    pdf.switchToPage(pages.start + i);
    para(`${title} ${number} · ${i + 1} / ${pages.count}`, 0, WIDTH, PAGE.height - PAGE.margin, { size: 7.5, color: GREY, align: 'end' });
  }
  pdf.end();
  return done;
}
