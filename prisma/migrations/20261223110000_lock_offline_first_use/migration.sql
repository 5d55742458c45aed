-- Whether a lock's generated (offline) codes must be used once within 24 hours of their start (issue 38):
-- TTLock's do; through Seam, an igloohome lock's algoPIN does, other brands' offline codes do not. The
-- stay sweep replaces an unused one only on such a lock. A Seam lock imported before this migration
-- gets it at its next import or pairing.
ALTER TABLE "Lock" ADD COLUMN "offlineFirstUse" BOOLEAN NOT NULL DEFAULT true;
UPDATE "Lock" SET "offlineFirstUse" = false WHERE "provider" = 'seam';
