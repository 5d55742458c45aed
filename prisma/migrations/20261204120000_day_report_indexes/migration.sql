-- The manager's day on years of stays (issue 26, bench/reports.ts: 10,000 rooms, 3 years, 3.9 million
-- stays, 13.5 million ledger entries). Before these, a day's report read every stay and every bill
-- (2 to 3.5 s), a month's 34 s. Hand-written: Prisma cannot express a GiST index of an expression
-- nor a partial index.

-- The stays whose guest had left when they are read, by the range of their nights (checked in,
-- checked out): the rooms sold at a day's end are those whose range holds that instant, found without
-- reading the stays before or after it. The upper bound is never below the lower (a range must not be
-- reversed), and '()' leaves out both instants, as the report's "in at the day's end" does.
CREATE INDEX "Stay_night_idx" ON "Stay" USING gist ("hotelId", tstzrange("checkInAt", greatest("checkInAt", "checkedOutAt"), '()'))
  WHERE "status" IN ('checked_out', 'moved') AND "checkedOutAt" IS NOT NULL;

-- The bills not settled (the guests in house, the bills left owing): the deposits they hold.
CREATE INDEX "Folio_hotelId_open_idx" ON "Folio" ("hotelId", "id") WHERE "settledAt" IS NULL;
