/**
 * Issue 36 "Invoices" (docs/invoices.md): a final bill (settled, or left owing) is invoiced once, to
 * the buyer named, in the language chosen, with the hotel's legal details and the taxes; numbers run
 * without a gap per hotel even when documents are issued at once or refused; a correction after
 * invoicing is a credit note (a manager's, with a reason), never an edit, after which the bill may be
 * invoiced again. The database keeps documents as issued.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness';
import { ledgerHotel, refusal, stayIn } from '../../test/ledger-kit';
import { recordCharge } from '../orders/posting';
import { getFolio, settleFolio } from '../orders/settlement.service';
import { setTaxRule } from '../journal/tax-rules';
import { creditInvoice, getInvoice, invoiceDraft, issueInvoice, listInvoices, setInvoiceDetails } from './invoices.service';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

type Hotel = Awaited<ReturnType<typeof ledgerHotel>>;

/** A guest of one night, with a minibar, paid and checked out: a settled bill. */
async function settledStay(h: Hotel, roomIndex = 0) {
  const stay = await stayIn(h.staff, h.rooms[roomIndex]!.id, { to: 'next_noon' });
  await recordCharge(h.staff, { stayId: stay.id, amount: 1_250, note: 'Minibar' });
  const owed = (await getFolio(h.staff, { stayId: stay.id })).owed;
  await settleFolio(h.staff, { stayId: stay.id, checkOut: true, payment: { amount: owed, method: 'cash' } });
  return stay;
}

const buyer = { name: 'Acme Travel Ltd', taxId: '91310000MA1FL0001X', address: '1 Bund Road' };

describe('invoices', () => {
  it('invoices a final bill once, in the language chosen, with the legal details, the nights, the taxes and the payments', async () => {
    const h = await ledgerHotel(ctx);
    await setInvoiceDetails(h.owner, { legalName: 'Ledger Hotels Co., Ltd.', taxId: 'TAX-0001' });
    await setTaxRule(h.owner, { appliesTo: 'rooms', ratePercent: 10, mode: 'added' });
    // Not final yet: refused, and no number is spent.
    const open = await stayIn(h.staff, h.rooms[1].id, { to: 'next_noon' });
    expect(await invoiceDraft(h.staff, { stayId: open.id })).toMatchObject({ state: 'open' });
    expect(await refusal(issueInvoice(h.staff, { stayId: open.id, language: 'en', buyer }))).toMatchObject({
      code: 'CONFLICT',
      key: 'invoices.errors.billNotFinal',
    });

    const stay = await settledStay(h);
    const draft = await invoiceDraft(h.staff, { stayId: stay.id });
    expect(draft.state).toBe('ready');
    expect(draft.buyerName).toMatch(/^Guest /);
    const requestId = randomUUID();
    const invoice = await issueInvoice(h.staff, { stayId: stay.id, language: 'zh-CN', buyer, requestId });
    expect(invoice).toMatchObject({
      number: 1,
      kind: 'invoice',
      language: 'zh-CN',
      currency: 'CNY',
      credits: null,
      creditedBy: null,
      total: 20_000 + 2_000 + 1_250,
    });
    const doc = invoice.document;
    expect(doc.seller).toMatchObject({ name: h.hotel.name, legalName: 'Ledger Hotels Co., Ltd.', taxId: 'TAX-0001' });
    expect(doc.buyer).toEqual(buyer);
    // Written in Chinese: the night by the room it was spent in, the tax added, the minibar as typed.
    const t = (key: string, params?: Record<string, unknown>) => ctx.deps.i18n.t('zh-CN', key, params);
    expect(doc.lines.map((l) => [l.description, l.amount, l.tax])).toEqual([
      [t('invoices.lines.room', { room: '101' }), 20_000, false],
      [t('orders.notes.taxAdded', { rate: '10' }), 2_000, true],
      ['Minibar', 1_250, false],
    ]);
    expect(doc.taxes).toEqual([{ description: t('invoices.taxes.added', { rate: 10, kind: t('invoices.taxes.rooms') }), amount: 2_000, included: false }]);
    expect(doc.totals).toEqual({ charges: 23_250, taxes: 2_000, paid: 23_250, due: 0 });
    expect(doc.payments.map((p) => p.amount)).toEqual([23_250]);
    // The same request sent twice at once: one invoice, both answered with it.
    const twice = randomUUID();
    const other = await settledStay(h, 2);
    const [x, y] = await Promise.all([0, 1].map(() => issueInvoice(h.staff, { stayId: other.id, language: 'en', buyer, requestId: twice })));
    expect(x!.id).toBe(y!.id);
    // The same request again: the same invoice; another: refused, it stands.
    expect((await issueInvoice(h.staff, { stayId: stay.id, language: 'zh-CN', buyer, requestId })).id).toBe(invoice.id);
    expect(await refusal(issueInvoice(h.staff, { stayId: stay.id, language: 'en', buyer }))).toMatchObject({
      code: 'CONFLICT',
      key: 'invoices.errors.alreadyInvoiced',
    });
    expect(await invoiceDraft(h.staff, { stayId: stay.id })).toMatchObject({ state: 'invoiced' });

    // What was printed stays: the legal details changed later change nothing issued.
    await setInvoiceDetails(h.owner, { legalName: 'Renamed Ltd', taxId: 'TAX-0002' });
    expect((await getInvoice(h.staff, { id: invoice.id })).document.seller.legalName).toBe('Ledger Hotels Co., Ltd.');
    expect((await listInvoices(h.staff, { page: 1, pageSize: 20, stayId: stay.id })).items.map((i) => i.number)).toEqual([1]);
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: h.hotel.id, action: 'invoice.issue' } })).toBe(2);
  });

  it('cancels an invoice with a credit note by a manager, with a reason, numbered next; the bill is invoiced again', async () => {
    const h = await ledgerHotel(ctx);
    const stay = await settledStay(h);
    const invoice = await issueInvoice(h.staff, { stayId: stay.id, language: 'en', buyer });
    expect(await refusal(creditInvoice(h.staff, { invoiceId: invoice.id, reason: 'Wrong buyer' }))).toMatchObject({ code: 'FORBIDDEN' });
    expect(await refusal(creditInvoice(h.owner, { invoiceId: invoice.id, reason: ' ' }))).toMatchObject({ code: 'ZOD' });
    // Two credits at once: one credit note.
    const [a, b] = await Promise.allSettled([
      creditInvoice(h.owner, { invoiceId: invoice.id, reason: 'Wrong buyer' }),
      creditInvoice(h.owner, { invoiceId: invoice.id, reason: 'Wrong buyer' }),
    ]);
    const credit = [a, b].find((r) => r.status === 'fulfilled')!.value;
    expect([a, b].filter((r) => r.status === 'rejected')).toHaveLength(1);
    expect(credit).toMatchObject({ number: 2, kind: 'credit_note', total: -invoice.total, reason: 'Wrong buyer', credits: { id: invoice.id, number: 1 } });
    expect(credit.document.lines.map((l) => l.amount)).toEqual(invoice.document.lines.map((l) => -l.amount));
    expect((await getInvoice(h.staff, { id: invoice.id })).creditedBy).toMatchObject({ id: credit.id, number: 2 });
    expect(await refusal(creditInvoice(h.owner, { invoiceId: credit.id, reason: 'Again' }))).toMatchObject({ key: 'invoices.errors.creditOfCredit' });
    expect(await refusal(creditInvoice(h.owner, { invoiceId: invoice.id, reason: 'Again' }))).toMatchObject({ key: 'invoices.errors.alreadyCredited' });
    const again = await issueInvoice(h.staff, { stayId: stay.id, language: 'en', buyer: { ...buyer, name: 'Acme Travel GmbH' } });
    expect([again.number, again.document.buyer.name]).toEqual([3, 'Acme Travel GmbH']);
  });

  it('numbers without a gap when invoices are issued at once and when one is refused', async () => {
    const h = await ledgerHotel(ctx, ['101', '102', '103', '104', '105', '106']);
    const stays = [];
    for (let i = 0; i < 5; i += 1) stays.push(await settledStay(h, i));
    const open = await stayIn(h.staff, h.rooms[5]!.id, { to: 'next_noon' });
    const results = await Promise.allSettled([
      ...stays.map((s) => issueInvoice(h.staff, { stayId: s.id, language: 'en', buyer })),
      issueInvoice(h.staff, { stayId: open.id, language: 'en', buyer }),
      issueInvoice(h.staff, { stayId: stays[0]!.id, language: 'en', buyer }),
    ]);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(2);
    const numbers = (await ctx.deps.prisma.invoice.findMany({ where: { hotelId: h.hotel.id }, select: { number: true } }))
      .map((r) => r.number)
      .sort((x, y) => x - y);
    expect(numbers).toEqual([1, 2, 3, 4, 5]);
    // Another hotel's series is its own, and its invoices are not found from here.
    const other = await ledgerHotel(ctx);
    const theirs = await issueInvoice(other.staff, { stayId: (await settledStay(other)).id, language: 'en', buyer });
    expect(theirs.number).toBe(1);
    expect(await refusal(getInvoice(h.owner, { id: theirs.id }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await refusal(creditInvoice(h.owner, { invoiceId: theirs.id, reason: 'x' }))).toMatchObject({ code: 'NOT_FOUND' });
    // Staff limited to room 101: an invoice of room 102 is not found, nor listed.
    const ofRoom2 = (await listInvoices(h.owner, { page: 1, pageSize: 20 })).items.find((i) => i.document.stay.roomName === '102')!;
    expect(await refusal(getInvoice(h.limitedStaff.ctx, { id: ofRoom2.id }))).toMatchObject({ code: 'NOT_FOUND' });
    expect((await listInvoices(h.limitedStaff.ctx, { page: 1, pageSize: 20 })).items.map((i) => i.document.stay.roomName)).toEqual(['101']);
  });

  it('keeps a document as issued: the database refuses to change or remove one, and numbers it itself', async () => {
    const h = await ledgerHotel(ctx);
    const invoice = await issueInvoice(h.staff, { stayId: (await settledStay(h)).id, language: 'en', buyer });
    const changed = ctx.deps.prisma.invoice.update({ where: { id: invoice.id }, data: { total: 1 } });
    await expect(changed).rejects.toThrow(/never changed/);
    await expect(ctx.deps.prisma.$executeRaw`DELETE FROM "Invoice" WHERE "id" = ${invoice.id}`).rejects.toThrow(/never removed/);
    const row = await ctx.deps.prisma.invoice.create({
      data: {
        ...(await ctx.deps.prisma.invoice.findUniqueOrThrow({
          where: { id: invoice.id },
          select: { hotelId: true, folioId: true, language: true, currency: true, businessDate: true, total: true },
        })),
        number: 99,
        kind: 'credit_note',
        creditsInvoiceId: invoice.id,
        reason: 'SQL',
        document: {},
      },
      select: { number: true },
    });
    expect(row.number).toBe(2);
  });
});
