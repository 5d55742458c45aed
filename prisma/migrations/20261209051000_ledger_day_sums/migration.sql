-- The ledger's sums of a day that is over, kept once summed (docs/reports.md, bench/README.md §18): a
-- month's report of days nobody closed reads 31 rows instead of summing 380,000 entries again each
-- time. A day's entries never change once it is over: the ledger is append-only (OrderEntry_no_update,
-- OrderEntry_no_delete) and an entry is dated when it is written, after the day lock
-- (db/ledger-day-lock.ts) that the summing waits on. An entry written with an earlier date all the
-- same (an import, a test) removes the sums of its day (the trigger below), which are then summed anew.
-- The day's bounds are kept: a hotel that changes its time zone gets its days summed anew.

-- CreateTable
CREATE TABLE "LedgerDaySum" (
    "hotelId" INTEGER NOT NULL,
    "date" VARCHAR(10) NOT NULL,
    "dayStart" TIMESTAMPTZ(3) NOT NULL,
    "dayEnd" TIMESTAMPTZ(3) NOT NULL,
    "sums" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LedgerDaySum_pkey" PRIMARY KEY ("hotelId","date")
);

-- CreateIndex
CREATE INDEX "LedgerDaySum_hotelId_dayEnd_idx" ON "LedgerDaySum"("hotelId", "dayEnd");

-- AddForeignKey
ALTER TABLE "LedgerDaySum" ADD CONSTRAINT "LedgerDaySum_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------------
-- Hand-written: an entry dated in a summed day removes that day's sums (one index probe an entry;
-- an entry dated now finds none).
CREATE FUNCTION "LedgerDaySum_forget"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "LedgerDaySum" s WHERE s."hotelId" = NEW."hotelId" AND s."dayEnd" > NEW."createdAt" AND s."dayStart" <= NEW."createdAt";
  RETURN NULL;
END $$;
CREATE TRIGGER "OrderEntry_forget_day_sums" AFTER INSERT ON "OrderEntry" FOR EACH ROW EXECUTE FUNCTION "LedgerDaySum_forget"();
