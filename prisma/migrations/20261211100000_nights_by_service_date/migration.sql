-- Room revenue by the night it is for, in the reports (issue 36, docs/journal.md): the day report reads a
-- night's room revenue from the journal's `revenue_rooms` lines of that service date, and counts a no-show
-- on the day the guest was due. A closed day never changes: a line posted after a night's day was closed
-- (a correction, a re-spread of nights) is booked on the entry's own business date, an open day.

-- The night a revenue line is booked on: its own, unless that day is closed, then the entry's business date.
CREATE FUNCTION "Journal_open_night"(hotel integer, night text, business text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN EXISTS (SELECT 1 FROM "DayClose" c WHERE c."hotelId" = hotel AND c."date" = night) THEN business ELSE night END
$$;

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
  INSERT INTO "JournalEntry" ("hotelId", "orderEntryId", "folioId", "source", "businessDate", "postedAt")
    SELECT e."hotelId", e."id", e."folioId", 'order', to_char(e."createdAt" AT TIME ZONE h."timeZone", 'YYYY-MM-DD'), e."createdAt"
    FROM "Hotel" h WHERE h."id" = e."hotelId"
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
    INSERT INTO "JournalLine" ("hotelId", "journalEntryId", "account", "folioId", "amount") VALUES (e."hotelId", entry_id, ledger, e."folioId", -e."amount");
    INSERT INTO "JournalLine" ("hotelId", "journalEntryId", "account", "serviceDate", "amount")
      SELECT e."hotelId", entry_id, 'revenue_rooms', "Journal_open_night"(e."hotelId", n->>'date', business), -(n->>'amount')::bigint FROM jsonb_array_elements(nights) n WHERE (n->>'amount')::bigint <> 0;
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

-- A night's room revenue, summed from the index alone.
DROP INDEX "JournalLine_hotelId_serviceDate_idx";
CREATE INDEX "JournalLine_hotelId_serviceDate_idx" ON "JournalLine"("hotelId", "serviceDate") INCLUDE ("amount") WHERE "account" = 'revenue_rooms';

-- The no-shows of a day: the reservations due that day whose guest never came.
CREATE INDEX "Stay_no_show_idx" ON "Stay"("hotelId", "checkInAt") WHERE "status" = 'no_show';
