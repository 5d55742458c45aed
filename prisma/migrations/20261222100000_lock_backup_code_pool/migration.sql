-- Seam's backup code pool on the lock's row (issue 38), read at import: a code sent to the lock no longer asks the device first.
ALTER TABLE "Lock" ADD COLUMN "backupCodePool" BOOLEAN NOT NULL DEFAULT false;
