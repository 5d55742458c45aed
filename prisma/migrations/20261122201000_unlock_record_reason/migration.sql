-- Issue 8: a lock's reason for refusing (a room card: expired, superseded, denylisted, wrong room, ...),
-- kept with the record and translated by the console.

-- AlterTable
ALTER TABLE "UnlockRecord" ADD COLUMN     "reason" TEXT;

ALTER TABLE "UnlockRecord" ADD CONSTRAINT "UnlockRecord_reason_code" CHECK ("reason" IS NULL OR "reason" ~ '^[a-z_]{1,40}$');
