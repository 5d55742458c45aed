import {
  ZCreditInvoiceInput,
  ZInvoiceDetailsInput,
  ZInvoiceIdInput,
  ZInvoiceListInput,
  ZIssueInvoiceInput,
  type TCreditInvoiceInput,
  type TInvoiceDetailsInput,
  type TIssueInvoiceInput,
} from '@console/shared';
import type { TInvoiceDocument, TInvoiceDto } from '@console/shared/dto';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { recordEvent } from '../../db/events';
import { transaction } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { findStay } from '../base/stay-dto';
import { roomScope } from '../base/room-access';
import { businessDateOf } from '../journal/business-date';
import { languageForGuest } from '../messages/compose';
import { loadVisit } from '../orders/folio';
import type { Tx } from '../../db/transaction';
import type { TPrisma } from '../../db/client';
import { invoiceDocument } from './invoice-document';
import { invoiceSelect, toInvoiceDto, type InvoiceRow } from './invoice-dto';

/**
 * Invoices and credit notes (issue 36 "Invoices", docs/invoices.md). A bill that is final (settled,
 * or left owing: nothing but payments reaches it any more) is invoiced once, by the desk, to the
 * buyer named, in the language chosen; a correction after invoicing is a credit note, by a manager,
 * that cancels the invoice in full with a reason, after which the bill may be invoiced again. The
 * database numbers both without gaps per hotel and keeps them as issued.
 */

/** The bill of a stay's visit, in the actor's scope, with what decides whether it can be invoiced. */
async function billOf(ctx: AuthedContext, stayId: number) {
  const stay = await findStay(ctx, stayId);
  const visit = await loadVisit(ctx.deps.prisma, ctx.actor.hotelId, stay.id);
  const folio = await ctx.deps.prisma.folio.findFirst({
    where: { hotelId: ctx.actor.hotelId, stayId: visit.first.id },
    select: { id: true, stayId: true, settledAt: true, owedAt: true, currency: true },
  });
  return { stay, folio };
}

/** Holds a bill for the rest of the transaction (invoices of one bill are issued and credited one at a time): whether it is final. */
async function lockBill(tx: Tx, hotelId: number, folioId: number): Promise<boolean> {
  const [row] = await tx.$queryRaw<{ final: boolean }[]>`
    SELECT ("settledAt" IS NOT NULL OR "owedAt" IS NOT NULL) AS "final" FROM "Folio" WHERE "hotelId" = ${hotelId} AND "id" = ${folioId} FOR NO KEY UPDATE`;
  return row?.final ?? false;
}

/** The document a request id made already (the same request sent again, or twice at once): its id. */
async function madeBy(db: TPrisma | Tx, hotelId: number, requestId: string | undefined): Promise<number | null> {
  if (!requestId) return null;
  return (await db.invoice.findFirst({ where: { hotelId, requestId }, select: { id: true } }))?.id ?? null;
}

/** An invoice of the actor's hotel and rooms (another hotel's, or of a room out of scope: not found). */
async function findInvoice(ctx: AuthedContext, id: number): Promise<InvoiceRow> {
  const row = await ctx.deps.prisma.invoice.findFirst({
    where: { id, hotelId: ctx.actor.hotelId, folio: { stay: { room: roomScope(ctx.actor) } } },
    select: invoiceSelect,
  });
  if (!row) throw new AppError('NOT_FOUND', { messageKey: 'invoices.errors.notFound' });
  return row;
}

/** `invoice.draft`: what the dialog proposes for a stay's bill (the guest's language and name) and whether it can be invoiced. */
export async function invoiceDraft(ctx: AuthedContext, raw: { stayId: number }) {
  requirePermission(ctx.actor, 'stay.manage');
  const { stay, folio } = await billOf(ctx, raw.stayId);
  const guest = await ctx.deps.prisma.stayGuest.findFirst({
    where: { hotelId: ctx.actor.hotelId, stayId: stay.id },
    orderBy: [{ isPrimary: 'desc' }, { id: 'asc' }],
    select: { name: true, mobile: true },
  });
  const standing = folio
    ? await ctx.deps.prisma.invoice.count({ where: { hotelId: ctx.actor.hotelId, folioId: folio.id, kind: 'invoice', creditedAt: null } })
    : 0;
  const final = Boolean(folio?.settledAt || folio?.owedAt);
  return {
    language: await languageForGuest(ctx.deps, ctx.actor.hotelId, guest?.mobile),
    buyerName: guest?.name ?? '',
    state: standing > 0 ? ('invoiced' as const) : final ? ('ready' as const) : ('open' as const),
  };
}

/** `invoice.issue`: the invoice of a final bill; the same request sent twice issues one. */
export async function issueInvoice(ctx: AuthedContext, raw: TIssueInvoiceInput): Promise<TInvoiceDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'stay.manage');
  const input = ZIssueInvoiceInput.parse(raw);
  const again = await madeBy(deps.prisma, actor.hotelId, input.requestId);
  if (again) return toInvoiceDto(deps.prisma, await findInvoice(ctx, again));
  const { stay, folio } = await billOf(ctx, input.stayId);
  if (!folio) throw new AppError('CONFLICT', { messageKey: 'invoices.errors.billNotFinal' });
  const id = await transaction(deps, async (tx) => {
    if (!(await lockBill(tx, actor.hotelId, folio.id))) throw new AppError('CONFLICT', { messageKey: 'invoices.errors.billNotFinal' });
    // The same request sent twice at once: the second, waiting for the bill, answers with the first's invoice.
    const same = await madeBy(tx, actor.hotelId, input.requestId);
    if (same) return same;
    const standing = await tx.invoice.findFirst({
      where: { hotelId: actor.hotelId, folioId: folio.id, kind: 'invoice', creditedAt: null },
      select: { number: true },
    });
    if (standing) throw new AppError('CONFLICT', { messageKey: 'invoices.errors.alreadyInvoiced', details: { number: standing.number } });
    const { document, total } = await invoiceDocument(tx, deps.i18n, actor.hotelId, folio.id, input.language, input.buyer);
    const row = await tx.invoice.create({
      data: {
        hotelId: actor.hotelId,
        number: 0, // set by the database (trigger Invoice_number)
        kind: 'invoice',
        folioId: folio.id,
        language: input.language,
        currency: folio.currency,
        businessDate: await businessDateOf(tx, actor.hotelId),
        document,
        total,
        requestId: input.requestId ?? null,
        createdByAccountId: actor.accountId,
      },
      select: { id: true, number: true },
    });
    await recordEvent(tx, { hotelId: actor.hotelId, kind: 'ledger.changed', roomIds: [stay.roomId], stayId: stay.id });
    await recordAudit(tx, ctx, {
      action: 'invoice.issue',
      entityType: 'Invoice',
      entityId: row.id,
      after: { number: row.number, folioId: folio.id, total, language: input.language },
    });
    return row.id;
  });
  return toInvoiceDto(deps.prisma, await findInvoice(ctx, id));
}

/** `invoice.credit`: a credit note that cancels an invoice in full, with the reason (managers). */
export async function creditInvoice(ctx: AuthedContext, raw: TCreditInvoiceInput): Promise<TInvoiceDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'order.manage');
  const input = ZCreditInvoiceInput.parse(raw);
  const again = await madeBy(deps.prisma, actor.hotelId, input.requestId);
  if (again) return toInvoiceDto(deps.prisma, await findInvoice(ctx, again));
  const invoice = await findInvoice(ctx, input.invoiceId);
  if (invoice.kind !== 'invoice') throw new AppError('CONFLICT', { messageKey: 'invoices.errors.creditOfCredit' });
  const id = await transaction(deps, async (tx) => {
    await lockBill(tx, actor.hotelId, invoice.folioId);
    const same = await madeBy(tx, actor.hotelId, input.requestId);
    if (same) return same;
    const now = await tx.invoice.findFirstOrThrow({ where: { id: invoice.id }, select: { creditedAt: true } });
    if (now.creditedAt) throw new AppError('CONFLICT', { messageKey: 'invoices.errors.alreadyCredited' });
    const original = invoice.document as unknown as TInvoiceDocument;
    const negate = <T extends { amount: number }>(rows: T[]) => rows.map((r) => ({ ...r, amount: -r.amount }));
    const document: TInvoiceDocument = {
      ...original,
      lines: original.lines.map((l) => ({ ...l, amount: -l.amount, taxIncluded: l.taxIncluded === null ? null : -l.taxIncluded })),
      taxes: negate(original.taxes),
      payments: [],
      totals: { charges: -original.totals.charges, taxes: -original.totals.taxes, paid: 0, due: -original.totals.charges },
    };
    const at = new Date();
    const row = await tx.invoice.create({
      data: {
        hotelId: actor.hotelId,
        number: 0, // set by the database (trigger Invoice_number)
        kind: 'credit_note',
        folioId: invoice.folioId,
        creditsInvoiceId: invoice.id,
        reason: input.reason,
        language: invoice.language,
        currency: invoice.currency,
        businessDate: await businessDateOf(tx, actor.hotelId),
        document,
        total: -invoice.total,
        requestId: input.requestId ?? null,
        createdByAccountId: actor.accountId,
        issuedAt: at,
      },
      select: { id: true, number: true },
    });
    await tx.invoice.update({ where: { id: invoice.id }, data: { creditedAt: at } });
    await recordEvent(tx, { hotelId: actor.hotelId, kind: 'ledger.changed', stayId: invoice.folio.stayId });
    await recordAudit(tx, ctx, {
      action: 'invoice.credit',
      entityType: 'Invoice',
      entityId: row.id,
      before: { invoice: invoice.number },
      after: { number: row.number, reason: input.reason, total: -invoice.total },
    });
    return row.id;
  });
  return toInvoiceDto(deps.prisma, await findInvoice(ctx, id));
}

/** `invoice.get`: one invoice or credit note. */
export async function getInvoice(ctx: AuthedContext, raw: z.input<typeof ZInvoiceIdInput>): Promise<TInvoiceDto> {
  requirePermission(ctx.actor, 'stay.manage');
  const { id } = ZInvoiceIdInput.parse(raw);
  return toInvoiceDto(ctx.deps.prisma, await findInvoice(ctx, id));
}

/** `invoice.list`: the hotel's invoices and credit notes (of a stay's bill), newest first. */
export async function listInvoices(ctx: AuthedContext, raw: z.input<typeof ZInvoiceListInput>) {
  requirePermission(ctx.actor, 'stay.manage');
  const input = ZInvoiceListInput.parse(raw);
  const folioId = input.stayId === undefined ? undefined : ((await billOf(ctx, input.stayId)).folio?.id ?? -1);
  const where = { hotelId: ctx.actor.hotelId, folio: { stay: { room: roomScope(ctx.actor) } }, ...(folioId === undefined ? {} : { folioId }) };
  const [rows, total] = await Promise.all([
    ctx.deps.prisma.invoice.findMany({
      where,
      select: invoiceSelect,
      orderBy: { number: 'desc' },
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
    }),
    ctx.deps.prisma.invoice.count({ where }),
  ]);
  const items = await Promise.all(rows.map((row) => toInvoiceDto(ctx.deps.prisma, row)));
  return { items, total, page: input.page, pageSize: input.pageSize };
}

/** `invoice.details`: the hotel's legal details printed on its invoices. */
export async function invoiceDetails(ctx: AuthedContext) {
  if (!ctx.actor.permissions.has('hotel.manage')) requirePermission(ctx.actor, 'stay.manage');
  return ctx.deps.prisma.hotel.findUniqueOrThrow({ where: { id: ctx.actor.hotelId }, select: { legalName: true, taxId: true } });
}

/** `invoice.setDetails`: owners and administrators set them (invoices issued keep what they printed). */
export async function setInvoiceDetails(ctx: AuthedContext, raw: TInvoiceDetailsInput) {
  requirePermission(ctx.actor, 'hotel.manage');
  const input = ZInvoiceDetailsInput.parse(raw);
  return transaction(ctx.deps, async (tx) => {
    const before = await tx.hotel.findUniqueOrThrow({ where: { id: ctx.actor.hotelId }, select: { legalName: true, taxId: true } });
    if (before.legalName === input.legalName && before.taxId === input.taxId) return before;
    const after = await tx.hotel.update({ where: { id: ctx.actor.hotelId }, data: input, select: { legalName: true, taxId: true } });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'hotel.changed' });
    await recordAudit(tx, ctx, { action: 'hotel.update', entityType: 'Hotel', entityId: ctx.actor.hotelId, before, after });
    return after;
  });
}
