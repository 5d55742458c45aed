-- Housekeeping (issue 28 §2, docs/housekeeping.md, decision 047): the roles of the attendant and the
-- supervisor, the hotel's stay-over rule, the day's tasks of each room (one per room, day and kind:
-- two generations at once make one set), the attendants' shifts, and rooms out of order or out of
-- service for a range of hotel days.

-- CreateEnum
CREATE TYPE "StayoverRule" AS ENUM ('daily', 'every_n_days', 'on_request');

-- CreateEnum
CREATE TYPE "HousekeepingTaskKind" AS ENUM ('departure', 'stayover', 'inspection');

-- CreateEnum
CREATE TYPE "HousekeepingTaskStatus" AS ENUM ('todo', 'in_progress', 'done', 'needs_maintenance', 'do_not_disturb', 'inspected', 'failed');

-- AlterEnum

ALTER TYPE "Role" ADD VALUE 'housekeeping';
ALTER TYPE "Role" ADD VALUE 'housekeeping_supervisor';

-- AlterTable
ALTER TABLE "Hotel" ADD COLUMN     "housekeepingDay" DATE,
ADD COLUMN     "housekeepingDayStart" VARCHAR(5) NOT NULL DEFAULT '07:00',
ADD COLUMN     "stayoverEveryDays" INTEGER NOT NULL DEFAULT 2,
ADD COLUMN     "stayoverRule" "StayoverRule" NOT NULL DEFAULT 'daily';

-- CreateTable
CREATE TABLE "HousekeepingTask" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "roomId" INTEGER NOT NULL,
    "day" DATE NOT NULL,
    "kind" "HousekeepingTaskKind" NOT NULL,
    "status" "HousekeepingTaskStatus" NOT NULL DEFAULT 'todo',
    "stayId" INTEGER,
    "assigneeId" INTEGER,
    "position" INTEGER NOT NULL DEFAULT 0,
    "note" TEXT NOT NULL DEFAULT '',
    "photo" TEXT,
    "failReason" TEXT NOT NULL DEFAULT '',
    "requested" BOOLEAN NOT NULL DEFAULT false,
    "startedAt" TIMESTAMPTZ(3),
    "doneAt" TIMESTAMPTZ(3),
    "inspectedAt" TIMESTAMPTZ(3),
    "inspectedById" INTEGER,
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "HousekeepingTask_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AttendantShift" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "membershipId" INTEGER NOT NULL,
    "day" DATE NOT NULL,
    "startsAt" TIMESTAMPTZ(3) NOT NULL,
    "endsAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "AttendantShift_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RoomOutOfOrder" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "roomId" INTEGER NOT NULL,
    "kind" "MaintenanceStatus" NOT NULL,
    "startDate" DATE NOT NULL,
    "endDate" DATE NOT NULL,
    "reason" TEXT NOT NULL,
    "createdById" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "RoomOutOfOrder_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "HousekeepingTask_hotelId_day_assigneeId_position_idx" ON "HousekeepingTask"("hotelId", "day", "assigneeId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "HousekeepingTask_hotelId_roomId_day_kind_key" ON "HousekeepingTask"("hotelId", "roomId", "day", "kind");

-- CreateIndex
CREATE UNIQUE INDEX "HousekeepingTask_hotelId_id_key" ON "HousekeepingTask"("hotelId", "id");

-- CreateIndex
CREATE INDEX "AttendantShift_hotelId_day_idx" ON "AttendantShift"("hotelId", "day");

-- CreateIndex
CREATE UNIQUE INDEX "AttendantShift_hotelId_membershipId_day_key" ON "AttendantShift"("hotelId", "membershipId", "day");

-- CreateIndex
CREATE INDEX "RoomOutOfOrder_hotelId_roomId_startDate_idx" ON "RoomOutOfOrder"("hotelId", "roomId", "startDate");

-- CreateIndex
CREATE UNIQUE INDEX "RoomOutOfOrder_hotelId_id_key" ON "RoomOutOfOrder"("hotelId", "id");

-- AddForeignKey
ALTER TABLE "HousekeepingTask" ADD CONSTRAINT "HousekeepingTask_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HousekeepingTask" ADD CONSTRAINT "HousekeepingTask_hotelId_roomId_fkey" FOREIGN KEY ("hotelId", "roomId") REFERENCES "Room"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HousekeepingTask" ADD CONSTRAINT "HousekeepingTask_assigneeId_fkey" FOREIGN KEY ("assigneeId") REFERENCES "Membership"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HousekeepingTask" ADD CONSTRAINT "HousekeepingTask_inspectedById_fkey" FOREIGN KEY ("inspectedById") REFERENCES "Membership"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AttendantShift" ADD CONSTRAINT "AttendantShift_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AttendantShift" ADD CONSTRAINT "AttendantShift_hotelId_membershipId_fkey" FOREIGN KEY ("hotelId", "membershipId") REFERENCES "Membership"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RoomOutOfOrder" ADD CONSTRAINT "RoomOutOfOrder_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RoomOutOfOrder" ADD CONSTRAINT "RoomOutOfOrder_hotelId_roomId_fkey" FOREIGN KEY ("hotelId", "roomId") REFERENCES "Room"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RoomOutOfOrder" ADD CONSTRAINT "RoomOutOfOrder_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "Membership"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------------
-- Hand-written constraints (Prisma's schema language cannot express them).

ALTER TABLE "Hotel" ADD CONSTRAINT "Hotel_stayoverEveryDays_range" CHECK ("stayoverEveryDays" BETWEEN 1 AND 30);
ALTER TABLE "HousekeepingTask" ADD CONSTRAINT "HousekeepingTask_text_length"
  CHECK (char_length("note") <= 500 AND char_length("failReason") <= 500);
ALTER TABLE "AttendantShift" ADD CONSTRAINT "AttendantShift_order"
  CHECK ("endsAt" > "startsAt" AND "endsAt" <= "startsAt" + interval '24 hours');
ALTER TABLE "RoomOutOfOrder" ADD CONSTRAINT "RoomOutOfOrder_kind" CHECK ("kind" <> 'none');
ALTER TABLE "RoomOutOfOrder" ADD CONSTRAINT "RoomOutOfOrder_dates" CHECK ("endDate" >= "startDate");
ALTER TABLE "RoomOutOfOrder" ADD CONSTRAINT "RoomOutOfOrder_reason_length" CHECK (char_length("reason") BETWEEN 1 AND 500);
-- The ranges of one room never overlap (btree_gist, migration 20261121000000_init).
ALTER TABLE "RoomOutOfOrder" ADD CONSTRAINT "RoomOutOfOrder_no_overlap"
  EXCLUDE USING gist ("roomId" WITH =, daterange("startDate", "endDate", '[]') WITH &&);
