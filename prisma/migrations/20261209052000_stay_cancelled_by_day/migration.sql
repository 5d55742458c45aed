-- The reservations that became no-shows or were cancelled, by when (the day report's no-shows and
-- cancellations, docs/reports.md): a month's are a few thousand, found without reading the hundred
-- thousand stays that left in it. Hand-written: Prisma cannot express a partial index.
CREATE INDEX "Stay_not_come_idx" ON "Stay" ("hotelId", "checkedOutAt") WHERE "status" IN ('no_show', 'ended');
