-- Issue 20 §5: room cards carry access to the shared doors their room is served by
-- (docs/card-format.md version 2, docs/shared-doors.md "Room cards"). A shared door has a door
-- number that guest cards name; a guest card's writing remembers the doors it names; a data card
-- has a grant on each of those doors (ended by denylisting it there); a shared door's lock holds
-- the hotel's card keys like a room's lock.

-- A shared door's number on cards: 1-65535, once per hotel.
ALTER TABLE "Lock" ADD COLUMN "doorNumber" INTEGER;
ALTER TABLE "Lock" ADD CONSTRAINT "Lock_doorNumber_check" CHECK ("doorNumber" IS NULL OR "doorNumber" BETWEEN 1 AND 65535);
CREATE UNIQUE INDEX "Lock_hotelId_doorNumber_key" ON "Lock"("hotelId", "doorNumber");

-- The doors a guest card's writing names.
ALTER TABLE "CardIssue" ADD COLUMN "doorLockIds" INTEGER[] DEFAULT ARRAY[]::INTEGER[];

-- A data card's grant on a shared door: of its room (the stay's), delivered to the door's lock.
ALTER TABLE "CardGrant" ADD COLUMN "doorLockId" INTEGER;
ALTER TABLE "CardGrant" ADD CONSTRAINT "CardGrant_door_check" CHECK ("doorLockId" IS NULL OR ("roomId" IS NOT NULL AND "medium" = 'data'));
CREATE INDEX "CardGrant_hotelId_doorLockId_idx" ON "CardGrant"("hotelId", "doorLockId");
ALTER TABLE "CardGrant" ADD CONSTRAINT "CardGrant_hotelId_doorLockId_fkey" FOREIGN KEY ("hotelId", "doorLockId") REFERENCES "Lock"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The card keys of a room's lock, or of a shared door's lock: exactly one of the two.
ALTER TABLE "LockCardKeys" ALTER COLUMN "roomId" DROP NOT NULL;
ALTER TABLE "LockCardKeys" ADD COLUMN "doorLockId" INTEGER;
ALTER TABLE "LockCardKeys" ADD CONSTRAINT "LockCardKeys_one_target_check" CHECK (("roomId" IS NULL) <> ("doorLockId" IS NULL));
CREATE UNIQUE INDEX "LockCardKeys_hotelId_doorLockId_key" ON "LockCardKeys"("hotelId", "doorLockId");
ALTER TABLE "LockCardKeys" ADD CONSTRAINT "LockCardKeys_hotelId_doorLockId_fkey" FOREIGN KEY ("hotelId", "doorLockId") REFERENCES "Lock"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
