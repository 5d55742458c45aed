-- Deposits held and bills owing at the end of each day of a report (issue 36 §5, docs/reports.md):
-- the bills not settled at a past day's end are those not settled yet (Folio_hotelId_open_idx) and
-- those settled after it, found by when they were settled.
CREATE INDEX "Folio_hotelId_settledAt_idx" ON "Folio" ("hotelId", "settledAt") WHERE "settledAt" IS NOT NULL;
