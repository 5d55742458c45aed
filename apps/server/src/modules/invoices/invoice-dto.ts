import type { TInvoiceKind } from '@console/shared';
import type { TInvoiceDocument, TInvoiceDto } from '@console/shared/dto';
import type { TPrisma } from '../../db/client';
import type { Prisma } from '../../generated/prisma/client';

/** An invoice as every face shows it (docs/invoices.md). */
export const invoiceSelect = {
  id: true,
  number: true,
  kind: true,
  folioId: true,
  reason: true,
  language: true,
  currency: true,
  businessDate: true,
  issuedAt: true,
  total: true,
  document: true,
  createdByAccountId: true,
  folio: { select: { stayId: true } },
  credits: { select: { id: true, number: true, issuedAt: true } },
  creditedBy: { select: { id: true, number: true, issuedAt: true } },
} satisfies Prisma.InvoiceSelect;
export type InvoiceRow = Prisma.InvoiceGetPayload<{ select: typeof invoiceSelect }>;

const ref = (r: { id: number; number: number; issuedAt: Date } | null | undefined) =>
  r ? { id: r.id, number: r.number, issuedAt: r.issuedAt.toISOString() } : null;

export async function toInvoiceDto(db: TPrisma, row: InvoiceRow): Promise<TInvoiceDto> {
  const operator = row.createdByAccountId === null ? null : await db.account.findUnique({ where: { id: row.createdByAccountId }, select: { nickname: true } });
  return {
    id: row.id,
    number: row.number,
    kind: row.kind as TInvoiceKind,
    folioId: row.folioId,
    stayId: row.folio.stayId,
    credits: ref(row.credits),
    creditedBy: ref(row.creditedBy[0]),
    reason: row.reason,
    language: row.language,
    currency: row.currency.trim(),
    businessDate: row.businessDate,
    issuedAt: row.issuedAt.toISOString(),
    total: row.total,
    operator: operator?.nickname ?? null,
    document: row.document as unknown as TInvoiceDocument,
  };
}
