-- Reservations at the desk (issue 17 §4, docs/room-status.md "Reservations"). A reservation taken at
-- the desk waits for its guest (`awaitsArrival`): it begins when the desk records the arrival, or
-- becomes a no-show at `noShowAt` (the hotel's `noShowTime`), releasing the room; a cancellation
-- keeps its reason (a code) and note. A room is "reserved" tonight only for a reservation whose
-- arrival day has come (`arrivalDue`, kept by the trigger below and by the `due` job at the
-- hotel's midnight): a room reserved from tomorrow is free tonight. Columns, enum value and
-- indexes drafted with `schema:draft -- HEAD`; the functions, triggers and backfill are hand-written.

-- AlterEnum
ALTER TYPE "StayStatus" ADD VALUE 'no_show';

-- AlterTable
ALTER TABLE "Hotel" ADD COLUMN     "noShowTime" VARCHAR(5) NOT NULL DEFAULT '00:00';

-- AlterTable
ALTER TABLE "Stay" ADD COLUMN     "arrivalDue" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "awaitsArrival" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "cancelNote" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "cancelReason" VARCHAR(32),
ADD COLUMN     "noShowAt" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "Stay_hotelId_status_arrivalDue_checkInAt_idx" ON "Stay"("hotelId", "status", "arrivalDue", "checkInAt");

-- CreateIndex
CREATE INDEX "Stay_status_awaitsArrival_noShowAt_idx" ON "Stay"("status", "awaitsArrival", "noShowAt");

-- ---------------------------------------------------------------------------------------------
-- Hand-written from here.

ALTER TABLE "Hotel" ADD CONSTRAINT "Hotel_no_show_time" CHECK ("noShowTime" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$');
-- A no-show time belongs to a reservation that awaits its guest.
ALTER TABLE "Stay" ADD CONSTRAINT "Stay_no_show_awaits" CHECK ("noShowAt" IS NULL OR "awaitsArrival");

-- 1. The end of the calendar day that `at` falls in, in a hotel's time zone (the next midnight
--    there): the rule `hotelDayEnd` of packages/shared, in SQL.
CREATE FUNCTION "Hotel_day_end"(time_zone text, at timestamptz) RETURNS timestamptz LANGUAGE sql STABLE AS $$
  SELECT ((date_trunc('day', at AT TIME ZONE time_zone) + interval '1 day') AT TIME ZONE time_zone)
$$;

-- 2. Whether a reservation's arrival day has come, at every write of its state, check-in time or
--    flag (the `due` job sets the flag at the hotel's midnight; this decides whether it holds).
--    Only a reserved stay is due.
CREATE FUNCTION "Stay_arrival_due"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."status" = 'reserved' THEN
    NEW."arrivalDue" := NEW."checkInAt" < (SELECT "Hotel_day_end"(h."timeZone", now()) FROM "Hotel" h WHERE h."id" = NEW."hotelId");
  ELSE
    NEW."arrivalDue" := false;
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "Stay_arrival_due" BEFORE INSERT OR UPDATE OF "status", "checkInAt", "arrivalDue", "hotelId" ON "Stay"
  FOR EACH ROW EXECUTE FUNCTION "Stay_arrival_due"();

-- 3. A room counts its reservations that are due (migration 20261122100000 counted every one):
--    +1/-1 when a stay's state, room or due flag changes.
CREATE OR REPLACE FUNCTION "Stay_room_occupancy"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_in integer := 0;
  old_res integer := 0;
  new_in integer := 0;
  new_res integer := 0;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    old_in := (OLD."status" IN ('in_house', 'expired'))::integer;
    old_res := (OLD."status" = 'reserved' AND OLD."arrivalDue")::integer;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    new_in := (NEW."status" IN ('in_house', 'expired'))::integer;
    new_res := (NEW."status" = 'reserved' AND NEW."arrivalDue")::integer;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD."roomId" = NEW."roomId" THEN
    IF new_in <> old_in OR new_res <> old_res THEN
      UPDATE "Room" SET "inHouseStays" = "inHouseStays" + new_in - old_in, "reservedStays" = "reservedStays" + new_res - old_res
      WHERE "id" = NEW."roomId";
    END IF;
    RETURN NULL;
  END IF;
  IF old_in + old_res > 0 THEN
    UPDATE "Room" SET "inHouseStays" = "inHouseStays" - old_in, "reservedStays" = "reservedStays" - old_res WHERE "id" = OLD."roomId";
  END IF;
  IF new_in + new_res > 0 THEN
    UPDATE "Room" SET "inHouseStays" = "inHouseStays" + new_in, "reservedStays" = "reservedStays" + new_res WHERE "id" = NEW."roomId";
  END IF;
  RETURN NULL;
END;
$$;

DROP TRIGGER "Stay_room_occupancy_update" ON "Stay";
CREATE TRIGGER "Stay_room_occupancy_update" AFTER UPDATE ON "Stay"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."roomId" IS DISTINCT FROM NEW."roomId" OR OLD."arrivalDue" IS DISTINCT FROM NEW."arrivalDue")
  EXECUTE FUNCTION "Stay_room_occupancy"();

-- 4. Backfill: the reservations due now (the trigger of section 2 decides), then every room's
--    count of due reservations from scratch (the room's trigger sets its status and counts).
UPDATE "Stay" SET "arrivalDue" = true WHERE "status" = 'reserved';
UPDATE "Room" r SET "reservedStays" = (SELECT count(*) FROM "Stay" s WHERE s."hotelId" = r."hotelId" AND s."roomId" = r."id" AND s."status" = 'reserved' AND s."arrivalDue")
WHERE r."reservedStays" <> (SELECT count(*) FROM "Stay" s WHERE s."hotelId" = r."hotelId" AND s."roomId" = r."id" AND s."status" = 'reserved' AND s."arrivalDue");
