-- Paying a stay from a customer's balance (docs/orders.md, "Customers' balances"). A deposit or
-- payment taken from a balance is one entry that names both the folio and the customer, with the
-- way of paying 'balance': it is money received on the folio (positive there) and money spent from
-- the balance (the opposite there). Its refunds and corrections name both as well and so go back to
-- the balance. A customer's balance stays derived: the entries of no folio count as they are, those
-- of a folio the other way round; a trigger keeps it from going below zero.

-- New values of an enum cannot be used in the transaction that adds them: the rules below compare
-- the method as text.
ALTER TYPE "PaymentMethod" ADD VALUE IF NOT EXISTS 'balance';

-- An entry names a folio and a customer exactly when its money moved between them.
ALTER TABLE "OrderEntry" ADD CONSTRAINT "OrderEntry_balance_method" CHECK (
  (COALESCE("method"::text, '') = 'balance') = ("folioId" IS NOT NULL AND "customerId" IS NOT NULL));

-- A customer's balance: what the entries naming the customer put on it (recharges, their refunds
-- and corrections) less what was taken from it for stays (net of what went back).
CREATE FUNCTION "Customer_balance"(p_hotel_id integer, p_customer_id integer) RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT COALESCE(sum(CASE WHEN e."folioId" IS NULL THEN e."amount" ELSE -e."amount" END), 0)::bigint
  FROM "OrderEntry" e
  WHERE e."hotelId" = p_hotel_id AND e."customerId" = p_customer_id
$$;

-- The rules of migration 20261123100000_orders_ledger, and one more: an entry that takes money
-- from a customer's balance (a payment from it, a refund or a correction of a recharge) is refused
-- when the balance would go below zero. The customer's row is locked first, so two such entries at
-- the same moment are checked one after the other (locks are taken folio, then entry, then customer).
CREATE OR REPLACE FUNCTION "OrderEntry_rules"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  folio_settled_at timestamptz;
  linked "OrderEntry"%ROWTYPE;
  left_over bigint;
  balance_change bigint;
  balance_now bigint;
BEGIN
  IF NEW."folioId" IS NOT NULL THEN
    SELECT f."settledAt" INTO folio_settled_at FROM "Folio" f WHERE f."hotelId" = NEW."hotelId" AND f."id" = NEW."folioId" FOR SHARE;
    IF folio_settled_at IS NOT NULL THEN
      RAISE EXCEPTION 'constraint "OrderEntry_folio_open": folio % is settled', NEW."folioId" USING ERRCODE = 'check_violation';
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
