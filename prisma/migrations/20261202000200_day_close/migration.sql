-- The day close (night audit, issue 26 §2, docs/reports.md): a hotel calendar day, once over, is
-- closed by a manager and its report frozen here. A closed day is never changed (a trigger); a
-- correction made later lands on the day it is made.
CREATE TABLE "DayClose" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "date" VARCHAR(10) NOT NULL,
    "closedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closedByAccountId" INTEGER,
    "report" JSONB NOT NULL,

    CONSTRAINT "DayClose_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "DayClose_hotelId_date_key" ON "DayClose"("hotelId", "date");

ALTER TABLE "DayClose" ADD CONSTRAINT "DayClose_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "DayClose" ADD CONSTRAINT "DayClose_closedByAccountId_fkey" FOREIGN KEY ("closedByAccountId") REFERENCES "Account"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE FUNCTION "DayClose_is_final"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The account that closed it may be deleted (SET NULL); nothing else changes.
  IF TG_OP = 'UPDATE' AND NEW."report" = OLD."report" AND NEW."date" = OLD."date" AND NEW."closedAt" = OLD."closedAt" AND NEW."closedByAccountId" IS NULL THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM "Hotel" h WHERE h."id" = OLD."hotelId") THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'constraint "DayClose_is_final": the day % is closed', OLD."date" USING ERRCODE = 'check_violation';
END;
$$;
CREATE TRIGGER "DayClose_is_final" BEFORE UPDATE OR DELETE ON "DayClose"
  FOR EACH ROW EXECUTE FUNCTION "DayClose_is_final"();
