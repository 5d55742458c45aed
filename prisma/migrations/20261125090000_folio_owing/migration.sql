-- Issue 17: a bill left with money owed. A guest who leaves owing (a legacy check-out without a way
-- of paying, or the clerk's recorded reason) leaves the folio "owing": the amount and why are kept,
-- it takes nothing but payments of what is owed, and the payment that brings it to zero settles it.

ALTER TABLE "Folio" ADD COLUMN "owedAt" TIMESTAMPTZ(3);
ALTER TABLE "Folio" ADD COLUMN "owedAmount" INTEGER;
ALTER TABLE "Folio" ADD COLUMN "owedReason" TEXT;
ALTER TABLE "Folio" ADD COLUMN "owedNote" TEXT NOT NULL DEFAULT '';
ALTER TABLE "Folio" ADD COLUMN "owedByAccountId" INTEGER;
ALTER TABLE "Folio" ADD CONSTRAINT "Folio_owing_complete" CHECK (("owedAt" IS NULL) = ("owedAmount" IS NULL) AND ("owedAt" IS NULL) = ("owedReason" IS NULL));
ALTER TABLE "Folio" ADD CONSTRAINT "Folio_owed_positive" CHECK ("owedAmount" IS NULL OR "owedAmount" > 0);
CREATE INDEX "Folio_hotelId_owing_idx" ON "Folio" ("hotelId", "owedAt") WHERE "owedAt" IS NOT NULL AND "settledAt" IS NULL;

-- The rules of migration 20261123200000_balance_payments, and the owing folio's: only payments,
-- never above what is owed.
CREATE OR REPLACE FUNCTION "OrderEntry_rules"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  folio_settled_at timestamptz;
  folio_owed_at timestamptz;
  folio_balance bigint;
  linked "OrderEntry"%ROWTYPE;
  left_over bigint;
  balance_change bigint;
  balance_now bigint;
BEGIN
  IF NEW."folioId" IS NOT NULL THEN
    SELECT f."settledAt", f."owedAt" INTO folio_settled_at, folio_owed_at FROM "Folio" f WHERE f."hotelId" = NEW."hotelId" AND f."id" = NEW."folioId" FOR SHARE;
    IF folio_settled_at IS NOT NULL THEN
      RAISE EXCEPTION 'constraint "OrderEntry_folio_open": folio % is settled', NEW."folioId" USING ERRCODE = 'check_violation';
    END IF;
    IF folio_owed_at IS NOT NULL THEN
      IF NEW."kind" <> 'payment' THEN
        RAISE EXCEPTION 'constraint "OrderEntry_folio_owing": folio % was left owing: only a payment of what is owed', NEW."folioId" USING ERRCODE = 'check_violation';
      END IF;
      SELECT COALESCE(sum(e."amount"), 0) INTO folio_balance FROM "OrderEntry" e WHERE e."hotelId" = NEW."hotelId" AND e."folioId" = NEW."folioId";
      IF folio_balance + NEW."amount" > 0 THEN
        RAISE EXCEPTION 'constraint "OrderEntry_owing_overpaid": folio % owes %, % paid', NEW."folioId", -folio_balance, NEW."amount" USING ERRCODE = 'check_violation';
      END IF;
    END IF;
  END IF;
  IF NEW."linkedEntryId" IS NOT NULL THEN
    SELECT * INTO linked FROM "OrderEntry" e WHERE e."hotelId" = NEW."hotelId" AND e."id" = NEW."linkedEntryId" FOR NO KEY UPDATE;
    IF FOUND THEN -- else the foreign key refuses it
      IF linked."folioId" IS DISTINCT FROM NEW."folioId" OR linked."customerId" IS DISTINCT FROM NEW."customerId" OR linked."currency" <> NEW."currency" THEN
        RAISE EXCEPTION 'constraint "OrderEntry_link_same_account": entry % is on another folio or balance', linked."id" USING ERRCODE = 'check_violation';
      END IF;
      IF NEW."kind" = 'refund' THEN
        IF linked."kind" NOT IN ('payment', 'deposit', 'recharge') THEN
          RAISE EXCEPTION 'constraint "OrderEntry_refund_of_payment": entry % is not a payment', linked."id" USING ERRCODE = 'check_violation';
        END IF;
        left_over := "OrderEntry_refundable"(NEW."hotelId", linked."id");
        IF -NEW."amount" > left_over THEN
          RAISE EXCEPTION 'constraint "OrderEntry_refund_within_payment": % left of entry %, % asked', left_over, linked."id", -NEW."amount" USING ERRCODE = 'check_violation';
        END IF;
      ELSIF NEW."kind" = 'correction' THEN
        IF linked."kind" = 'correction' OR NEW."amount" <> -linked."amount" THEN
          RAISE EXCEPTION 'constraint "OrderEntry_correction_reverses": a correction reverses exactly one entry that is not a correction' USING ERRCODE = 'check_violation';
        END IF;
        IF linked."kind" IN ('payment', 'deposit', 'recharge') AND "OrderEntry_refundable"(NEW."hotelId", linked."id") <> linked."amount" THEN
          RAISE EXCEPTION 'constraint "OrderEntry_correction_unrefunded": entry % has refunds or was corrected', linked."id" USING ERRCODE = 'check_violation';
        END IF;
      END IF;
    END IF;
  END IF;
  IF NEW."customerId" IS NOT NULL THEN
    balance_change := CASE WHEN NEW."folioId" IS NULL THEN NEW."amount" ELSE -NEW."amount" END;
    IF balance_change < 0 THEN
      PERFORM 1 FROM "Customer" c WHERE c."hotelId" = NEW."hotelId" AND c."id" = NEW."customerId" FOR NO KEY UPDATE;
      balance_now := "Customer_balance"(NEW."hotelId", NEW."customerId");
      IF balance_now + balance_change < 0 THEN
        RAISE EXCEPTION 'constraint "OrderEntry_balance_covers": the balance of customer % is %, % asked', NEW."customerId", balance_now, -balance_change USING ERRCODE = 'check_violation';
      END IF;
    END IF;
  END IF;
  RETURN NEW;
END;
$$;
