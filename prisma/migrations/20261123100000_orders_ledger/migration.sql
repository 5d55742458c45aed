-- The orders ledger (docs/orders.md): entries of every kind, a folio per visit that is closed once
-- settled, refunds linked to their payment and never above what is left of it, corrections that
-- reverse one entry. Balances stay derived: nothing here stores one.

CREATE TYPE "PaymentMethod" AS ENUM ('cash', 'bank_card', 'wechat', 'alipay', 'transfer', 'other');

-- The kinds of entries. The type is made anew (not extended with ADD VALUE) so that this migration
-- can use its new values in its own constraints; a 'cash' entry of before was a cash payment.
CREATE TYPE "OrderEntryKind_new" AS ENUM ('room_charge', 'charge', 'deposit', 'payment', 'refund', 'recharge', 'correction');
ALTER TABLE "OrderEntry" ALTER COLUMN "kind" TYPE "OrderEntryKind_new"
  USING (CASE "kind"::text WHEN 'cash' THEN 'payment' ELSE "kind"::text END)::"OrderEntryKind_new";
DROP TYPE "OrderEntryKind";
ALTER TYPE "OrderEntryKind_new" RENAME TO "OrderEntryKind";

ALTER TABLE "OrderEntry" ADD COLUMN     "folioId" INTEGER,
ADD COLUMN     "idempotencyKey" TEXT,
ADD COLUMN     "linkedEntryId" INTEGER;

-- The method was free text: what it named is kept, anything else becomes 'other', nothing stays nothing.
ALTER TABLE "OrderEntry" ALTER COLUMN "method" DROP DEFAULT;
ALTER TABLE "OrderEntry" ALTER COLUMN "method" DROP NOT NULL;
ALTER TABLE "OrderEntry" ALTER COLUMN "method" TYPE "PaymentMethod" USING (
  CASE
    WHEN btrim("method") = '' THEN NULL
    WHEN lower(btrim("method")) IN ('cash', 'bank_card', 'wechat', 'alipay', 'transfer', 'other') THEN lower(btrim("method"))::"PaymentMethod"
    ELSE 'other'::"PaymentMethod"
  END);

-- CreateTable
CREATE TABLE "Folio" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "stayId" INTEGER NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "settledAt" TIMESTAMPTZ(3),
    "settledByAccountId" INTEGER,
    "settlement" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Folio_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Folio_hotelId_id_key" ON "Folio"("hotelId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Folio_hotelId_stayId_key" ON "Folio"("hotelId", "stayId");

-- CreateIndex
CREATE INDEX "OrderEntry_hotelId_folioId_idx" ON "OrderEntry"("hotelId", "folioId");

-- CreateIndex
CREATE INDEX "OrderEntry_hotelId_linkedEntryId_idx" ON "OrderEntry"("hotelId", "linkedEntryId");

-- CreateIndex
CREATE INDEX "OrderEntry_hotelId_customerId_createdAt_idx" ON "OrderEntry"("hotelId", "customerId", "createdAt");

-- CreateIndex
CREATE INDEX "OrderEntry_hotelId_createdByAccountId_createdAt_idx" ON "OrderEntry"("hotelId", "createdByAccountId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "OrderEntry_hotelId_id_key" ON "OrderEntry"("hotelId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "OrderEntry_hotelId_idempotencyKey_key" ON "OrderEntry"("hotelId", "idempotencyKey");

-- AddForeignKey
ALTER TABLE "OrderEntry" ADD CONSTRAINT "OrderEntry_hotelId_folioId_fkey" FOREIGN KEY ("hotelId", "folioId") REFERENCES "Folio"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrderEntry" ADD CONSTRAINT "OrderEntry_hotelId_linkedEntryId_fkey" FOREIGN KEY ("hotelId", "linkedEntryId") REFERENCES "OrderEntry"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Folio" ADD CONSTRAINT "Folio_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Folio" ADD CONSTRAINT "Folio_hotelId_stayId_fkey" FOREIGN KEY ("hotelId", "stayId") REFERENCES "Stay"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------------
-- Written by hand: what Prisma cannot express.

-- The sign of every kind: money received is positive, charges and money given back negative.
ALTER TABLE "OrderEntry" ADD CONSTRAINT "OrderEntry_amount_sign" CHECK (
  CASE "kind"
    WHEN 'deposit' THEN "amount" > 0
    WHEN 'payment' THEN "amount" > 0
    WHEN 'recharge' THEN "amount" > 0
    WHEN 'room_charge' THEN "amount" < 0
    WHEN 'charge' THEN "amount" < 0
    WHEN 'refund' THEN "amount" < 0
    ELSE "amount" <> 0
  END);
-- Refunds and corrections name the entry they refund or reverse; nothing else names one.
ALTER TABLE "OrderEntry" ADD CONSTRAINT "OrderEntry_link" CHECK (("kind" IN ('refund', 'correction')) = ("linkedEntryId" IS NOT NULL));
-- A refund, a correction and a charge say why.
ALTER TABLE "OrderEntry" ADD CONSTRAINT "OrderEntry_reason" CHECK ("kind" NOT IN ('refund', 'correction', 'charge') OR btrim("note") <> '');
-- Deposits, payments and refunds say how the money changed hands.
ALTER TABLE "OrderEntry" ADD CONSTRAINT "OrderEntry_method" CHECK ("kind" NOT IN ('deposit', 'payment', 'refund') OR "method" IS NOT NULL);
-- An entry of a stay is on its folio, and only entries of a stay are.
ALTER TABLE "OrderEntry" ADD CONSTRAINT "OrderEntry_folio_of_stay" CHECK (("stayId" IS NULL) = ("folioId" IS NULL));
-- A recharge is money on a customer's balance, not on a stay's bill.
ALTER TABLE "OrderEntry" ADD CONSTRAINT "OrderEntry_recharge_customer" CHECK ("kind" <> 'recharge' OR ("customerId" IS NOT NULL AND "folioId" IS NULL));
-- An entry is corrected at most once.
CREATE UNIQUE INDEX "OrderEntry_one_correction_key" ON "OrderEntry"("hotelId", "linkedEntryId") WHERE "kind" = 'correction';

-- What is left to refund of a payment, deposit or recharge: nothing once it was corrected, else its
-- amount less the refunds of it that were not themselves corrected. NULL for another kind of entry.
CREATE FUNCTION "OrderEntry_refundable"(p_hotel_id integer, p_entry_id integer) RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN EXISTS (SELECT 1 FROM "OrderEntry" c WHERE c."hotelId" = p."hotelId" AND c."linkedEntryId" = p."id" AND c."kind" = 'correction') THEN 0::bigint
    ELSE p."amount" + COALESCE((
      SELECT sum(r."amount") FROM "OrderEntry" r
      WHERE r."hotelId" = p."hotelId" AND r."linkedEntryId" = p."id" AND r."kind" = 'refund'
        AND NOT EXISTS (SELECT 1 FROM "OrderEntry" rc WHERE rc."hotelId" = r."hotelId" AND rc."linkedEntryId" = r."id" AND rc."kind" = 'correction')
    ), 0)
  END
  FROM "OrderEntry" p
  WHERE p."hotelId" = p_hotel_id AND p."id" = p_entry_id AND p."kind" IN ('payment', 'deposit', 'recharge')
$$;

-- The rules of a new entry, checked under locks so that two at the same moment cannot both pass:
-- the folio is open (its row is share-locked: a settlement waits for the entry, or the entry sees
-- the settlement); the entry it refunds or corrects is locked, then a refund stays within what is
-- left of its payment, and a correction reverses exactly an entry that has no live refunds.
-- Messages name the rule as `constraint "<name>"`, which db/errors.ts reads.
CREATE FUNCTION "OrderEntry_rules"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  folio_settled_at timestamptz;
  linked "OrderEntry"%ROWTYPE;
  left_over bigint;
BEGIN
  IF NEW."folioId" IS NOT NULL THEN
    SELECT f."settledAt" INTO folio_settled_at FROM "Folio" f WHERE f."hotelId" = NEW."hotelId" AND f."id" = NEW."folioId" FOR SHARE;
    IF folio_settled_at IS NOT NULL THEN
      RAISE EXCEPTION 'constraint "OrderEntry_folio_open": folio % is settled', NEW."folioId" USING ERRCODE = 'check_violation';
    END IF;
  END IF;
  IF NEW."linkedEntryId" IS NULL THEN
    RETURN NEW;
  END IF;
  SELECT * INTO linked FROM "OrderEntry" e WHERE e."hotelId" = NEW."hotelId" AND e."id" = NEW."linkedEntryId" FOR NO KEY UPDATE;
  IF NOT FOUND THEN
    RETURN NEW; -- the foreign key refuses it
  END IF;
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
  RETURN NEW;
END;
$$;
CREATE TRIGGER "OrderEntry_rules" BEFORE INSERT ON "OrderEntry"
  FOR EACH ROW EXECUTE FUNCTION "OrderEntry_rules"();

-- A settled folio is final: it can be neither changed nor deleted.
CREATE FUNCTION "Folio_settled_is_final"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."settledAt" IS NOT NULL THEN
    RAISE EXCEPTION 'constraint "Folio_settled_is_final": folio % is settled', OLD."id" USING ERRCODE = 'check_violation';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER "Folio_settled_is_final" BEFORE UPDATE OR DELETE ON "Folio"
  FOR EACH ROW EXECUTE FUNCTION "Folio_settled_is_final"();
