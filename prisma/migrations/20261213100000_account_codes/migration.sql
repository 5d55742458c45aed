-- The hotel's own chart-of-accounts codes (issue 36, "a trial balance that ties"; docs/journal.md
-- "The general-ledger export"): for each of the journal's accounts, and for the money account of
-- each way of paying (`money.cash`, ...), the code the hotel's accounting knows it by. The
-- general-ledger export writes a line under its code; a line of no code under our account's name.

-- CreateTable
CREATE TABLE "AccountCode" (
    "hotelId" INTEGER NOT NULL,
    "key" VARCHAR(32) NOT NULL,
    "code" VARCHAR(40) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AccountCode_pkey" PRIMARY KEY ("hotelId","key")
);

-- AddForeignKey
ALTER TABLE "AccountCode" ADD CONSTRAINT "AccountCode_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: a key is an account or an account and its way (the server's ACCOUNT_CODE_KEYS);
-- a code is never blank (no code is no row).
ALTER TABLE "AccountCode" ADD CONSTRAINT "AccountCode_key_check" CHECK ("key" ~ '^[a-z_]+(\.[a-z_]+)?$');
ALTER TABLE "AccountCode" ADD CONSTRAINT "AccountCode_code_check" CHECK (btrim("code") <> '');
