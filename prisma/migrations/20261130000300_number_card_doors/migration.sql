-- Issue 20 §5: a stay's number card (a card sent by its number, by the desk or by the access rule)
-- has a copy on every shared door serving its room (docs/shared-doors.md "Number cards"): a grant
-- of the same writing, room and stay with "doorLockId" the door, pushed to the door's lock by the
-- card's number. A data card's grants on doors stay as they were (made when the card is written).
ALTER TABLE "CardGrant" DROP CONSTRAINT "CardGrant_door_check";
ALTER TABLE "CardGrant" ADD CONSTRAINT "CardGrant_door_check" CHECK (
  "doorLockId" IS NULL
  OR ("roomId" IS NOT NULL AND ("medium" = 'data' OR ("issueId" IS NOT NULL AND "stayId" IS NOT NULL)))
);
