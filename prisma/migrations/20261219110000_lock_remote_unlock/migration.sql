-- Issue 38: whether the console can open a lock from afar (TTLock's feature bit 10; Seam's
-- `can_remotely_unlock`, which needs a bridge or hub), read at import. Locks imported before it
-- were all offered "open": they stay so until their account's next import.
ALTER TABLE "Lock" ADD COLUMN "remoteUnlock" BOOLEAN NOT NULL DEFAULT true;
