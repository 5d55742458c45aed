-- The room board without recounting the hotel (issue 6 §7, docs/decisions/008-room-board-counts-kept-by-the-database.md).
-- Each room keeps, written by the database only, how many of its active stays are in house (or
-- expired) and how many are reserved, the status these give with its maintenance and cleanliness
-- (the precedence of docs/room-status.md), and its group's sort and name (the board's default
-- order, now one index). A log of +1/-1 rows per hotel, group and status, folded every so often,
-- holds the counts the board shows. Columns, enum, table and indexes drafted with
-- `schema:draft -- HEAD`; the functions, triggers and backfill below are hand-written.

-- CreateEnum
CREATE TYPE "RoomStatus" AS ENUM ('vacant', 'reserved', 'checked_in', 'dirty', 'maintain');

-- DropIndex
DROP INDEX "Room_hotelId_sortOrder_idx";

-- DropIndex
DROP INDEX "Room_hotelId_groupId_idx";

-- AlterTable
ALTER TABLE "Room" ADD COLUMN     "groupName" TEXT,
ADD COLUMN     "groupSort" INTEGER,
ADD COLUMN     "inHouseStays" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "reservedStays" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "status" "RoomStatus" NOT NULL DEFAULT 'vacant';

-- CreateTable
CREATE TABLE "RoomStatusCount" (
    "id" BIGSERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "groupId" INTEGER,
    "status" "RoomStatus" NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "RoomStatusCount_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RoomStatusCount_hotelId_groupId_idx" ON "RoomStatusCount"("hotelId", "groupId");

-- CreateIndex
CREATE INDEX "Room_hotelId_sortOrder_name_id_idx" ON "Room"("hotelId", "sortOrder", "name", "id");

-- CreateIndex
CREATE INDEX "Room_hotelId_groupId_sortOrder_name_id_idx" ON "Room"("hotelId", "groupId", "sortOrder", "name", "id");

-- CreateIndex
CREATE INDEX "Room_hotelId_groupSort_groupName_sortOrder_name_id_idx" ON "Room"("hotelId", "groupSort", "groupName", "sortOrder", "name", "id");

-- CreateIndex
CREATE INDEX "Room_hotelId_status_groupSort_groupName_sortOrder_name_id_idx" ON "Room"("hotelId", "status", "groupSort", "groupName", "sortOrder", "name", "id");

-- CreateIndex
CREATE INDEX "Room_hotelId_status_name_idx" ON "Room"("hotelId", "status", "name");

-- CreateIndex
CREATE INDEX "Room_hotelId_status_sortOrder_name_id_idx" ON "Room"("hotelId", "status", "sortOrder", "name", "id");

-- CreateIndex
CREATE INDEX "Stay_hotelId_status_checkInAt_idx" ON "Stay"("hotelId", "status", "checkInAt");

-- ---------------------------------------------------------------------------------------------
-- Hand-written from here.

-- 1. A room's own board columns, before every write of the room. The status rule is the one of
--    docs/room-status.md over the stored stay states (the board corrects, per request, the rooms
--    whose stays the clock has overtaken: modules/room/room-status.ts). The group's sort and name
--    are read when the group changes (or on insert); FOR SHARE waits for a rename in progress, so
--    a room moved into a group being renamed gets the new name.
CREATE FUNCTION "Room_board_columns"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  read_group boolean := true;
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW."inHouseStays" := 0;
    NEW."reservedStays" := 0;
  ELSE
    read_group := NEW."groupId" IS DISTINCT FROM OLD."groupId"
      OR NEW."groupSort" IS DISTINCT FROM OLD."groupSort" OR NEW."groupName" IS DISTINCT FROM OLD."groupName";
  END IF;
  IF read_group THEN
    IF NEW."groupId" IS NULL THEN
      NEW."groupSort" := NULL;
      NEW."groupName" := NULL;
    ELSE
      SELECT g."sort", g."name" INTO NEW."groupSort", NEW."groupName" FROM "RoomGroup" g WHERE g."id" = NEW."groupId" FOR SHARE;
    END IF;
  END IF;
  NEW."status" := CASE
    WHEN NEW."inHouseStays" > 0 THEN 'checked_in'
    WHEN NEW."maintenance" <> 'none' THEN 'maintain'
    WHEN NEW."reservedStays" > 0 THEN 'reserved'
    WHEN NEW."cleanStatus" = 'dirty' THEN 'dirty'
    ELSE 'vacant'
  END::"RoomStatus";
  RETURN NEW;
END;
$$;

CREATE TRIGGER "Room_board_columns" BEFORE INSERT OR UPDATE ON "Room"
  FOR EACH ROW EXECUTE FUNCTION "Room_board_columns"();

-- 2. Backfill: every room's stays and group (the trigger above computes the status).
UPDATE "Room" r SET
  "inHouseStays" = (SELECT count(*) FROM "Stay" s WHERE s."hotelId" = r."hotelId" AND s."roomId" = r."id" AND s."status" IN ('in_house', 'expired')),
  "reservedStays" = (SELECT count(*) FROM "Stay" s WHERE s."hotelId" = r."hotelId" AND s."roomId" = r."id" AND s."status" = 'reserved'),
  "groupSort" = (SELECT g."sort" FROM "RoomGroup" g WHERE g."id" = r."groupId"),
  "groupName" = (SELECT g."name" FROM "RoomGroup" g WHERE g."id" = r."groupId");

INSERT INTO "RoomStatusCount" ("hotelId", "groupId", "status", "n")
SELECT "hotelId", "groupId", "status", count(*) FROM "Room" WHERE "deletedAt" IS NULL GROUP BY 1, 2, 3;

-- 3. Stays move a room's counts of active stays: +1 or -1 by stored state, under the room's row
--    lock (an increment is applied to the latest version of the row, so concurrent stays of one
--    room add up). Only changes of state or room matter; an in-house stay that expires, or an
--    expired one renewed, leaves the room as it is.
CREATE FUNCTION "Stay_room_occupancy"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_in integer := 0;
  old_res integer := 0;
  new_in integer := 0;
  new_res integer := 0;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    old_in := (OLD."status" IN ('in_house', 'expired'))::integer;
    old_res := (OLD."status" = 'reserved')::integer;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    new_in := (NEW."status" IN ('in_house', 'expired'))::integer;
    new_res := (NEW."status" = 'reserved')::integer;
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

CREATE TRIGGER "Stay_room_occupancy_insert" AFTER INSERT ON "Stay"
  FOR EACH ROW WHEN (NEW."status" IN ('reserved', 'in_house', 'expired')) EXECUTE FUNCTION "Stay_room_occupancy"();
CREATE TRIGGER "Stay_room_occupancy_update" AFTER UPDATE ON "Stay"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."roomId" IS DISTINCT FROM NEW."roomId") EXECUTE FUNCTION "Stay_room_occupancy"();
CREATE TRIGGER "Stay_room_occupancy_delete" AFTER DELETE ON "Stay"
  FOR EACH ROW WHEN (OLD."status" IN ('reserved', 'in_house', 'expired')) EXECUTE FUNCTION "Stay_room_occupancy"();

-- 4. The counts: a room that changes status or group, is created, deleted (softly or not) adds
--    -1 for where it was counted and +1 for where it is now. Rows are only ever inserted by
--    writers, so concurrent check-ins never wait on one another here and cannot deadlock; every
--    128th row (by id, written by a transaction that logged at most 32) folds the hotel's rows into
--    one per group and status (one transaction at a time per hotel, the others skip it:
--    pg_try_advisory_xact_lock, keys 8 and the hotel). The function can also be called by hand:
--    SELECT "RoomStatusCount_fold"(hotel id). The log has no
--    foreign key to Hotel: checking one on every row made a check-in cycle 12% slower (every
--    transaction of a hotel share-locking the same Hotel row); a deleted hotel's rows go with it
--    through a trigger instead.
CREATE FUNCTION "RoomStatusCount_fold"(hotel_id integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- Folding deletes rows others may have folded a moment ago: safe only where each statement sees
  -- the latest commits (the console's transactions all run in READ COMMITTED).
  IF current_setting('transaction_isolation') <> 'read committed' OR NOT pg_try_advisory_xact_lock(8, hotel_id) THEN
    RETURN;
  END IF;
  WITH gone AS (DELETE FROM "RoomStatusCount" WHERE "hotelId" = hotel_id RETURNING "groupId", "status", "n")
  INSERT INTO "RoomStatusCount" ("hotelId", "groupId", "status", "n")
  SELECT hotel_id, "groupId", "status", sum("n") FROM gone GROUP BY "groupId", "status" HAVING sum("n") <> 0;
END;
$$;

CREATE FUNCTION "Room_count_status"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was_counted boolean := false;
  is_counted boolean := false;
  hotel_id integer;
  written integer;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    was_counted := OLD."deletedAt" IS NULL;
    hotel_id := OLD."hotelId";
  END IF;
  IF TG_OP <> 'DELETE' THEN
    is_counted := NEW."deletedAt" IS NULL;
    hotel_id := NEW."hotelId";
  END IF;
  IF NOT (was_counted OR is_counted) THEN
    RETURN NULL;
  END IF;
  -- The rooms of a hotel being deleted leave no counts behind (nor does the hotel: section 5).
  IF NOT EXISTS (SELECT 1 FROM "Hotel" h WHERE h."id" = hotel_id) THEN
    RETURN NULL;
  END IF;
  IF was_counted AND is_counted THEN
    INSERT INTO "RoomStatusCount" ("hotelId", "groupId", "status", "n")
    VALUES (OLD."hotelId", OLD."groupId", OLD."status", -1), (NEW."hotelId", NEW."groupId", NEW."status", 1);
  ELSIF was_counted THEN
    INSERT INTO "RoomStatusCount" ("hotelId", "groupId", "status", "n") VALUES (OLD."hotelId", OLD."groupId", OLD."status", -1);
  ELSE
    INSERT INTO "RoomStatusCount" ("hotelId", "groupId", "status", "n") VALUES (NEW."hotelId", NEW."groupId", NEW."status", 1);
  END IF;
  -- Rows this transaction has logged. A transaction that writes many rooms (an import, a group
  -- of thousands moved) does not fold: folding again and again inside it would rescan its own
  -- deleted rows, which only its end frees. The next small transaction folds them.
  written := coalesce(nullif(current_setting('room_board.logged', true), ''), '0')::integer + (was_counted::integer + is_counted::integer);
  PERFORM set_config('room_board.logged', written::text, true);
  IF written <= 32 AND currval('"RoomStatusCount_id_seq"') % 128 < 2 THEN
    PERFORM "RoomStatusCount_fold"(hotel_id);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "Room_count_status_insert" AFTER INSERT ON "Room"
  FOR EACH ROW EXECUTE FUNCTION "Room_count_status"();
CREATE TRIGGER "Room_count_status_update" AFTER UPDATE ON "Room"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."groupId" IS DISTINCT FROM NEW."groupId"
    OR (OLD."deletedAt" IS NULL) <> (NEW."deletedAt" IS NULL) OR OLD."hotelId" <> NEW."hotelId")
  EXECUTE FUNCTION "Room_count_status"();
CREATE TRIGGER "Room_count_status_delete" AFTER DELETE ON "Room"
  FOR EACH ROW EXECUTE FUNCTION "Room_count_status"();

CREATE FUNCTION "Hotel_drop_room_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "RoomStatusCount" WHERE "hotelId" = OLD."id";
  RETURN NULL;
END;
$$;

CREATE TRIGGER "Hotel_drop_room_counts" AFTER DELETE ON "Hotel"
  FOR EACH ROW EXECUTE FUNCTION "Hotel_drop_room_counts"();

-- 5. A group renamed or re-sorted carries its new name and sort to its rooms.
CREATE FUNCTION "RoomGroup_copy_to_rooms"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "Room" SET "groupSort" = NEW."sort", "groupName" = NEW."name" WHERE "hotelId" = NEW."hotelId" AND "groupId" = NEW."id";
  RETURN NULL;
END;
$$;

CREATE TRIGGER "RoomGroup_copy_to_rooms" AFTER UPDATE ON "RoomGroup"
  FOR EACH ROW WHEN (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."sort" IS DISTINCT FROM NEW."sort")
  EXECUTE FUNCTION "RoomGroup_copy_to_rooms"();

-- 6. Search from 3 characters on: trigram indexes on the lower-cased room name and remark name,
--    and on the guest search text of active stays (pg_trgm is in PostgreSQL's contrib, trusted:
--    a database owner may create it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "Room_name_trgm_idx" ON "Room" USING gin (lower("name") gin_trgm_ops);
CREATE INDEX "Room_remarkName_trgm_idx" ON "Room" USING gin (lower("remarkName") gin_trgm_ops);
CREATE INDEX "Stay_guestSearch_trgm_idx" ON "Stay" USING gin ("guestSearch" gin_trgm_ops) WHERE "status" IN ('reserved', 'in_house', 'expired');
