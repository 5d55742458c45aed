-- What the hotel stood at at the end of a day that is over (bills owing, deposits held: decision 062),
-- kept beside the day's ledger sums (modules/reports/kept-sums.ts): a day six weeks back read every
-- bill settled since it, 12 to 14 s at 10,000 rooms and 3 years, and a month of such days 5 minutes.
-- It never changes once the day is over (a bill settled or left owing later is so from later on; an
-- entry posted on the day all the same removes the day's row, JournalEntry_forget_day_sums). Rows kept
-- before have none: computed and kept the next time a report reads them.
ALTER TABLE "LedgerDaySum" ADD COLUMN "standing" JSONB;
