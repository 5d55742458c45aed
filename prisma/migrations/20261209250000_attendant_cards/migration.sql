-- An attendant's card (issue 28 §2 "keys that follow the rota", docs/housekeeping-keys.md "Cards"):
-- a management card written at the desk for the rooms of an attendant's tasks of a hotel day and the
-- hours of their shift. The writing names the attendant (their Membership) and the day, so the rota's
-- sync finds it after each change of the rota: a room taken from them denylists the card at that
-- room's lock, and `rewriteReasons` says why the card must be written again.

-- AlterTable
ALTER TABLE "CardIssue" ADD COLUMN     "attendantDay" DATE,
ADD COLUMN     "attendantId" INTEGER,
ADD COLUMN     "rewriteReasons" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateIndex
CREATE INDEX "CardIssue_hotelId_attendantDay_attendantId_idx" ON "CardIssue"("hotelId", "attendantDay", "attendantId");

-- An attendant's card is a management card of listed rooms, nobody's stay, and always names its day.
-- No foreign key to Membership, as LockPassword.attendantId has none: removing a member cascades
-- their shifts, and the rota's sweep then denylists what their card still opens.
ALTER TABLE "CardIssue" ADD CONSTRAINT "CardIssue_attendant_check"
  CHECK ("attendantId" IS NULL OR ("kind" = 'management' AND "stayId" IS NULL AND "allRooms" = false AND "attendantDay" IS NOT NULL));
