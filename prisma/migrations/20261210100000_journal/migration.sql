-- The journal (issue 36, docs/journal.md): every movement of money is a journal entry of lines over
-- accounts that sum to zero (debits positive, credits negative). The orders ledger's entries
-- (OrderEntry) stay the documents the desk records; each one is posted to the journal by the trigger
-- below, in its own transaction, by one rule that lives here only, the same for the server's writes,
-- for a row written by SQL (an import, a benchmark's seed) and for the entries that existed before
-- this migration (posted at its end). The database refuses an entry whose lines do not sum to zero,
-- an order entry without its journal entry, and any change or removal of either.

-- CreateEnum
CREATE TYPE "LedgerAccount" AS ENUM ('guest', 'deposit', 'receivable', 'customer_balance', 'revenue_rooms', 'revenue_extras', 'money');

-- AlterTable: the nights a room charge is for, [{"date": "YYYY-MM-DD", "amount": n}] summing to what it
-- charges (a positive amount per night); written by the server from the stay's nightly rates.
ALTER TABLE "OrderEntry" ADD COLUMN "nights" JSONB;
ALTER TABLE "OrderEntry" ADD CONSTRAINT "OrderEntry_nights_room_charge" CHECK ("nights" IS NULL OR "kind" = 'room_charge');

-- CreateTable
CREATE TABLE "JournalEntry" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "orderEntryId" INTEGER,
    "folioId" INTEGER,
    "source" VARCHAR(32) NOT NULL,
    "businessDate" VARCHAR(10) NOT NULL,
    "postedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "JournalEntry_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "JournalEntry_source" CHECK ("source" IN ('order', 'deposit_to_guest', 'guest_to_receivable')),
    CONSTRAINT "JournalEntry_order_has_entry" CHECK (("source" = 'order') = ("orderEntryId" IS NOT NULL))
);

-- CreateTable
CREATE TABLE "JournalLine" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "journalEntryId" INTEGER NOT NULL,
    "account" "LedgerAccount" NOT NULL,
    "folioId" INTEGER,
    "customerId" INTEGER,
    "method" "PaymentMethod",
    "shiftId" INTEGER,
    "serviceDate" VARCHAR(10),
    "amount" BIGINT NOT NULL,

    CONSTRAINT "JournalLine_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "JournalLine_amount_nonzero" CHECK ("amount" <> 0),
    CONSTRAINT "JournalLine_subledger" CHECK (
      CASE "account"
        WHEN 'guest' THEN "folioId" IS NOT NULL
        WHEN 'deposit' THEN "folioId" IS NOT NULL
        WHEN 'receivable' THEN "folioId" IS NOT NULL
        WHEN 'customer_balance' THEN "customerId" IS NOT NULL
        WHEN 'money' THEN "method" IS NOT NULL AND "method" <> 'balance'
        WHEN 'revenue_rooms' THEN "serviceDate" IS NOT NULL
        ELSE true
      END)
);

-- CreateIndex
CREATE UNIQUE INDEX "JournalEntry_orderEntryId_key" ON "JournalEntry"("orderEntryId");
CREATE UNIQUE INDEX "JournalEntry_hotelId_id_key" ON "JournalEntry"("hotelId", "id");
CREATE INDEX "JournalEntry_hotelId_businessDate_idx" ON "JournalEntry"("hotelId", "businessDate");
CREATE INDEX "JournalLine_journalEntryId_idx" ON "JournalLine"("journalEntryId");
CREATE INDEX "JournalLine_hotelId_folioId_account_idx" ON "JournalLine"("hotelId", "folioId", "account");
CREATE INDEX "JournalLine_hotelId_serviceDate_idx" ON "JournalLine"("hotelId", "serviceDate") WHERE "serviceDate" IS NOT NULL;

-- AddForeignKey
ALTER TABLE "JournalEntry" ADD CONSTRAINT "JournalEntry_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "JournalEntry" ADD CONSTRAINT "JournalEntry_hotelId_orderEntryId_fkey" FOREIGN KEY ("hotelId", "orderEntryId") REFERENCES "OrderEntry"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "JournalEntry" ADD CONSTRAINT "JournalEntry_hotelId_folioId_fkey" FOREIGN KEY ("hotelId", "folioId") REFERENCES "Folio"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "JournalLine" ADD CONSTRAINT "JournalLine_hotelId_journalEntryId_fkey" FOREIGN KEY ("hotelId", "journalEntryId") REFERENCES "JournalEntry"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "JournalLine" ADD CONSTRAINT "JournalLine_hotelId_folioId_fkey" FOREIGN KEY ("hotelId", "folioId") REFERENCES "Folio"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "JournalLine" ADD CONSTRAINT "JournalLine_hotelId_customerId_fkey" FOREIGN KEY ("hotelId", "customerId") REFERENCES "Customer"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "JournalLine" ADD CONSTRAINT "JournalLine_hotelId_shiftId_fkey" FOREIGN KEY ("hotelId", "shiftId") REFERENCES "CashierShift"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------------
-- Hand-written: the journal's rules.

-- Nothing posted is changed or removed: a mistake is a reversing entry (a correction).
CREATE FUNCTION "Journal_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'restrict_violation', CONSTRAINT = 'Journal_append_only';
END $$;
CREATE TRIGGER "JournalEntry_no_change" BEFORE UPDATE OR DELETE ON "JournalEntry" FOR EACH ROW EXECUTE FUNCTION "Journal_append_only"();
CREATE TRIGGER "JournalLine_no_change" BEFORE UPDATE OR DELETE ON "JournalLine" FOR EACH ROW EXECUTE FUNCTION "Journal_append_only"();

-- An entry's lines sum to zero, and it has lines: checked when the transaction commits.
CREATE FUNCTION "Journal_check_balance"(entry_id integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  lines integer;
  total numeric;
BEGIN
  SELECT count(*), coalesce(sum("amount"), 0) INTO lines, total FROM "JournalLine" WHERE "journalEntryId" = entry_id;
  IF lines < 2 OR total <> 0 THEN
    RAISE EXCEPTION 'journal entry % does not balance (% lines, sum %)', entry_id, lines, total
      USING ERRCODE = 'check_violation', CONSTRAINT = 'JournalEntry_balances';
  END IF;
END $$;
CREATE FUNCTION "JournalEntry_balances"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "Journal_check_balance"(NEW."id");
  RETURN NULL;
END $$;
CREATE FUNCTION "JournalLine_balances"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "Journal_check_balance"(NEW."journalEntryId");
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER "JournalEntry_balances" AFTER INSERT ON "JournalEntry" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "JournalEntry_balances"();
CREATE CONSTRAINT TRIGGER "JournalLine_balances" AFTER INSERT ON "JournalLine" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "JournalLine_balances"();

-- Every order entry has its journal entry (posted by the trigger below; checked at commit).
CREATE FUNCTION "OrderEntry_is_posted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "JournalEntry" WHERE "orderEntryId" = NEW."id") THEN
    RAISE EXCEPTION 'order entry % has no journal entry', NEW."id" USING ERRCODE = 'check_violation', CONSTRAINT = 'OrderEntry_is_posted';
  END IF;
  RETURN NULL;
END $$;

-- The ledger a folio's lines belong to now: receivable once it was left owing (its guest balance
-- moved there), the guest ledger once its visit has begun, the deposit ledger before.
CREATE FUNCTION "Journal_folio_ledger"(hotel integer, folio integer) RETURNS "LedgerAccount" LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN EXISTS (SELECT 1 FROM "JournalLine" l WHERE l."hotelId" = hotel AND l."folioId" = folio AND l."account" = 'receivable') THEN 'receivable'::"LedgerAccount"
    WHEN (SELECT s."status" FROM "Folio" f JOIN "Stay" s ON s."hotelId" = f."hotelId" AND s."visitStayId" = f."stayId"
          WHERE f."hotelId" = hotel AND f."id" = folio ORDER BY s."id" DESC LIMIT 1) IN ('in_house', 'expired', 'moved', 'checked_out') THEN 'guest'::"LedgerAccount"
    ELSE 'deposit'::"LedgerAccount"
  END
$$;

-- A folio's balance on one of its ledgers (debit positive).
CREATE FUNCTION "Journal_folio_balance"(hotel integer, folio integer, ledger "LedgerAccount") RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT coalesce(sum("amount"), 0)::bigint FROM "JournalLine" WHERE "hotelId" = hotel AND "folioId" = folio AND "account" = ledger
$$;

-- Moves a folio's whole balance from one of its ledgers to another (the deposit ledger to the guest
-- ledger when its visit has begun; the guest ledger to receivables when it is left owing).
CREATE FUNCTION "Journal_transfer"(hotel integer, folio integer, source text, from_ledger "LedgerAccount", to_ledger "LedgerAccount", at timestamptz) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  moved bigint := "Journal_folio_balance"(hotel, folio, from_ledger);
  entry_id integer;
BEGIN
  IF moved = 0 THEN RETURN; END IF;
  INSERT INTO "JournalEntry" ("hotelId", "folioId", "source", "businessDate", "postedAt")
    SELECT hotel, folio, source, to_char(at AT TIME ZONE h."timeZone", 'YYYY-MM-DD'), at FROM "Hotel" h WHERE h."id" = hotel
    RETURNING "id" INTO entry_id;
  INSERT INTO "JournalLine" ("hotelId", "journalEntryId", "account", "folioId", "amount") VALUES
    (hotel, entry_id, from_ledger, folio, -moved),
    (hotel, entry_id, to_ledger, folio, moved);
END $$;

-- The nights of a room charge posted without them (the entries before this migration, a row written
-- by SQL): spread evenly over the visit's nights (from its first stay's check-in date to the day
-- before its current stay's departure, one night at least), the remainder on the first nights.
CREATE FUNCTION "Journal_even_nights"(e "OrderEntry") RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
DECLARE
  zone text;
  first_day date;
  last_day date;
  n integer;
  total bigint := -e."amount";
BEGIN
  SELECT h."timeZone" INTO zone FROM "Hotel" h WHERE h."id" = e."hotelId";
  SELECT (min(s."checkInAt") AT TIME ZONE zone)::date, (max(coalesce(s."checkedOutAt", s."expectedCheckOutAt")) AT TIME ZONE zone)::date
    INTO first_day, last_day
    FROM "Stay" s WHERE s."hotelId" = e."hotelId" AND s."visitStayId" = (SELECT f."stayId" FROM "Folio" f WHERE f."hotelId" = e."hotelId" AND f."id" = e."folioId");
  IF first_day IS NULL THEN first_day := (e."createdAt" AT TIME ZONE zone)::date; END IF;
  n := greatest(1, coalesce(last_day - first_day, 1));
  RETURN (
    SELECT jsonb_agg(jsonb_build_object('date', to_char(first_day + i, 'YYYY-MM-DD'),
      'amount', (total / n) + CASE WHEN i < abs(total % n) THEN sign(total) ELSE 0 END) ORDER BY i)
    FROM generate_series(0, n - 1) i
  );
END $$;

-- The posting rule (docs/journal.md): the lines of one order entry.
CREATE FUNCTION "Journal_post_entry"(e "OrderEntry") RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  entry_id integer;
  ledger "LedgerAccount";
  nights jsonb;
  charged bigint;
BEGIN
  IF e."folioId" IS NOT NULL THEN
    ledger := "Journal_folio_ledger"(e."hotelId", e."folioId");
    -- A visit that has begun: what its deposit ledger holds moves to the guest ledger first.
    IF ledger = 'guest' THEN PERFORM "Journal_transfer"(e."hotelId", e."folioId", 'deposit_to_guest', 'deposit', 'guest', e."createdAt"); END IF;
  END IF;
  INSERT INTO "JournalEntry" ("hotelId", "orderEntryId", "folioId", "source", "businessDate", "postedAt")
    SELECT e."hotelId", e."id", e."folioId", 'order', to_char(e."createdAt" AT TIME ZONE h."timeZone", 'YYYY-MM-DD'), e."createdAt"
    FROM "Hotel" h WHERE h."id" = e."hotelId"
    RETURNING "id" INTO entry_id;

  IF e."kind" = 'correction' THEN
    -- The exact reverse of the entry it corrects; its folio's lines on the folio's ledger now.
    INSERT INTO "JournalLine" ("hotelId", "journalEntryId", "account", "folioId", "customerId", "method", "shiftId", "serviceDate", "amount")
      SELECT l."hotelId", entry_id, CASE WHEN l."account" IN ('guest', 'deposit', 'receivable') THEN ledger ELSE l."account" END,
             l."folioId", l."customerId", l."method", l."shiftId", l."serviceDate", -l."amount"
      FROM "JournalLine" l JOIN "JournalEntry" je ON je."id" = l."journalEntryId"
      WHERE je."hotelId" = e."hotelId" AND je."orderEntryId" = e."linkedEntryId";
    RETURN;
  END IF;

  IF e."kind" = 'room_charge' THEN
    nights := coalesce(e."nights", "Journal_even_nights"(e));
    SELECT coalesce(sum((n->>'amount')::bigint), 0) INTO charged FROM jsonb_array_elements(nights) n;
    IF charged <> -e."amount" THEN
      RAISE EXCEPTION 'the nights of room charge % sum to %, not %', e."id", charged, -e."amount"
        USING ERRCODE = 'check_violation', CONSTRAINT = 'OrderEntry_nights_sum';
    END IF;
    INSERT INTO "JournalLine" ("hotelId", "journalEntryId", "account", "folioId", "amount") VALUES (e."hotelId", entry_id, ledger, e."folioId", -e."amount");
    INSERT INTO "JournalLine" ("hotelId", "journalEntryId", "account", "serviceDate", "amount")
      SELECT e."hotelId", entry_id, 'revenue_rooms', n->>'date', -(n->>'amount')::bigint FROM jsonb_array_elements(nights) n WHERE (n->>'amount')::bigint <> 0;
  ELSIF e."kind" = 'charge' THEN
    INSERT INTO "JournalLine" ("hotelId", "journalEntryId", "account", "folioId", "amount") VALUES
      (e."hotelId", entry_id, ledger, e."folioId", -e."amount"),
      (e."hotelId", entry_id, 'revenue_extras', NULL, e."amount");
  ELSE
    -- Money received (deposit, payment, recharge: positive) or paid back (refund: negative): the way it
    -- moved (a drawer or account per way of paying, cash per cashier shift; or a customer's balance) against
    -- the folio's ledger, or against the customer's balance for a recharge and its refunds.
    IF e."method" = 'balance' THEN
      INSERT INTO "JournalLine" ("hotelId", "journalEntryId", "account", "customerId", "amount") VALUES (e."hotelId", entry_id, 'customer_balance', e."customerId", e."amount");
    ELSE
      INSERT INTO "JournalLine" ("hotelId", "journalEntryId", "account", "method", "shiftId", "amount") VALUES (e."hotelId", entry_id, 'money', e."method", e."shiftId", e."amount");
    END IF;
    IF e."folioId" IS NOT NULL THEN
      INSERT INTO "JournalLine" ("hotelId", "journalEntryId", "account", "folioId", "amount") VALUES (e."hotelId", entry_id, ledger, e."folioId", -e."amount");
    ELSE
      INSERT INTO "JournalLine" ("hotelId", "journalEntryId", "account", "customerId", "amount") VALUES (e."hotelId", entry_id, 'customer_balance', e."customerId", -e."amount");
    END IF;
  END IF;
END $$;

CREATE FUNCTION "Journal_post"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "Journal_post_entry"(NEW);
  RETURN NULL;
END $$;

-- A folio left owing: its guest balance moves to receivables.
CREATE FUNCTION "Journal_folio_owing"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "Journal_transfer"(NEW."hotelId", NEW."id", 'guest_to_receivable', 'guest', 'receivable', NEW."owedAt");
  RETURN NULL;
END $$;

-- The entries that existed before: posted in the order they were written, each owing folio's transfer
-- after the last entry written before it was left owing.
DO $$
DECLARE
  e "OrderEntry";
BEGIN
  FOR e IN SELECT * FROM "OrderEntry" ORDER BY "id" LOOP
    PERFORM "Journal_transfer"(f."hotelId", f."id", 'guest_to_receivable', 'guest', 'receivable', f."owedAt")
      FROM "Folio" f WHERE f."hotelId" = e."hotelId" AND f."id" = e."folioId" AND f."owedAt" IS NOT NULL AND f."owedAt" < e."createdAt"
        AND NOT EXISTS (SELECT 1 FROM "JournalEntry" j WHERE j."folioId" = f."id" AND j."source" = 'guest_to_receivable');
    PERFORM "Journal_post_entry"(e);
  END LOOP;
  PERFORM "Journal_transfer"(f."hotelId", f."id", 'guest_to_receivable', 'guest', 'receivable', f."owedAt")
    FROM "Folio" f WHERE f."owedAt" IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM "JournalEntry" j WHERE j."folioId" = f."id" AND j."source" = 'guest_to_receivable');
END $$;

CREATE TRIGGER "OrderEntry_journal" AFTER INSERT ON "OrderEntry" FOR EACH ROW EXECUTE FUNCTION "Journal_post"();
CREATE CONSTRAINT TRIGGER "OrderEntry_is_posted" AFTER INSERT ON "OrderEntry" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "OrderEntry_is_posted"();
CREATE TRIGGER "Folio_owing_journal" AFTER UPDATE OF "owedAt" ON "Folio" FOR EACH ROW
  WHEN (OLD."owedAt" IS NULL AND NEW."owedAt" IS NOT NULL) EXECUTE FUNCTION "Journal_folio_owing"();
