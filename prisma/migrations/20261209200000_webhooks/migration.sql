-- Webhooks (issue 29 §2, docs/webhooks.md, decision 048): a hotel's endpoints, the deliveries of
-- the outbox's events to them (one row per event and endpoint: the same webhook-id at every
-- attempt), each attempt's request and answer, and the dispatcher's place in the outbox
-- (WebhookCursor: the last event id read and that event's time; id 0 for the install, a hotel's id
-- for a test's dispatcher limited to it). The tables as Prisma drafts them from schema.prisma, then
-- the hand-written rules. A delivery's eventId is no foreign key: the outbox is pruned after 14 days.

-- CreateTable
CREATE TABLE "WebhookEndpoint" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "url" VARCHAR(2048) NOT NULL,
    "description" VARCHAR(200) NOT NULL DEFAULT '',
    "events" TEXT[],
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabledReason" VARCHAR(16),
    "disabledAt" TIMESTAMPTZ(3),
    "secret" TEXT NOT NULL,
    "previousSecret" TEXT,
    "previousSecretUntil" TIMESTAMPTZ(3),
    "secretRotatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "failingSince" TIMESTAMPTZ(3),
    "lastSuccessAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookEndpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" BIGSERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "endpointId" INTEGER NOT NULL,
    "eventId" BIGINT,
    "messageId" VARCHAR(64) NOT NULL,
    "kind" VARCHAR(40) NOT NULL,
    "resource" VARCHAR(40),
    "ids" JSONB NOT NULL DEFAULT '{}',
    "roomIds" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "occurredAt" TIMESTAMPTZ(3) NOT NULL,
    "status" VARCHAR(16) NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMPTZ(3),
    "lastStatus" INTEGER,
    "lastError" VARCHAR(32),
    "deliveredAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookAttempt" (
    "id" BIGSERIAL NOT NULL,
    "deliveryId" BIGINT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "url" VARCHAR(2048) NOT NULL,
    "requestHeaders" JSONB NOT NULL,
    "requestBody" TEXT NOT NULL,
    "responseStatus" INTEGER,
    "responseExcerpt" TEXT,
    "error" VARCHAR(32),
    "startedAt" TIMESTAMPTZ(3) NOT NULL,
    "durationMs" INTEGER NOT NULL,

    CONSTRAINT "WebhookAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookCursor" (
    "id" INTEGER NOT NULL,
    "lastEventId" BIGINT NOT NULL,
    "lastEventAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "WebhookCursor_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebhookEndpoint_hotelId_id_idx" ON "WebhookEndpoint"("hotelId", "id");

-- CreateIndex
CREATE INDEX "WebhookDelivery_endpointId_id_idx" ON "WebhookDelivery"("endpointId", "id" DESC);

-- CreateIndex
CREATE INDEX "WebhookDelivery_eventId_idx" ON "WebhookDelivery"("eventId");

-- CreateIndex
CREATE INDEX "WebhookAttempt_deliveryId_attempt_idx" ON "WebhookAttempt"("deliveryId", "attempt");

-- AddForeignKey
ALTER TABLE "WebhookEndpoint" ADD CONSTRAINT "WebhookEndpoint_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "WebhookEndpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookAttempt" ADD CONSTRAINT "WebhookAttempt_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "WebhookDelivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------------
-- Hand-written (Prisma's schema language cannot express them).

-- Public event names (WEBHOOK_EVENTS): a list column as Prisma shapes it (nullable in SQL), kept set and never empty.
ALTER TABLE "WebhookEndpoint" ADD CONSTRAINT "WebhookEndpoint_events_nonempty" CHECK ("events" IS NOT NULL AND cardinality("events") > 0);
-- 'manual' (disabled by a user) or 'failing' (every delivery failed for WEBHOOK_DISABLE_AFTER_MS).
ALTER TABLE "WebhookEndpoint" ADD CONSTRAINT "WebhookEndpoint_disabled_reason" CHECK (("enabled" AND "disabledReason" IS NULL) OR (NOT "enabled" AND "disabledReason" IN ('manual', 'failing')));
-- The previous signing secret (sealed, infra/seal.ts) signs until its time during a rotation.
ALTER TABLE "WebhookEndpoint" ADD CONSTRAINT "WebhookEndpoint_previous_secret" CHECK (("previousSecret" IS NULL) = ("previousSecretUntil" IS NULL));
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_status" CHECK ("status" IN ('pending', 'succeeded', 'failed'));
-- As DomainEvent's roomIds: nullable in SQL as Prisma shapes a list; the code always writes one.
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_roomIds_set" CHECK ("roomIds" IS NOT NULL);
ALTER TABLE "WebhookCursor" ADD CONSTRAINT "WebhookCursor_id" CHECK ("id" >= 0);
-- The dispatcher reads the enabled endpoints of the hotels whose events it reads.
CREATE INDEX "WebhookEndpoint_enabled_idx" ON "WebhookEndpoint" ("hotelId") WHERE "enabled";
-- One delivery per event and endpoint, whatever number of dispatchers read the event.
CREATE UNIQUE INDEX "WebhookDelivery_endpoint_event_key" ON "WebhookDelivery" ("endpointId", "eventId") WHERE "eventId" IS NOT NULL;
-- Order per resource: the earlier deliveries of a resource still pending.
CREATE INDEX "WebhookDelivery_pending_resource_idx" ON "WebhookDelivery" ("endpointId", "resource", "eventId") WHERE "status" = 'pending';
