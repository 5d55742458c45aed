import { z } from 'zod';
import { LANGUAGE_HEADERS, type TLanguageHeader } from './languages';
import { ZOrderReason, ZOrderRequestId } from './orders';
import { ZId, ZPageInput, oneLine, zOptionalText } from './primitives';

/**
 * Invoices and credit notes (issue 36 "Invoices", docs/invoices.md): a bill that is final (settled, or
 * left owing) is invoiced once, in the language the clerk chooses (the guest's is proposed), to the
 * buyer named; a correction after invoicing is a credit note that cancels the invoice, never an edit.
 */
export const INVOICE_KINDS = ['invoice', 'credit_note'] as const;
export type TInvoiceKind = (typeof INVOICE_KINDS)[number];

export const INVOICE_LIMITS = {
  buyerNameMaxLength: 200,
  buyerTaxIdMaxLength: 64,
  buyerAddressMaxLength: 500,
  legalNameMaxLength: 200,
  taxIdMaxLength: 64,
} as const;

const ZInvoiceLanguage = z.enum(LANGUAGE_HEADERS as [TLanguageHeader, ...TLanguageHeader[]], { error: 'invoices.validation.languageRequired' });

/** An invoice of the bill of a stay's visit, to `buyer`. */
export const ZIssueInvoiceInput = z.object({
  stayId: ZId,
  language: ZInvoiceLanguage,
  buyer: z.object(
    {
      name: oneLine(
        z
          .string({ error: 'invoices.validation.buyerRequired' })
          .trim()
          .min(1, { error: 'invoices.validation.buyerRequired' })
          .max(INVOICE_LIMITS.buyerNameMaxLength, { error: 'validation.textTooLong' }),
      ),
      taxId: zOptionalText(INVOICE_LIMITS.buyerTaxIdMaxLength),
      address: zOptionalText(INVOICE_LIMITS.buyerAddressMaxLength),
    },
    { error: 'invoices.validation.buyerRequired' },
  ),
  /** The client's id of the request: the same id sent twice issues one invoice. */
  requestId: ZOrderRequestId.optional(),
});
export type TIssueInvoiceInput = z.input<typeof ZIssueInvoiceInput>;

/** A credit note cancelling an invoice, with the reason. */
export const ZCreditInvoiceInput = z.object({ invoiceId: ZId, reason: ZOrderReason, requestId: ZOrderRequestId.optional() });
export type TCreditInvoiceInput = z.input<typeof ZCreditInvoiceInput>;

export const ZInvoiceIdInput = z.object({ id: ZId });
/** The hotel's invoices and credit notes, newest first; of one stay's bill with `stayId`. */
export const ZInvoiceListInput = ZPageInput.extend({ stayId: ZId.optional() });

/** The hotel's legal details printed on its invoices. */
export const ZInvoiceDetailsInput = z.object({
  legalName: zOptionalText(INVOICE_LIMITS.legalNameMaxLength),
  taxId: zOptionalText(INVOICE_LIMITS.taxIdMaxLength),
});
export type TInvoiceDetailsInput = z.input<typeof ZInvoiceDetailsInput>;
