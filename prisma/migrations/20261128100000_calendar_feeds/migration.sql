-- Bookings from channel calendars (issue 20 §1, docs/calendar-feeds.md): a feed per room or room
-- group, the bookings read from it (one row per feed and event UID: a second read, or two reads at
-- the same moment, find the row and never make a second reservation), and each room's export
-- token. Tables, indexes and keys drafted with `schema:draft -- HEAD`; the checks are hand-written.

-- CreateTable
CREATE TABLE "CalendarFeed" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "roomId" INTEGER,
    "groupId" INTEGER,
    "label" VARCHAR(64) NOT NULL,
    "url" VARCHAR(2048) NOT NULL,
    "everyMinutes" INTEGER NOT NULL DEFAULT 15,
    "nextReadAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastReadAt" TIMESTAMPTZ(3),
    "lastError" VARCHAR(200),
    "lastErrorAt" TIMESTAMPTZ(3),
    "lastEventCount" INTEGER,
    "emptyPending" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "CalendarFeed_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CalendarFeedBooking" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "feedId" INTEGER NOT NULL,
    "uid" VARCHAR(512) NOT NULL,
    "stayId" INTEGER,
    "state" VARCHAR(16) NOT NULL,
    "reference" VARCHAR(200) NOT NULL,
    "guestName" VARCHAR(200) NOT NULL,
    "phone" VARCHAR(40),
    "startsAt" TIMESTAMPTZ(3) NOT NULL,
    "endsAt" TIMESTAMPTZ(3) NOT NULL,
    "conflictStayId" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "CalendarFeedBooking_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RoomCalendarExport" (
    "roomId" INTEGER NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "token" VARCHAR(64) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RoomCalendarExport_pkey" PRIMARY KEY ("roomId")
);

-- CreateIndex
CREATE INDEX "CalendarFeed_hotelId_roomId_idx" ON "CalendarFeed"("hotelId", "roomId");

-- CreateIndex
CREATE INDEX "CalendarFeed_hotelId_groupId_idx" ON "CalendarFeed"("hotelId", "groupId");

-- CreateIndex
CREATE INDEX "CalendarFeed_nextReadAt_idx" ON "CalendarFeed"("nextReadAt");

-- CreateIndex
CREATE UNIQUE INDEX "CalendarFeed_hotelId_id_key" ON "CalendarFeed"("hotelId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "CalendarFeedBooking_stayId_key" ON "CalendarFeedBooking"("stayId");

-- CreateIndex
CREATE UNIQUE INDEX "CalendarFeedBooking_feedId_uid_key" ON "CalendarFeedBooking"("feedId", "uid");

-- CreateIndex
CREATE UNIQUE INDEX "RoomCalendarExport_token_key" ON "RoomCalendarExport"("token");

-- CreateIndex
CREATE UNIQUE INDEX "RoomCalendarExport_hotelId_roomId_key" ON "RoomCalendarExport"("hotelId", "roomId");

-- AddForeignKey
ALTER TABLE "CalendarFeed" ADD CONSTRAINT "CalendarFeed_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CalendarFeed" ADD CONSTRAINT "CalendarFeed_hotelId_roomId_fkey" FOREIGN KEY ("hotelId", "roomId") REFERENCES "Room"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CalendarFeed" ADD CONSTRAINT "CalendarFeed_hotelId_groupId_fkey" FOREIGN KEY ("hotelId", "groupId") REFERENCES "RoomGroup"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CalendarFeedBooking" ADD CONSTRAINT "CalendarFeedBooking_hotelId_feedId_fkey" FOREIGN KEY ("hotelId", "feedId") REFERENCES "CalendarFeed"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CalendarFeedBooking" ADD CONSTRAINT "CalendarFeedBooking_stayId_fkey" FOREIGN KEY ("stayId") REFERENCES "Stay"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RoomCalendarExport" ADD CONSTRAINT "RoomCalendarExport_hotelId_roomId_fkey" FOREIGN KEY ("hotelId", "roomId") REFERENCES "Room"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------------
-- Hand-written from here.

ALTER TABLE "CalendarFeed" ADD CONSTRAINT "CalendarFeed_room_or_group" CHECK (("roomId" IS NULL) <> ("groupId" IS NULL));
ALTER TABLE "CalendarFeed" ADD CONSTRAINT "CalendarFeed_every" CHECK ("everyMinutes" BETWEEN 5 AND 1440);
ALTER TABLE "CalendarFeed" ADD CONSTRAINT "CalendarFeed_url" CHECK ("url" ~ '^https?://');
ALTER TABLE "CalendarFeedBooking" ADD CONSTRAINT "CalendarFeedBooking_state" CHECK ("state" IN ('booked', 'conflict', 'cancelled', 'past'));
