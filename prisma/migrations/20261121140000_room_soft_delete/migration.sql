-- Rooms are deleted softly: their stays stay as history. Drafted with `schema:draft -- HEAD`.

-- DropIndex
DROP INDEX "Room_hotelId_name_key";

-- AlterTable
ALTER TABLE "Room" ADD COLUMN     "deletedAt" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "Room_hotelId_name_idx" ON "Room"("hotelId", "name");

-- CreateIndex
CREATE INDEX "Room_hotelId_sortOrder_idx" ON "Room"("hotelId", "sortOrder");

-- Hand-written: a room name is unique within a hotel among the rooms that are not deleted.
CREATE UNIQUE INDEX "Room_hotelId_name_active_key" ON "Room"("hotelId", "name") WHERE "deletedAt" IS NULL;
