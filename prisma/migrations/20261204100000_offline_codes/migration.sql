-- Offline codes (issue 27, docs/access-rules.md "Offline codes"): a reservation whose custom code the
-- lock has not confirmed a set time before its check-in gets a generated code, which the lock knows
-- without a gateway; the stay says when and why, the password row says it is such a code.
ALTER TABLE "AccessRule" ADD COLUMN "offlineCodeMinutes" INTEGER NOT NULL DEFAULT 180;
ALTER TABLE "AccessRule" ADD CONSTRAINT "AccessRule_offline_minutes_check" CHECK ("offlineCodeMinutes" BETWEEN 0 AND 1440);

ALTER TABLE "Stay" ADD COLUMN "offlineCodeAt" TIMESTAMPTZ(3),
ADD COLUMN "offlineCodeReason" VARCHAR(32);

ALTER TABLE "LockPassword" ADD COLUMN "offline" BOOLEAN NOT NULL DEFAULT false;
