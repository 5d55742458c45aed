-- Issue 20 §5: shared doors. A lock can be a shared door (entrance, lift, gym, parking, other) that
-- serves rooms and room groups; a stay's passwords and faces are copied onto the shared doors its
-- room is served by (a copy names the door lock and the room credential it copies), each copy with
-- its own delivery state; a shared door's unlock records name the lock and the stay that opened it.

-- CreateEnum
CREATE TYPE "SharedDoorKind" AS ENUM ('entrance', 'lift', 'gym', 'parking', 'other');

-- AlterTable
ALTER TABLE "Lock" ADD COLUMN "sharedKind" "SharedDoorKind";

-- CreateTable
CREATE TABLE "SharedDoorServe" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "lockId" INTEGER NOT NULL,
    "roomId" INTEGER,
    "groupId" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SharedDoorServe_pkey" PRIMARY KEY ("id"),
    -- Exactly one of a room and a room group.
    CONSTRAINT "SharedDoorServe_one_target_check" CHECK (("roomId" IS NULL) <> ("groupId" IS NULL))
);

-- CreateIndex
CREATE UNIQUE INDEX "SharedDoorServe_hotelId_lockId_roomId_key" ON "SharedDoorServe"("hotelId", "lockId", "roomId");
CREATE UNIQUE INDEX "SharedDoorServe_hotelId_lockId_groupId_key" ON "SharedDoorServe"("hotelId", "lockId", "groupId");
CREATE INDEX "SharedDoorServe_hotelId_roomId_idx" ON "SharedDoorServe"("hotelId", "roomId");
CREATE INDEX "SharedDoorServe_hotelId_groupId_idx" ON "SharedDoorServe"("hotelId", "groupId");

-- AddForeignKey (composite: a door, room and group of the same hotel)
ALTER TABLE "SharedDoorServe" ADD CONSTRAINT "SharedDoorServe_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "SharedDoorServe" ADD CONSTRAINT "SharedDoorServe_hotelId_lockId_fkey" FOREIGN KEY ("hotelId", "lockId") REFERENCES "Lock"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "SharedDoorServe" ADD CONSTRAINT "SharedDoorServe_hotelId_roomId_fkey" FOREIGN KEY ("hotelId", "roomId") REFERENCES "Room"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "SharedDoorServe" ADD CONSTRAINT "SharedDoorServe_hotelId_groupId_fkey" FOREIGN KEY ("hotelId", "groupId") REFERENCES "RoomGroup"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A shared door's copies of room credentials.
ALTER TABLE "LockPassword" ADD COLUMN "doorLockId" INTEGER, ADD COLUMN "copyOfId" INTEGER;
ALTER TABLE "FaceAuthorization" ADD COLUMN "doorLockId" INTEGER, ADD COLUMN "copyOfId" INTEGER;
ALTER TABLE "LockPassword" ADD CONSTRAINT "LockPassword_copy_check" CHECK (("doorLockId" IS NULL) = ("copyOfId" IS NULL));
ALTER TABLE "FaceAuthorization" ADD CONSTRAINT "FaceAuthorization_copy_check" CHECK (("doorLockId" IS NULL) = ("copyOfId" IS NULL));
CREATE INDEX "LockPassword_hotelId_doorLockId_idx" ON "LockPassword"("hotelId", "doorLockId");
CREATE INDEX "LockPassword_copyOfId_idx" ON "LockPassword"("copyOfId");
CREATE INDEX "FaceAuthorization_hotelId_doorLockId_idx" ON "FaceAuthorization"("hotelId", "doorLockId");
CREATE INDEX "FaceAuthorization_copyOfId_idx" ON "FaceAuthorization"("copyOfId");
ALTER TABLE "LockPassword" ADD CONSTRAINT "LockPassword_hotelId_doorLockId_fkey" FOREIGN KEY ("hotelId", "doorLockId") REFERENCES "Lock"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "LockPassword" ADD CONSTRAINT "LockPassword_copyOfId_fkey" FOREIGN KEY ("copyOfId") REFERENCES "LockPassword"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "FaceAuthorization" ADD CONSTRAINT "FaceAuthorization_hotelId_doorLockId_fkey" FOREIGN KEY ("hotelId", "doorLockId") REFERENCES "Lock"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "FaceAuthorization" ADD CONSTRAINT "FaceAuthorization_copyOfId_fkey" FOREIGN KEY ("copyOfId") REFERENCES "FaceAuthorization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A live custom code is unique per room's lock, and per shared door.
DROP INDEX "LockPassword_live_code_key";
CREATE UNIQUE INDEX "LockPassword_live_code_key" ON "LockPassword"("roomId", "code") WHERE "kind" = 'custom' AND "code" IS NOT NULL AND "doorLockId" IS NULL AND "deliveryState" IN ('pending', 'on_lock', 'unknown');
CREATE UNIQUE INDEX "LockPassword_live_door_code_key" ON "LockPassword"("doorLockId", "code") WHERE "kind" = 'custom' AND "code" IS NOT NULL AND "doorLockId" IS NOT NULL AND "deliveryState" IN ('pending', 'on_lock', 'unknown');

-- A shared door's unlock records: the door it was read from and the stay whose credential opened it
-- (its room is that stay's room; a record of a credential the console does not know is not kept).
ALTER TABLE "UnlockRecord" ADD COLUMN "doorLockId" INTEGER, ADD COLUMN "stayId" INTEGER;
CREATE INDEX "UnlockRecord_hotelId_doorLockId_occurredAt_id_idx" ON "UnlockRecord"("hotelId", "doorLockId", "occurredAt" DESC, "id" DESC);
ALTER TABLE "UnlockRecord" ADD CONSTRAINT "UnlockRecord_hotelId_doorLockId_fkey" FOREIGN KEY ("hotelId", "doorLockId") REFERENCES "Lock"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A lock that is a room's door is not a shared door, and a shared door is no room's door.
CREATE FUNCTION "shared_door_not_room_door"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'Lock' THEN
    IF NEW."sharedKind" IS NOT NULL AND EXISTS (SELECT 1 FROM "Room" WHERE "hotelId" = NEW."hotelId" AND "lockId" = NEW."id" AND "deletedAt" IS NULL) THEN
      RAISE EXCEPTION 'lock % is a room''s door: it cannot be a shared door', NEW."id" USING ERRCODE = '23514', CONSTRAINT = 'Lock_shared_not_room_door';
    END IF;
  ELSIF NEW."lockId" IS NOT NULL AND NEW."deletedAt" IS NULL
        AND EXISTS (SELECT 1 FROM "Lock" WHERE "hotelId" = NEW."hotelId" AND "id" = NEW."lockId" AND "sharedKind" IS NOT NULL) THEN
    RAISE EXCEPTION 'lock % is a shared door: it cannot be a room''s door', NEW."lockId" USING ERRCODE = '23514', CONSTRAINT = 'Lock_shared_not_room_door';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "Lock_shared_not_room_door" BEFORE INSERT OR UPDATE OF "sharedKind" ON "Lock" FOR EACH ROW EXECUTE FUNCTION "shared_door_not_room_door"();
CREATE TRIGGER "Room_lock_not_shared_door" BEFORE INSERT OR UPDATE OF "lockId", "deletedAt" ON "Room" FOR EACH ROW EXECUTE FUNCTION "shared_door_not_room_door"();

-- One live authorisation of a face per room's lock, and per shared door.
DROP INDEX "FaceAuthorization_live_face_room_key";
CREATE UNIQUE INDEX "FaceAuthorization_live_face_room_key" ON "FaceAuthorization"("faceId", "roomId") WHERE "doorLockId" IS NULL AND "deliveryState" IN ('pending', 'on_lock', 'failed', 'unknown');
CREATE UNIQUE INDEX "FaceAuthorization_live_face_door_key" ON "FaceAuthorization"("faceId", "doorLockId") WHERE "doorLockId" IS NOT NULL AND "deliveryState" IN ('pending', 'on_lock', 'failed', 'unknown');
