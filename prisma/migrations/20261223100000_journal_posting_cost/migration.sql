-- What the journal costs the database a posting (issue 36; bench/journal-posting.ts, bench/README §5),
-- with the same rules and the same entries and lines as before:
--
-- 1. The journal's helper functions in PL/pgSQL, which plans each of their statements once a session,
--    instead of SQL, which PostgreSQL before 18 parses and plans again at every call from another
--    statement. Called by the posting trigger once or more for every order entry, the planning was
--    most of the journal's cost: the folio's ledger 0.84 ms a posting, the business date 0.31 ms, the
--    deposit ledger's balance 0.16 ms, a night's open day 0.06 ms (`track_functions`). Each function
--    returns exactly what it returned before, for the same arguments.
-- 2. An entry's date is its business date, set by `JournalEntry_business_date` before the insert: the
--    posting and the transfers no longer read the hotel's zone to write a calendar date it replaces.
-- 3. A line's balance check at commit (`JournalLine_balances`) is queued for a line written directly
--    (a statement, not a trigger): the lines the journal's own functions write go into an entry they
--    wrote in the same transaction, whose own check (`JournalEntry_balances`) sums all its lines at
--    commit. A line added later to an entry already posted is still checked, as before.

-- The folio's ledger: its visit's latest stay read among the visit's own stays (`OFFSET 0` keeps the
-- plan, made once for any folio, on the visit's index rather than walking the hotel's stays newest
-- first for the one that matches).
CREATE OR REPLACE FUNCTION "Journal_folio_ledger"(hotel integer, folio integer) RETURNS "LedgerAccount" LANGUAGE plpgsql STABLE AS $$
DECLARE
  visit integer;
BEGIN
  IF EXISTS (SELECT 1 FROM "JournalLine" l WHERE l."hotelId" = hotel AND l."folioId" = folio AND l."account" = 'receivable') THEN
    RETURN 'receivable';
  END IF;
  SELECT f."stayId" INTO visit FROM "Folio" f WHERE f."hotelId" = hotel AND f."id" = folio;
  IF (SELECT v."status" FROM (SELECT s."id", s."status" FROM "Stay" s WHERE s."hotelId" = hotel AND s."visitStayId" = visit OFFSET 0) v
       ORDER BY v."id" DESC LIMIT 1) IN ('in_house', 'expired', 'moved', 'checked_out') THEN
    RETURN 'guest';
  END IF;
  RETURN 'deposit';
END $$;

CREATE OR REPLACE FUNCTION "Journal_folio_balance"(hotel integer, folio integer, ledger "LedgerAccount") RETURNS bigint LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT coalesce(sum("amount"), 0)::bigint FROM "JournalLine" WHERE "hotelId" = hotel AND "folioId" = folio AND "account" = ledger);
END $$;

CREATE OR REPLACE FUNCTION "Journal_open_night"(hotel integer, night text, business text) RETURNS text LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "DayClose" c WHERE c."hotelId" = hotel AND c."date" = night) THEN RETURN business; END IF;
  RETURN night;
END $$;

CREATE OR REPLACE FUNCTION "Hotel_business_date"(hotel integer, at timestamptz) RETURNS varchar(10) LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    SELECT CASE
             WHEN h."dayCloseTime" IS NOT NULL
              AND (at AT TIME ZONE h."timeZone")::time < h."dayCloseTime"::time
              AND NOT EXISTS (SELECT 1 FROM "DayClose" c
                               WHERE c."hotelId" = hotel AND c."date" = to_char((at AT TIME ZONE h."timeZone")::date - 1, 'YYYY-MM-DD'))
             THEN to_char((at AT TIME ZONE h."timeZone")::date - 1, 'YYYY-MM-DD')
             ELSE to_char(at AT TIME ZONE h."timeZone", 'YYYY-MM-DD')
           END
      FROM "Hotel" h WHERE h."id" = hotel
  );
END $$;

CREATE OR REPLACE FUNCTION "Customer_balance"(p_hotel_id integer, p_customer_id integer) RETURNS bigint LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    SELECT COALESCE(sum(CASE WHEN e."folioId" IS NULL THEN e."amount" ELSE -e."amount" END), 0)::bigint
      FROM "OrderEntry" e
     WHERE e."hotelId" = p_hotel_id AND e."customerId" = p_customer_id
  );
END $$;

CREATE OR REPLACE FUNCTION "OrderEntry_refundable"(p_hotel_id integer, p_entry_id integer) RETURNS bigint LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
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
  );
END $$;

-- 2. The posting rule, as 20261211100000_nights_by_service_date wrote it, the entry dated by its trigger.
CREATE OR REPLACE FUNCTION "Journal_post_entry"(e "OrderEntry") RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  entry_id integer;
  ledger "LedgerAccount";
  nights jsonb;
  charged bigint;
  business text;
BEGIN
  IF e."folioId" IS NOT NULL THEN
    ledger := "Journal_folio_ledger"(e."hotelId", e."folioId");
    -- A visit that has begun: what its deposit ledger holds moves to the guest ledger first.
    IF ledger = 'guest' THEN PERFORM "Journal_transfer"(e."hotelId", e."folioId", 'deposit_to_guest', 'deposit', 'guest', e."createdAt"); END IF;
  END IF;
  -- Dated by JournalEntry_business_date.
  INSERT INTO "JournalEntry" ("hotelId", "orderEntryId", "folioId", "source", "businessDate", "postedAt")
    VALUES (e."hotelId", e."id", e."folioId", 'order', '', e."createdAt")
    RETURNING "id", "businessDate" INTO entry_id, business;

  IF e."kind" = 'correction' THEN
    -- The exact reverse of the entry it corrects; its folio's lines on the folio's ledger now.
    INSERT INTO "JournalLine" ("hotelId", "journalEntryId", "account", "folioId", "customerId", "method", "shiftId", "serviceDate", "amount")
      SELECT l."hotelId", entry_id, CASE WHEN l."account" IN ('guest', 'deposit', 'receivable') THEN ledger ELSE l."account" END,
             l."folioId", l."customerId", l."method", l."shiftId",
             CASE WHEN l."serviceDate" IS NOT NULL THEN "Journal_open_night"(e."hotelId", l."serviceDate", business) END, -l."amount"
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
    -- The folio's line, then a revenue line a night: one statement.
    INSERT INTO "JournalLine" ("hotelId", "journalEntryId", "account", "folioId", "serviceDate", "amount")
      SELECT e."hotelId", entry_id, ledger, e."folioId", NULL, -e."amount"
      UNION ALL
      SELECT e."hotelId", entry_id, 'revenue_rooms', NULL, "Journal_open_night"(e."hotelId", n->>'date', business), -(n->>'amount')::bigint
        FROM jsonb_array_elements(nights) n WHERE (n->>'amount')::bigint <> 0;
  ELSIF e."kind" = 'charge' THEN
    INSERT INTO "JournalLine" ("hotelId", "journalEntryId", "account", "folioId", "amount") VALUES
      (e."hotelId", entry_id, ledger, e."folioId", -e."amount"),
      (e."hotelId", entry_id, 'revenue_extras', NULL, e."amount");
  ELSE
    -- Money received (deposit, payment, recharge: positive) or paid back (refund: negative): the way it
    -- moved (a drawer or account per way of paying, cash per cashier shift; or a customer's balance) against
    -- the folio's ledger, or against the customer's balance for a recharge and its refunds.
    -- Both lines in one statement.
    INSERT INTO "JournalLine" ("hotelId", "journalEntryId", "account", "folioId", "customerId", "method", "shiftId", "amount") VALUES
      (e."hotelId", entry_id, CASE WHEN e."method" = 'balance' THEN 'customer_balance' ELSE 'money' END::"LedgerAccount", NULL,
       CASE WHEN e."method" = 'balance' THEN e."customerId" END, CASE WHEN e."method" <> 'balance' THEN e."method" END,
       CASE WHEN e."method" <> 'balance' THEN e."shiftId" END, e."amount"),
      (e."hotelId", entry_id, CASE WHEN e."folioId" IS NOT NULL THEN ledger ELSE 'customer_balance' END::"LedgerAccount", e."folioId",
       CASE WHEN e."folioId" IS NULL THEN e."customerId" END, NULL, NULL, -e."amount");
  END IF;
END $$;

-- 2. A move between a folio's ledgers, the entry dated by its trigger.
CREATE OR REPLACE FUNCTION "Journal_transfer"(hotel integer, folio integer, source text, from_ledger "LedgerAccount", to_ledger "LedgerAccount", at timestamptz)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  moved bigint := "Journal_folio_balance"(hotel, folio, from_ledger);
  entry_id integer;
BEGIN
  IF moved = 0 THEN RETURN; END IF;
  -- Dated by JournalEntry_business_date.
  INSERT INTO "JournalEntry" ("hotelId", "folioId", "source", "businessDate", "postedAt") VALUES (hotel, folio, source, '', at)
    RETURNING "id" INTO entry_id;
  INSERT INTO "JournalLine" ("hotelId", "journalEntryId", "account", "folioId", "amount") VALUES
    (hotel, entry_id, from_ledger, folio, -moved),
    (hotel, entry_id, to_ledger, folio, moved);
END $$;

-- 3. A line's own balance check only for a line written directly.
DROP TRIGGER "JournalLine_balances" ON "JournalLine";
CREATE CONSTRAINT TRIGGER "JournalLine_balances" AFTER INSERT ON "JournalLine" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (pg_trigger_depth() = 0) EXECUTE FUNCTION "JournalLine_balances"();
