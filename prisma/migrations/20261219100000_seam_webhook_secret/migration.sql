-- Issue 38: a Seam workspace's webhook (docs/seam.md, "Webhooks"): its signing secret, sealed, and
-- when its last verified event arrived.
ALTER TABLE "LockAccount" ADD COLUMN "webhookSecretSealed" TEXT;
ALTER TABLE "LockAccount" ADD COLUMN "webhookEventAt" TIMESTAMPTZ(3);
