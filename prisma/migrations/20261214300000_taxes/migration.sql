-- Taxes included in the price (issue 36 "Taxes", docs/journal.md "Taxes"): a hotel's VAT-style rules,
-- one rate a kind of revenue (rooms, everything else), included in what the guest is charged. The bill
-- does not change; the journal books each revenue line net of the tax it includes and the tax on its
-- own account, `tax_payable`, under the rule that levied it. A hotel with no rule sees nothing change.

ALTER TYPE "LedgerAccount" ADD VALUE 'tax_payable';

CREATE TABLE "TaxRule" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    -- `rooms` (room charges) or `extras` (every other charge).
    "appliesTo" VARCHAR(16) NOT NULL,
    -- The rate in basis points (600 = 6 %), included in the price.
    "rateBp" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdByAccountId" INTEGER,
    -- When a later rule replaced it (or it was removed): what was posted under it keeps it.
    "retiredAt" TIMESTAMPTZ(3),
    CONSTRAINT "TaxRule_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "TaxRule_appliesTo_check" CHECK ("appliesTo" IN ('rooms', 'extras')),
    CONSTRAINT "TaxRule_rateBp_check" CHECK ("rateBp" > 0 AND "rateBp" <= 10000)
);
CREATE UNIQUE INDEX "TaxRule_hotelId_id_key" ON "TaxRule"("hotelId", "id");
-- One rule in force a kind of revenue.
CREATE UNIQUE INDEX "TaxRule_in_force_key" ON "TaxRule"("hotelId", "appliesTo") WHERE "retiredAt" IS NULL;
ALTER TABLE "TaxRule" ADD CONSTRAINT "TaxRule_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A tax line names the rule that levied it.
ALTER TABLE "JournalLine" ADD COLUMN "taxRuleId" INTEGER;
ALTER TABLE "JournalLine" ADD CONSTRAINT "JournalLine_hotelId_taxRuleId_fkey" FOREIGN KEY ("hotelId", "taxRuleId") REFERENCES "TaxRule"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The split, in the database, whoever posts (one rule): a revenue line of an entry that is not a
-- correction (a correction copies its entry's lines, tax lines included, reversed) is booked net of the
-- tax its amount includes under the rule in force for its kind, and the tax on `tax_payable` beside it
-- (the same night for room revenue). The tax a line includes: gross x rate / (1 + rate), rounded half
-- away from zero, line by line. Either sign (a re-spread of nights may take revenue back).
CREATE FUNCTION "JournalLine_tax"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  rule "TaxRule";
  kind "OrderEntryKind";
  tax bigint;
BEGIN
  IF NEW."account" NOT IN ('revenue_rooms', 'revenue_extras') OR NEW."amount" = 0 THEN RETURN NEW; END IF;
  SELECT * INTO rule FROM "TaxRule" t
   WHERE t."hotelId" = NEW."hotelId" AND t."retiredAt" IS NULL
     AND t."appliesTo" = CASE WHEN NEW."account" = 'revenue_rooms' THEN 'rooms' ELSE 'extras' END;
  IF NOT FOUND THEN RETURN NEW; END IF;
  SELECT o."kind" INTO kind FROM "JournalEntry" j JOIN "OrderEntry" o ON o."hotelId" = j."hotelId" AND o."id" = j."orderEntryId"
   WHERE j."id" = NEW."journalEntryId";
  IF kind IS NULL OR kind = 'correction' THEN RETURN NEW; END IF;
  tax := round((-NEW."amount")::numeric * rule."rateBp" / (10000 + rule."rateBp"));
  IF tax = 0 THEN RETURN NEW; END IF;
  NEW."amount" := NEW."amount" + tax;
  INSERT INTO "JournalLine" ("hotelId", "journalEntryId", "account", "serviceDate", "taxRuleId", "amount")
    VALUES (NEW."hotelId", NEW."journalEntryId", 'tax_payable', NEW."serviceDate", rule."id", -tax);
  RETURN NEW;
END $$;
CREATE TRIGGER "JournalLine_tax" BEFORE INSERT ON "JournalLine" FOR EACH ROW EXECUTE FUNCTION "JournalLine_tax"();
