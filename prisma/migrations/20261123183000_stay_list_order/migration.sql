-- The tenant list's order over all of a hotel's stays (newest check-in first, then the higher id),
-- for its pages and for an export of every stay, read by keyset in chunks (issue 9 §8,
-- bench/export.ts: 200,000 stays). Without it each chunk sorted every stay of the hotel older than
-- the cursor (a sequential scan and a top-N sort, about 350 ms a chunk of 1,000 at 200,000 stays);
-- with it a chunk is a walk of 1,000 index entries. Stay_active_day_idx covers active stays only.
-- Drafted with `schema:draft -- HEAD`. CREATE INDEX holds writes to "Stay" while it runs.
CREATE INDEX "Stay_hotelId_checkInAt_id_idx" ON "Stay"("hotelId", "checkInAt" DESC, "id" DESC);
