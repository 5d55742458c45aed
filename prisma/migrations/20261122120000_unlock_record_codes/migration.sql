-- Unlock records hold codes, never text in a language: the console translates them (issue 6).
-- "content" (free text, written in English by the first seed) becomes "event", a code of
-- UNLOCK_EVENTS; "source" becomes a code of UNLOCK_SOURCES, the device id moves to "device".
ALTER TABLE "UnlockRecord" RENAME COLUMN "content" TO "event";
ALTER TABLE "UnlockRecord" ALTER COLUMN "event" SET DEFAULT 'opened';
ALTER TABLE "UnlockRecord" ADD COLUMN "device" TEXT NOT NULL DEFAULT '';
ALTER TABLE "UnlockRecord" ADD COLUMN "success" BOOLEAN NOT NULL DEFAULT true;

UPDATE "UnlockRecord" SET "device" = regexp_replace("source", '^Lock ', '') WHERE "source" <> '';
UPDATE "UnlockRecord" SET "source" = 'lock';
UPDATE "UnlockRecord" SET "event" = 'opened' WHERE "event" NOT IN ('opened', 'open_refused', 'locked', 'tamper_alarm', 'keypad_locked_out');
ALTER TABLE "UnlockRecord" ALTER COLUMN "source" SET DEFAULT 'lock';
