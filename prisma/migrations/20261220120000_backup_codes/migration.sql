-- Issue 38, backup codes (docs/seam.md "Backup codes"): a chosen code the lock platform failed to set,
-- replaced by one of the codes it keeps programmed on the lock for this (Seam's backup code pool): its
-- digits are the guest's from then on, and the console says so.
ALTER TABLE "LockPassword" ADD COLUMN "backupCode" BOOLEAN NOT NULL DEFAULT false;
