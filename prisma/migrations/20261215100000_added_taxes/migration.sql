-- Taxes added on top of the price, and a city tax per person and night (issue 36 "Taxes",
-- docs/journal.md "Taxes"). A rate for rooms or for everything else is now either included in the
-- price (as before: the bill does not change, the journal splits each revenue line) or added to it:
-- then every charge posted brings its tax as a charge of its own on the bill (a document the guest
-- sees), which the journal books on `tax_payable` under its rule. A city tax is an amount per person
-- and night, charged with the room charges (the server computes it: modules/orders/city-tax.ts).

ALTER TABLE "TaxRule" ADD COLUMN "mode" VARCHAR(16) NOT NULL DEFAULT 'included';
ALTER TABLE "TaxRule" ADD COLUMN "amountPerNight" INTEGER;
ALTER TABLE "TaxRule" ALTER COLUMN "rateBp" DROP NOT NULL;
ALTER TABLE "TaxRule" DROP CONSTRAINT "TaxRule_appliesTo_check";
ALTER TABLE "TaxRule" ADD CONSTRAINT "TaxRule_appliesTo_check" CHECK ("appliesTo" IN ('rooms', 'extras', 'city'));
ALTER TABLE "TaxRule" ADD CONSTRAINT "TaxRule_mode_check" CHECK ("mode" IN ('included', 'added'));
-- A rate (rooms, extras) or an amount per person and night (the city tax, always added).
ALTER TABLE "TaxRule" ADD CONSTRAINT "TaxRule_kind_check" CHECK (
  CASE WHEN "appliesTo" = 'city'
    THEN "rateBp" IS NULL AND "amountPerNight" IS NOT NULL AND "amountPerNight" > 0 AND "mode" = 'added'
    ELSE "rateBp" IS NOT NULL AND "amountPerNight" IS NULL
  END
);

-- A tax charge: a charge that names the rule that levied it, and (a rate added on top) the charge it
-- taxes. A city tax charge carries its nights, as a room charge does.
ALTER TABLE "OrderEntry" ADD COLUMN "taxRuleId" INTEGER;
ALTER TABLE "OrderEntry" ADD COLUMN "taxedEntryId" INTEGER;
ALTER TABLE "OrderEntry" ADD CONSTRAINT "OrderEntry_hotelId_taxRuleId_fkey" FOREIGN KEY ("hotelId", "taxRuleId") REFERENCES "TaxRule"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "OrderEntry" ADD CONSTRAINT "OrderEntry_hotelId_taxedEntryId_fkey" FOREIGN KEY ("hotelId", "taxedEntryId") REFERENCES "OrderEntry"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "OrderEntry" ADD CONSTRAINT "OrderEntry_tax_charge" CHECK ("taxRuleId" IS NOT NULL OR "taxedEntryId" IS NULL);
ALTER TABLE "OrderEntry" ADD CONSTRAINT "OrderEntry_tax_is_charge" CHECK ("taxRuleId" IS NULL OR ("kind" = 'charge' AND "folioId" IS NOT NULL));
ALTER TABLE "OrderEntry" DROP CONSTRAINT "OrderEntry_nights_room_charge";
ALTER TABLE "OrderEntry" ADD CONSTRAINT "OrderEntry_nights_room_charge" CHECK ("nights" IS NULL OR "kind" = 'room_charge' OR "taxRuleId" IS NOT NULL);
CREATE INDEX "OrderEntry_hotelId_taxedEntryId_idx" ON "OrderEntry"("hotelId", "taxedEntryId") WHERE "taxedEntryId" IS NOT NULL;

-- The journal's split: a tax charge's revenue line is the tax owed (`tax_payable`, naming its rule);
-- an included rate splits a revenue line as before; an added one does not (its tax is a charge).
CREATE OR REPLACE FUNCTION "JournalLine_tax"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  rule "TaxRule";
  kind "OrderEntryKind";
  levied integer;
  tax bigint;
BEGIN
  IF NEW."account" NOT IN ('revenue_rooms', 'revenue_extras') OR NEW."amount" = 0 THEN RETURN NEW; END IF;
  SELECT o."kind", o."taxRuleId" INTO kind, levied FROM "JournalEntry" j JOIN "OrderEntry" o ON o."hotelId" = j."hotelId" AND o."id" = j."orderEntryId"
   WHERE j."id" = NEW."journalEntryId";
  IF kind IS NULL OR kind = 'correction' THEN RETURN NEW; END IF;
  IF levied IS NOT NULL THEN
    NEW."account" := 'tax_payable';
    NEW."taxRuleId" := levied;
    RETURN NEW;
  END IF;
  SELECT * INTO rule FROM "TaxRule" t
   WHERE t."hotelId" = NEW."hotelId" AND t."retiredAt" IS NULL AND t."mode" = 'included'
     AND t."appliesTo" = CASE WHEN NEW."account" = 'revenue_rooms' THEN 'rooms' ELSE 'extras' END;
  IF NOT FOUND THEN RETURN NEW; END IF;
  tax := round((-NEW."amount")::numeric * rule."rateBp" / (10000 + rule."rateBp"));
  IF tax = 0 THEN RETURN NEW; END IF;
  NEW."amount" := NEW."amount" + tax;
  INSERT INTO "JournalLine" ("hotelId", "journalEntryId", "account", "serviceDate", "taxRuleId", "amount")
    VALUES (NEW."hotelId", NEW."journalEntryId", 'tax_payable', NEW."serviceDate", rule."id", -tax);
  RETURN NEW;
END $$;

-- The tax added on top, whoever posts: a room charge or a charge (not a tax charge, not a deposit kept) posted while an
-- added rate is in force for its kind brings a tax charge of rate x amount (rounded half away from
-- zero) on the same folio; a correction of a charge corrects its tax charges with it, with its reason.
-- Runs after "OrderEntry_journal" (triggers fire by name), so the charge is posted first.
CREATE FUNCTION "OrderEntry_tax_added"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  rule "TaxRule";
  tax bigint;
  taxed "OrderEntry";
BEGIN
  -- A deposit kept (money the guest already paid, kept as a fee) is what it is: no tax is added to it.
  IF NEW."kind" IN ('room_charge', 'charge') AND NEW."taxRuleId" IS NULL AND NEW."folioId" IS NOT NULL
     AND NEW."noteKey" IS DISTINCT FROM 'orders.notes.depositKept' THEN
    SELECT * INTO rule FROM "TaxRule" t
     WHERE t."hotelId" = NEW."hotelId" AND t."retiredAt" IS NULL AND t."mode" = 'added'
       AND t."appliesTo" = CASE WHEN NEW."kind" = 'room_charge' THEN 'rooms' ELSE 'extras' END;
    IF NOT FOUND THEN RETURN NULL; END IF;
    tax := round(NEW."amount"::numeric * rule."rateBp" / 10000);
    IF tax = 0 THEN RETURN NULL; END IF;
    INSERT INTO "OrderEntry" ("hotelId", "kind", "amount", "currency", "stayId", "roomId", "folioId", "method", "note", "noteKey", "noteParams",
                              "createdByAccountId", "taxRuleId", "taxedEntryId", "createdAt")
      VALUES (NEW."hotelId", 'charge', tax, NEW."currency", NEW."stayId", NEW."roomId", NEW."folioId", NULL, '', 'orders.notes.taxAdded',
              jsonb_build_object('rate', trim(trailing '.' FROM trim(trailing '0' FROM to_char(rule."rateBp" / 100.0, 'FM999990.00')))),
              NEW."createdByAccountId", rule."id", NEW."id", NEW."createdAt");
  ELSIF NEW."kind" = 'correction' THEN
    FOR taxed IN
      SELECT o.* FROM "OrderEntry" o
       WHERE o."hotelId" = NEW."hotelId" AND o."taxedEntryId" = NEW."linkedEntryId"
         AND NOT EXISTS (SELECT 1 FROM "OrderEntry" c WHERE c."hotelId" = o."hotelId" AND c."kind" = 'correction' AND c."linkedEntryId" = o."id")
    LOOP
      INSERT INTO "OrderEntry" ("hotelId", "kind", "amount", "currency", "stayId", "roomId", "folioId", "method", "note", "noteKey", "noteParams",
                                "createdByAccountId", "linkedEntryId", "createdAt")
        VALUES (NEW."hotelId", 'correction', -taxed."amount", NEW."currency", NEW."stayId", NEW."roomId", NEW."folioId", NULL, NEW."note", NEW."noteKey", NEW."noteParams",
                NEW."createdByAccountId", taxed."id", NEW."createdAt");
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "OrderEntry_tax_added" AFTER INSERT ON "OrderEntry" FOR EACH ROW EXECUTE FUNCTION "OrderEntry_tax_added"();
