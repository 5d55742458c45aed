-- A card's writing has at most one live grant on each shared door (docs/shared-doors.md): a data
-- card's grant made when it is written, a number card's copy made by the reconciliation. The code
-- makes one under the door's row lock; the database holds it too.
CREATE UNIQUE INDEX "CardGrant_live_issue_door_key" ON "CardGrant"("issueId", "doorLockId")
  WHERE "doorLockId" IS NOT NULL AND "deliveryState" IN ('pending', 'on_lock', 'failed', 'unknown');
