-- A day's other revenue and the taxes its prices include (the journal's revenue_extras and tax_payable
-- of its business date), kept beside its ledger sums once the day is over (modules/reports/kept-sums.ts):
-- a month's report read every journal entry of the month for them, 1.4 s at 10,000 rooms. It changes as
-- the sums do (an entry posted on the day all the same removes the day's row, JournalEntry_forget_day_sums).
-- Rows kept before have none: computed and kept the next time a report reads them.
ALTER TABLE "LedgerDaySum" ADD COLUMN "extras" JSONB;
