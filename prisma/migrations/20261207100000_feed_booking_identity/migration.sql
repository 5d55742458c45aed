-- A booking is one reservation per hotel (issue 27): a channel booking is identified by (hotel,
-- UID, RECURRENCE-ID or '' for none) across all the hotel's feeds, no longer per feed. Its row
-- outlives the feed (deleting a feed leaves `feedId` null) so that the same calendar added again,
-- to the room or to its group, adopts the reservation instead of making a second one.

ALTER TABLE "CalendarFeedBooking" DROP CONSTRAINT "CalendarFeedBooking_hotelId_feedId_fkey";
DROP INDEX "CalendarFeedBooking_feedId_uid_key";

ALTER TABLE "StayGuest" ADD COLUMN "phoneTail" VARCHAR(8);
ALTER TABLE "CalendarFeed" ADD COLUMN "lastReadReport" JSONB;
ALTER TABLE "CalendarFeedBooking" ADD COLUMN "recurrenceId" VARCHAR(32) NOT NULL DEFAULT '',
ALTER COLUMN "feedId" DROP NOT NULL;

CREATE INDEX "CalendarFeedBooking_feedId_state_idx" ON "CalendarFeedBooking"("feedId", "state");
CREATE INDEX "CalendarFeedBooking_hotelId_uid_idx" ON "CalendarFeedBooking"("hotelId", "uid");

ALTER TABLE "CalendarFeedBooking" ADD CONSTRAINT "CalendarFeedBooking_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "CalendarFeedBooking" ADD CONSTRAINT "CalendarFeedBooking_feedId_fkey" FOREIGN KEY ("feedId") REFERENCES "CalendarFeed"("id") ON DELETE SET NULL ON UPDATE CASCADE;

ALTER TABLE "CalendarFeedBooking" DROP CONSTRAINT "CalendarFeedBooking_state";
ALTER TABLE "CalendarFeedBooking" ADD CONSTRAINT "CalendarFeedBooking_state"
  CHECK ("state" IN ('booked', 'conflict', 'cancelled', 'past', 'moved_in_house', 'gone_in_house', 'duplicate'));

-- The second (third...) rows of one booking made before this change, in two feeds of the hotel: the
-- first live one stays the booking; the others become `duplicate` (their stays are left as they are
-- and shown on their feed for the desk to cancel), so the identity below holds.
UPDATE "CalendarFeedBooking" b SET "state" = 'duplicate'
FROM (
  SELECT "id", row_number() OVER (
    PARTITION BY "hotelId", "uid", "recurrenceId"
    ORDER BY ("state" IN ('booked', 'conflict', 'moved_in_house', 'gone_in_house')) DESC, "id"
  ) AS n
  FROM "CalendarFeedBooking"
) d
WHERE d."id" = b."id" AND d.n > 1;

-- One booking per identity in the hotel (a partial index Prisma cannot express).
CREATE UNIQUE INDEX "CalendarFeedBooking_identity_key" ON "CalendarFeedBooking"("hotelId", "uid", "recurrenceId") WHERE "state" <> 'duplicate';
