-- Issue 16: locks belong to their hotel. A hotel connects its own lock accounts (LockAccount, its
-- tokens sealed); locks are imported from them into Lock rows of the hotel; a room references a
-- Lock row of its own hotel (a composite foreign key), never a typed lock id.

CREATE TYPE "LockAccountState" AS ENUM ('connected', 'needs_password', 'wrong_region', 'suspended', 'disconnected');

CREATE TABLE "LockAccount" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "provider" TEXT NOT NULL,
    "kind" VARCHAR(8) NOT NULL DEFAULT 'ttlock',
    "username" TEXT NOT NULL,
    "label" TEXT NOT NULL DEFAULT '',
    "state" "LockAccountState" NOT NULL DEFAULT 'connected',
    "lastError" TEXT,
    "tokensSealed" TEXT,
    "tokenExpiresAt" TIMESTAMPTZ(3),
    "limitedUntil" TIMESTAMPTZ(3),
    "monthlyBudget" INTEGER NOT NULL DEFAULT 100000,
    "connectedAt" TIMESTAMPTZ(3),
    "importedAt" TIMESTAMPTZ(3),
    "linksReadAt" TIMESTAMPTZ(3),
    "locksReadAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "LockAccount_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "LockAccount_kind_check" CHECK ("kind" IN ('ttlock', 'tthotel')),
    CONSTRAINT "LockAccount_monthlyBudget_check" CHECK ("monthlyBudget" BETWEEN 100 AND 100000000)
);
CREATE UNIQUE INDEX "LockAccount_hotelId_id_key" ON "LockAccount"("hotelId", "id");
CREATE UNIQUE INDEX "LockAccount_hotelId_provider_username_key" ON "LockAccount"("hotelId", "provider", "username");
ALTER TABLE "LockAccount" ADD CONSTRAINT "LockAccount_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "Hotel" ADD COLUMN "cardNumberOrder" VARCHAR(8) NOT NULL DEFAULT 'same',
  ADD CONSTRAINT "Hotel_cardNumberOrder_check" CHECK ("cardNumberOrder" IN ('same', 'reversed'));

ALTER TABLE "Lock" ADD COLUMN "accountId" INTEGER,
ADD COLUMN "alias" TEXT NOT NULL DEFAULT '',
ADD COLUMN "building" TEXT NOT NULL DEFAULT '',
ADD COLUMN "callbackAt" TIMESTAMPTZ(3),
ADD COLUMN "doorSensorId" TEXT,
ADD COLUMN "floor" TEXT NOT NULL DEFAULT '',
ADD COLUMN "goneAt" TIMESTAMPTZ(3),
ADD COLUMN "hasCardReader" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN "hasFaceModule" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "hasKeypad" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN "importedAt" TIMESTAMPTZ(3),
ADD COLUMN "isWifi" BOOLEAN NOT NULL DEFAULT false;
-- Locks kept from before lock accounts could take faces (the adapter asked the cloud every time).
UPDATE "Lock" SET "hasFaceModule" = true;
DROP INDEX "Lock_hotelId_providerLockId_idx";
CREATE INDEX "Lock_hotelId_accountId_idx" ON "Lock"("hotelId", "accountId");
CREATE INDEX "Lock_doorSensorId_idx" ON "Lock"("doorSensorId");
ALTER TABLE "Lock" ADD CONSTRAINT "Lock_hotelId_accountId_fkey" FOREIGN KEY ("hotelId", "accountId") REFERENCES "LockAccount"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

ALTER TABLE "LockPassword" ADD COLUMN "replacesId" INTEGER,
ADD COLUMN "validityAdjusted" BOOLEAN NOT NULL DEFAULT false;

-- Rooms: the typed lock id becomes a reference to a Lock row of the room's own hotel.
ALTER TABLE "Room" RENAME COLUMN "lockId" TO "typedLockId";
ALTER TABLE "Room" ADD COLUMN "lockId" INTEGER;

-- Which hotel a typed lock id belongs to: the hotel whose Lock row it is (the status job made one
-- for the first hotel that paired it), else the hotel whose rooms alone name it. An id several
-- hotels typed and none owns has no owner: every one of those pairings is undone.
CREATE TEMP TABLE "_typed" ON COMMIT DROP AS
  SELECT r."id" AS "roomId", r."hotelId", btrim(r."typedLockId") AS "providerLockId", r."deletedAt"
  FROM "Room" r WHERE r."typedLockId" IS NOT NULL AND btrim(r."typedLockId") <> '';

INSERT INTO "Lock" ("hotelId", "provider", "providerLockId", "hasFaceModule", "updatedAt")
SELECT min(t."hotelId"), 'ttlock', t."providerLockId", true, CURRENT_TIMESTAMP
FROM "_typed" t
WHERE t."deletedAt" IS NULL
  AND NOT EXISTS (SELECT 1 FROM "Lock" l WHERE l."providerLockId" = t."providerLockId")
GROUP BY t."providerLockId"
HAVING count(DISTINCT t."hotelId") = 1;

-- Pair each room with the Lock row of its own hotel; of several rooms of a hotel typing the same
-- lock, the first keeps it (a lock is one room's door).
WITH owned AS (
  SELECT t."roomId", l."id" AS "lockRowId",
         row_number() OVER (PARTITION BY l."id" ORDER BY t."roomId") AS n
  FROM "_typed" t
  JOIN "Lock" l ON l."providerLockId" = t."providerLockId" AND l."hotelId" = t."hotelId"
  WHERE t."deletedAt" IS NULL
)
UPDATE "Room" r SET "lockId" = o."lockRowId" FROM owned o WHERE r."id" = o."roomId" AND o.n = 1;

-- What was undone is reported in each hotel's audit log (no hint of the other hotel).
INSERT INTO "AuditLog" ("hotelId", "actorType", "action", "entityType", "entityId", "before", "after", "channel", "actorJob", "createdAt")
SELECT t."hotelId", 'job', 'room.lockUnpaired', 'Room', t."roomId"::text,
       jsonb_build_object('lockId', t."providerLockId"),
       jsonb_build_object('reason', CASE
         WHEN EXISTS (SELECT 1 FROM "Lock" l WHERE l."providerLockId" = t."providerLockId" AND l."hotelId" = t."hotelId") THEN 'lock_shared_by_rooms'
         ELSE 'lock_not_in_hotel' END),
       'job', 'migration', CURRENT_TIMESTAMP
FROM "_typed" t JOIN "Room" r ON r."id" = t."roomId"
WHERE t."deletedAt" IS NULL AND r."lockId" IS NULL;

ALTER TABLE "Room" DROP COLUMN "typedLockId";
CREATE INDEX "Room_hotelId_lockId_idx" ON "Room"("hotelId", "lockId");
ALTER TABLE "Room" ADD CONSTRAINT "Room_hotelId_lockId_fkey" FOREIGN KEY ("hotelId", "lockId") REFERENCES "Lock"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;
-- A lock is the door of one room at most (rooms deleted keep none: deleting a room unpairs it).
CREATE UNIQUE INDEX "Room_lockId_active_key" ON "Room"("lockId") WHERE "lockId" IS NOT NULL AND "deletedAt" IS NULL;
