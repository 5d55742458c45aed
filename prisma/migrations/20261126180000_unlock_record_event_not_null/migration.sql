-- PostgreSQL 18 names NOT NULL constraints, and a column rename keeps the old name: the rename of
-- UnlockRecord "content" to "event" (20261122120000_unlock_record_codes) left
-- "UnlockRecord_content_not_null", where a database made from schema.prisma has
-- "UnlockRecord_event_not_null". Older PostgreSQL versions have no such constraint: nothing to do.
DO $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM pg_constraint
    WHERE conname = 'UnlockRecord_content_not_null' AND conrelid = '"UnlockRecord"'::regclass
  ) THEN
    ALTER TABLE "UnlockRecord" RENAME CONSTRAINT "UnlockRecord_content_not_null" TO "UnlockRecord_event_not_null";
  END IF;
END $$;
