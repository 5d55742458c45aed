-- Issue 20 §2: access rules (docs/access-rules.md). A hotel's rule and a room group's own say when
-- and how a reservation's credentials are issued by themselves; the stay records when a rule issued
-- them and what its code rule gave.
-- AlterTable
ALTER TABLE "Stay" ADD COLUMN     "accessIssuedAt" TIMESTAMPTZ(3),
ADD COLUMN     "accessOutcome" VARCHAR(32);

-- CreateTable
CREATE TABLE "AccessRule" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "groupId" INTEGER,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "deskReservations" BOOLEAN NOT NULL DEFAULT false,
    "issueDaysBefore" INTEGER NOT NULL DEFAULT 0,
    "minutesBeforeCheckIn" INTEGER NOT NULL DEFAULT 0,
    "minutesAfterCheckOut" INTEGER NOT NULL DEFAULT 0,
    "password" BOOLEAN NOT NULL DEFAULT true,
    "face" BOOLEAN NOT NULL DEFAULT false,
    "codeRule" VARCHAR(16) NOT NULL DEFAULT 'random',
    "phoneFallback" VARCHAR(16) NOT NULL DEFAULT 'random',
    "codeType" VARCHAR(16) NOT NULL DEFAULT 'auto',
    "autoCheckIn" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "AccessRule_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "AccessRule_hotelId_groupId_key" ON "AccessRule"("hotelId", "groupId");

-- AddForeignKey
ALTER TABLE "AccessRule" ADD CONSTRAINT "AccessRule_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AccessRule" ADD CONSTRAINT "AccessRule_hotelId_groupId_fkey" FOREIGN KEY ("hotelId", "groupId") REFERENCES "RoomGroup"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand: one rule per hotel (a NULL group is distinct for the unique index above), and the rule's bounds.
CREATE UNIQUE INDEX "AccessRule_hotel_default_key" ON "AccessRule"("hotelId") WHERE "groupId" IS NULL;
ALTER TABLE "AccessRule" ADD CONSTRAINT "AccessRule_bounds" CHECK (
  "issueDaysBefore" BETWEEN 0 AND 30
  AND "minutesBeforeCheckIn" BETWEEN 0 AND 1440
  AND "minutesAfterCheckOut" BETWEEN 0 AND 1440
  AND "codeRule" IN ('random', 'phone_last4', 'phone_last5', 'phone_last6')
  AND "phoneFallback" IN ('random', 'none')
  AND "codeType" IN ('generated', 'custom', 'auto')
);
