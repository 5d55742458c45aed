-- Every read of a stay as the console shows it (`staySelect`) asks whether it was moved on to another
-- room (`movedTo`, by "movedFromStayId"): without an index that was a sequential scan of every stay
-- of every hotel, on each read (bench/feeds.ts found it: about four scans of the Stay table for each
-- reservation a calendar feed made or moved).
CREATE INDEX "Stay_movedFromStayId_idx" ON "Stay"("movedFromStayId");
