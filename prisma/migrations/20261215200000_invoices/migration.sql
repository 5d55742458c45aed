-- Invoices and credit notes (issue 36 "Invoices", docs/invoices.md): a bill that is final (settled, or
-- left owing) is invoiced with a document numbered without gaps per hotel, in the guest's language,
-- with the hotel's legal details and the taxes; a correction after invoicing is a credit note, never an
-- edit. The database numbers them, keeps them as issued and allows one invoice standing per bill.

-- The hotel's legal details, printed on its invoices.
ALTER TABLE "Hotel" ADD COLUMN "legalName" TEXT NOT NULL DEFAULT '';
ALTER TABLE "Hotel" ADD COLUMN "taxId" TEXT NOT NULL DEFAULT '';

CREATE TABLE "Invoice" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    -- One series per hotel, invoices and credit notes alike: 1, 2, 3, ... without a gap (set by the database).
    "number" INTEGER NOT NULL,
    -- `invoice` or `credit_note`.
    "kind" VARCHAR(16) NOT NULL,
    "folioId" INTEGER NOT NULL,
    -- A credit note: the invoice it cancels.
    "creditsInvoiceId" INTEGER,
    -- An invoice cancelled by a credit note: when (the one change an issued document takes).
    "creditedAt" TIMESTAMPTZ(3),
    "reason" TEXT NOT NULL DEFAULT '',
    "language" VARCHAR(8) NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "businessDate" VARCHAR(10) NOT NULL,
    -- What the document says, as issued: seller, buyer, stay, lines, taxes, payments, totals.
    "document" JSONB NOT NULL,
    -- The document's total (minor units; a credit note's is negative).
    "total" INTEGER NOT NULL,
    "requestId" TEXT,
    "createdByAccountId" INTEGER,
    "issuedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Invoice_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "Invoice_kind_check" CHECK ("kind" IN ('invoice', 'credit_note')),
    CONSTRAINT "Invoice_credit_check" CHECK (("kind" = 'credit_note') = ("creditsInvoiceId" IS NOT NULL)),
    CONSTRAINT "Invoice_credited_check" CHECK ("kind" = 'invoice' OR "creditedAt" IS NULL),
    CONSTRAINT "Invoice_reason_check" CHECK ("kind" = 'invoice' OR btrim("reason") <> '')
);
CREATE UNIQUE INDEX "Invoice_hotelId_id_key" ON "Invoice"("hotelId", "id");
CREATE UNIQUE INDEX "Invoice_hotelId_number_key" ON "Invoice"("hotelId", "number");
CREATE UNIQUE INDEX "Invoice_hotelId_requestId_key" ON "Invoice"("hotelId", "requestId");
CREATE INDEX "Invoice_hotelId_folioId_idx" ON "Invoice"("hotelId", "folioId");
-- One invoice standing per bill; one credit note per invoice.
CREATE UNIQUE INDEX "Invoice_standing_key" ON "Invoice"("hotelId", "folioId") WHERE "kind" = 'invoice' AND "creditedAt" IS NULL;
CREATE UNIQUE INDEX "Invoice_one_credit_key" ON "Invoice"("hotelId", "creditsInvoiceId") WHERE "kind" = 'credit_note';
ALTER TABLE "Invoice" ADD CONSTRAINT "Invoice_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "Invoice" ADD CONSTRAINT "Invoice_hotelId_folioId_fkey" FOREIGN KEY ("hotelId", "folioId") REFERENCES "Folio"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "Invoice" ADD CONSTRAINT "Invoice_hotelId_creditsInvoiceId_fkey" FOREIGN KEY ("hotelId", "creditsInvoiceId") REFERENCES "Invoice"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The number: the hotel's next, taken under its row's lock, so two documents issued at once get two
-- numbers in a row and a document that is never committed leaves no gap (its number is taken again).
CREATE FUNCTION "Invoice_number"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "Hotel" WHERE "id" = NEW."hotelId" FOR UPDATE;
  SELECT coalesce(max("number"), 0) + 1 INTO NEW."number" FROM "Invoice" WHERE "hotelId" = NEW."hotelId";
  RETURN NEW;
END $$;
CREATE TRIGGER "Invoice_number" BEFORE INSERT ON "Invoice" FOR EACH ROW EXECUTE FUNCTION "Invoice_number"();

-- Issued is issued: no document is removed, and the only change one takes is an invoice's cancellation
-- by its credit note (`creditedAt`, once).
CREATE FUNCTION "Invoice_as_issued"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'an issued invoice is never removed' USING ERRCODE = 'check_violation', CONSTRAINT = 'Invoice_as_issued';
  END IF;
  IF OLD."creditedAt" IS NOT NULL OR NEW."creditedAt" IS NULL
     OR (to_jsonb(NEW) - 'creditedAt') <> (to_jsonb(OLD) - 'creditedAt') THEN
    RAISE EXCEPTION 'an issued invoice is never changed' USING ERRCODE = 'check_violation', CONSTRAINT = 'Invoice_as_issued';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "Invoice_as_issued" BEFORE UPDATE OR DELETE ON "Invoice" FOR EACH ROW EXECUTE FUNCTION "Invoice_as_issued"();
