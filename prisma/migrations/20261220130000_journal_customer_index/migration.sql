-- A member's balance lines by customer (modules/journal/trial-balance-sums.ts): the trial balance
-- since a checkpoint sums the balance of each customer that moved, which read every journal line
-- without it.
CREATE INDEX "JournalLine_hotelId_customerId_idx" ON "JournalLine"("hotelId", "customerId") WHERE "customerId" IS NOT NULL;
