-- The books as they stood at the end of a business date whose trial balance tied (issue 36, the
-- night audit at 10,000 rooms x 3 years; docs/journal.md "Checkpoints", decision 067): each ledger
-- group's closing balance (an account; the money account per way of paying and cashier shift), and
-- the greatest journal line and order entry ids then. A later trial balance starts from the latest
-- checkpoint before its date: it reads the lines dated after it, the lines written since it (an
-- import dated in the past), and checks only the folios and customers those touch, instead of every
-- line the hotel ever wrote (modules/journal/ledger-checkpoint.ts).
CREATE TABLE "LedgerCheckpoint" (
    "hotelId" INTEGER NOT NULL,
    "date" VARCHAR(10) NOT NULL,
    "lineId" INTEGER NOT NULL,
    "orderEntryId" INTEGER NOT NULL,
    "balances" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LedgerCheckpoint_pkey" PRIMARY KEY ("hotelId","date")
);

ALTER TABLE "LedgerCheckpoint" ADD CONSTRAINT "LedgerCheckpoint_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;
