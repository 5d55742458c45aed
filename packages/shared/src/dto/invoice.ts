import { z } from 'zod';
import { INVOICE_KINDS } from '../invoices';

/**
 * An invoice or credit note as issued (docs/invoices.md): what the document says is kept as it was
 * written, its texts already in the document's language; amounts in minor units, charges positive.
 */
const ZParty = z.object({ name: z.string(), taxId: z.string(), address: z.string() });
export const ZInvoiceDocument = z.object({
  seller: ZParty.extend({ legalName: z.string(), tel: z.string() }),
  buyer: ZParty,
  stay: z.object({ roomName: z.string(), guestName: z.string(), arrival: z.string(), departure: z.string() }),
  /** The charges standing on the bill: room nights (each dated by its night), extras, taxes added. */
  lines: z.array(z.object({ date: z.string(), description: z.string(), amount: z.number().int(), taxIncluded: z.number().int().nullable(), tax: z.boolean() })),
  /** The taxes of the bill per rule: included in the charges, or added as lines. */
  taxes: z.array(z.object({ description: z.string(), amount: z.number().int(), included: z.boolean() })),
  /** Money received (positive) and handed back (negative). */
  payments: z.array(z.object({ date: z.string(), description: z.string(), amount: z.number().int() })),
  totals: z.object({ charges: z.number().int(), taxes: z.number().int(), paid: z.number().int(), due: z.number().int() }),
});
export type TInvoiceDocument = z.infer<typeof ZInvoiceDocument>;

const ZInvoiceRef = z.object({ id: z.number(), number: z.number(), issuedAt: z.string() });
export const ZInvoiceDto = z.object({
  id: z.number(),
  number: z.number(),
  kind: z.enum(INVOICE_KINDS),
  folioId: z.number(),
  stayId: z.number(),
  /** A credit note: the invoice it cancels. */
  credits: ZInvoiceRef.nullable(),
  /** An invoice: the credit note that cancelled it. */
  creditedBy: ZInvoiceRef.nullable(),
  reason: z.string(),
  language: z.string(),
  currency: z.string(),
  businessDate: z.string(),
  issuedAt: z.string(),
  /** The document's total (a credit note's is negative). */
  total: z.number().int(),
  operator: z.string().nullable(),
  document: ZInvoiceDocument,
});
export type TInvoiceDto = z.infer<typeof ZInvoiceDto>;

export const ZInvoiceList = z.object({ items: z.array(ZInvoiceDto), total: z.number(), page: z.number(), pageSize: z.number() });

/** What the invoice dialog proposes: the guest's language and name (the clerk decides), and whether the bill can be invoiced now. */
export const ZInvoiceDraft = z.object({
  language: z.string(),
  buyerName: z.string(),
  /** `ready` (final bill, none standing), `open` (the bill is not final yet), `invoiced` (one stands). */
  state: z.enum(['ready', 'open', 'invoiced']),
});

export const ZInvoiceDetails = z.object({ legalName: z.string(), taxId: z.string() });
