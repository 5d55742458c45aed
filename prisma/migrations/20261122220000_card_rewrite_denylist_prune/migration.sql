-- A rewrite of an issued card (a renewal's new period) is reserved beside the writing it replaces:
-- a card has at most one issued writing and at most one reservation, never two of either.
ALTER TABLE "CardIssue" ADD COLUMN     "replacesId" INTEGER;

DROP INDEX "CardIssue_live_card_key";
CREATE UNIQUE INDEX "CardIssue_issued_card_key" ON "CardIssue"("hotelId", "cardId") WHERE "state" = 'issued';
CREATE UNIQUE INDEX "CardIssue_reserved_card_key" ON "CardIssue"("hotelId", "cardId") WHERE "state" = 'reserved';

-- Denylist entries of data cards whose validity is over are taken off their locks: when.
ALTER TABLE "CardGrant" ADD COLUMN     "denylistPrunedAt" TIMESTAMPTZ(3);

-- The prune's work: data cards taken off (denylisted), not pruned yet, by their end.
CREATE INDEX "CardGrant_denylist_prune_idx" ON "CardGrant"("validUntil") WHERE "medium" = 'data' AND "deliveryState" = 'removed' AND "denylistPrunedAt" IS NULL;
