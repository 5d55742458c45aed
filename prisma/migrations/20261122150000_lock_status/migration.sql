-- Why the last status check of a lock failed (a code of LOCK_ERROR_CODES), null when it answered.
ALTER TABLE "Lock" ADD COLUMN "statusError" TEXT;
