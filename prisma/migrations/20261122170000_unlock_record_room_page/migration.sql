-- Issue 7 §8: a room's unlock-record page on millions of records (bench/unlock-page.ts). The index
-- of a room's records gets the id as its last key: the page's order (newest first, then by id) is
-- the index's, so the ids of any page, however deep, and the capped total are read from the index
-- alone, and only the page's 20 rows from the table. It replaces the index it extends.
-- Drafted with `schema:draft -- HEAD`. CREATE INDEX holds writes to "UnlockRecord" while it runs
-- (2 s for 5,000,000 records on the benchmark's machine).

-- DropIndex
DROP INDEX "UnlockRecord_hotelId_roomId_occurredAt_idx";

-- CreateIndex
CREATE INDEX "UnlockRecord_hotelId_roomId_occurredAt_id_idx" ON "UnlockRecord"("hotelId", "roomId", "occurredAt" DESC, "id" DESC);
