-- The business date (issue 36 §6, docs/journal.md "The business date", decision 059): the day the
-- hotel's books are open on. It is the hotel's calendar date, except in the night before the audit:
-- from midnight until the hotel's audit hour ("dayCloseTime"), while the day before is not closed
-- (a manager's close or the audit hour's), postings still land on the day before. A hotel with no
-- audit hour keeps the calendar date. The close rolls it: once the day before is closed, what is
-- posted lands on the new day, whatever the hour. Never more than one day behind the calendar.
CREATE FUNCTION "Hotel_business_date"(hotel integer, at timestamptz) RETURNS varchar(10) LANGUAGE sql STABLE AS $$
  SELECT CASE
           WHEN h."dayCloseTime" IS NOT NULL
            AND (at AT TIME ZONE h."timeZone")::time < h."dayCloseTime"::time
            AND NOT EXISTS (SELECT 1 FROM "DayClose" c
                             WHERE c."hotelId" = hotel AND c."date" = to_char((at AT TIME ZONE h."timeZone")::date - 1, 'YYYY-MM-DD'))
           THEN to_char((at AT TIME ZONE h."timeZone")::date - 1, 'YYYY-MM-DD')
           ELSE to_char(at AT TIME ZONE h."timeZone", 'YYYY-MM-DD')
         END
    FROM "Hotel" h WHERE h."id" = hotel
$$;

-- Every journal entry is dated by it, whoever writes it (the posting rule, the transfers between a
-- folio's ledgers, SQL): one rule, in the database. Entries posted before this migration keep their
-- calendar dates (the figures a hotel has seen do not change).
CREATE FUNCTION "JournalEntry_business_date"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."businessDate" := "Hotel_business_date"(NEW."hotelId", NEW."postedAt");
  RETURN NEW;
END $$;
CREATE TRIGGER "JournalEntry_business_date" BEFORE INSERT ON "JournalEntry" FOR EACH ROW EXECUTE FUNCTION "JournalEntry_business_date"();

-- The kept sums of a day are its entries' by business date now (modules/reports/kept-sums.ts): an
-- entry posted on a summed business date (an import, a test) removes that day's sums.
DROP TRIGGER "OrderEntry_forget_day_sums" ON "OrderEntry";
DROP FUNCTION "LedgerDaySum_forget"();
CREATE FUNCTION "LedgerDaySum_forget"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "LedgerDaySum" s WHERE s."hotelId" = NEW."hotelId" AND s."date" = NEW."businessDate";
  RETURN NULL;
END $$;
CREATE TRIGGER "JournalEntry_forget_day_sums" AFTER INSERT ON "JournalEntry" FOR EACH ROW EXECUTE FUNCTION "LedgerDaySum_forget"();
