-- The day closed by itself (issue 26 §2, docs/reports.md): the hour a hotel's day before closes
-- (`HH:mm` in the hotel's zone; NULL: a manager closes each day), and whether a close was that one.
ALTER TABLE "Hotel" ADD COLUMN "dayCloseTime" VARCHAR(5);

ALTER TABLE "DayClose" ADD COLUMN "automatic" BOOLEAN NOT NULL DEFAULT false;

CREATE OR REPLACE FUNCTION "DayClose_is_final"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The account that closed it may be deleted (SET NULL); nothing else changes.
  IF TG_OP = 'UPDATE' AND NEW."report" = OLD."report" AND NEW."date" = OLD."date" AND NEW."closedAt" = OLD."closedAt"
     AND NEW."automatic" = OLD."automatic" AND NEW."closedByAccountId" IS NULL THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM "Hotel" h WHERE h."id" = OLD."hotelId") THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'constraint "DayClose_is_final": the day % is closed', OLD."date" USING ERRCODE = 'check_violation';
END;
$$;
