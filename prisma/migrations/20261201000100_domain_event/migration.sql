-- The outbox of domain events (docs/events.md, decision 035): one row per change of a hotel's
-- state, written in the change's own transaction, published after its commit, read again by a
-- subscriber that resumes from its last event id, pruned after some days.
CREATE TABLE "DomainEvent" (
    "id" BIGSERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "roomIds" INTEGER[] NOT NULL DEFAULT ARRAY[]::INTEGER[],
    "ids" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DomainEvent_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "DomainEvent_hotelId_id_idx" ON "DomainEvent"("hotelId", "id");
CREATE INDEX "DomainEvent_createdAt_idx" ON "DomainEvent"("createdAt");

ALTER TABLE "DomainEvent" ADD CONSTRAINT "DomainEvent_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;
