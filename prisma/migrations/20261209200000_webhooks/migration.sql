-- Webhooks (issue 29 §2, docs/webhooks.md, decision 048): a hotel's endpoints, the deliveries of
-- the outbox's events to them (one row per event and endpoint: the same webhook-id at every
-- attempt), each attempt's request and answer, and the dispatcher's place in the outbox.

CREATE TABLE "WebhookEndpoint" (
  "id"                SERIAL PRIMARY KEY,
  "hotelId"           INTEGER NOT NULL REFERENCES "Hotel"("id") ON DELETE CASCADE,
  "url"               VARCHAR(2048) NOT NULL,
  "description"       VARCHAR(200) NOT NULL DEFAULT '',
  -- Public event names (WEBHOOK_EVENTS); never empty.
  "events"            TEXT[] NOT NULL,
  "enabled"           BOOLEAN NOT NULL DEFAULT true,
  -- 'manual' (disabled by a user) or 'failing' (every delivery failed for WEBHOOK_DISABLE_AFTER).
  "disabledReason"    VARCHAR(16),
  "disabledAt"        TIMESTAMPTZ(3),
  -- The signing secrets, sealed (infra/seal.ts): the current one and, during a rotation, the previous one.
  "secret"            TEXT NOT NULL,
  "previousSecret"    TEXT,
  "previousSecretUntil" TIMESTAMPTZ(3),
  "secretRotatedAt"   TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  -- Since when every attempt failed (null: the last one succeeded, or none yet).
  "failingSince"      TIMESTAMPTZ(3),
  "lastSuccessAt"     TIMESTAMPTZ(3),
  "createdAt"         TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt"         TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "WebhookEndpoint_events_nonempty" CHECK (cardinality("events") > 0),
  CONSTRAINT "WebhookEndpoint_disabled_reason" CHECK (("enabled" AND "disabledReason" IS NULL) OR (NOT "enabled" AND "disabledReason" IN ('manual', 'failing'))),
  CONSTRAINT "WebhookEndpoint_previous_secret" CHECK (("previousSecret" IS NULL) = ("previousSecretUntil" IS NULL))
);
CREATE INDEX "WebhookEndpoint_hotelId_idx" ON "WebhookEndpoint" ("hotelId", "id");
-- The dispatcher reads the enabled endpoints of the hotels whose events it reads.
CREATE INDEX "WebhookEndpoint_enabled_idx" ON "WebhookEndpoint" ("hotelId") WHERE "enabled";

CREATE TABLE "WebhookDelivery" (
  "id"            BIGSERIAL PRIMARY KEY,
  "hotelId"       INTEGER NOT NULL REFERENCES "Hotel"("id") ON DELETE CASCADE,
  "endpointId"    INTEGER NOT NULL REFERENCES "WebhookEndpoint"("id") ON DELETE CASCADE,
  -- The outbox event (null for a test event); not a foreign key: the outbox is pruned after 14 days.
  "eventId"       BIGINT,
  -- The webhook-id header: the same at every attempt and every "send again".
  "messageId"     VARCHAR(64) NOT NULL,
  "kind"          VARCHAR(40) NOT NULL,
  -- The resource whose events go out in order (`stay:12`, `password:7`, `lock:3`), null: no order.
  "resource"      VARCHAR(40),
  -- The ids of the event (the payload's `data` is read at each attempt from these).
  "ids"           JSONB NOT NULL DEFAULT '{}',
  "roomIds"       INTEGER[] NOT NULL DEFAULT '{}',
  "occurredAt"    TIMESTAMPTZ(3) NOT NULL,
  "status"        VARCHAR(16) NOT NULL DEFAULT 'pending',
  "attempts"      INTEGER NOT NULL DEFAULT 0,
  "nextAttemptAt" TIMESTAMPTZ(3),
  "lastStatus"    INTEGER,
  "lastError"     VARCHAR(32),
  "deliveredAt"   TIMESTAMPTZ(3),
  "createdAt"     TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "WebhookDelivery_status" CHECK ("status" IN ('pending', 'succeeded', 'failed'))
);
-- One delivery per event and endpoint, whatever number of dispatchers read the event.
CREATE UNIQUE INDEX "WebhookDelivery_endpoint_event_key" ON "WebhookDelivery" ("endpointId", "eventId") WHERE "eventId" IS NOT NULL;
CREATE INDEX "WebhookDelivery_endpoint_idx" ON "WebhookDelivery" ("endpointId", "id" DESC);
-- Order per resource: the earlier deliveries of a resource still pending.
CREATE INDEX "WebhookDelivery_pending_resource_idx" ON "WebhookDelivery" ("endpointId", "resource", "eventId") WHERE "status" = 'pending';

CREATE TABLE "WebhookAttempt" (
  "id"              BIGSERIAL PRIMARY KEY,
  "deliveryId"      BIGINT NOT NULL REFERENCES "WebhookDelivery"("id") ON DELETE CASCADE,
  "attempt"         INTEGER NOT NULL,
  "url"             VARCHAR(2048) NOT NULL,
  "requestHeaders"  JSONB NOT NULL,
  "requestBody"     TEXT NOT NULL,
  "responseStatus"  INTEGER,
  -- The first WEBHOOK_LIMITS.responseExcerpt characters of the answer's body.
  "responseExcerpt" TEXT,
  "error"           VARCHAR(32),
  "startedAt"       TIMESTAMPTZ(3) NOT NULL,
  "durationMs"      INTEGER NOT NULL
);
CREATE INDEX "WebhookAttempt_delivery_idx" ON "WebhookAttempt" ("deliveryId", "attempt");

-- The dispatcher's place in the outbox: the last event id read and that event's time. One row for
-- the install (id 0); a test's dispatcher limited to one hotel keeps its own (the hotel's id).
CREATE TABLE "WebhookCursor" (
  "id"          INTEGER PRIMARY KEY CHECK ("id" >= 0),
  "lastEventId" BIGINT NOT NULL,
  "lastEventAt" TIMESTAMPTZ(3) NOT NULL
);
-- The dispatcher looks for an event's deliveries (events committed late).
CREATE INDEX "WebhookDelivery_event_idx" ON "WebhookDelivery" ("eventId") WHERE "eventId" IS NOT NULL;
