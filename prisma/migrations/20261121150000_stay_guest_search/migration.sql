-- The room board searches the guests of active stays. Each stay keeps the lower-cased names and
-- mobiles of its guests in one column, maintained here by the database on every change of
-- StayGuest, so the search reads one column of a few thousand active stays. Column drafted with
-- `schema:draft -- HEAD`; the functions and triggers are hand-written.

-- AlterTable
ALTER TABLE "Stay" ADD COLUMN     "guestSearch" TEXT NOT NULL DEFAULT '';

-- The guests of one stay, found through the ("hotelId", "stayId") index.
CREATE FUNCTION "Stay_guest_search_of"(hotel_id integer, stay_id integer) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT coalesce(string_agg(lower(g."name") || coalesce(' ' || g."mobile", ''), ' ' ORDER BY g."id"), '')
  FROM "StayGuest" g WHERE g."hotelId" = hotel_id AND g."stayId" = stay_id
$$;

-- INSERT and DELETE name their transition table "changed"; UPDATE sees both versions.
CREATE FUNCTION "StayGuest_refresh_search"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "Stay" s SET "guestSearch" = "Stay_guest_search_of"(c."hotelId", c."stayId")
  FROM (SELECT DISTINCT "hotelId", "stayId" FROM changed) c
  WHERE s."id" = c."stayId";
  RETURN NULL;
END;
$$;

CREATE FUNCTION "StayGuest_refresh_search_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "Stay" s SET "guestSearch" = "Stay_guest_search_of"(c."hotelId", c."stayId")
  FROM (SELECT "hotelId", "stayId" FROM old_rows UNION SELECT "hotelId", "stayId" FROM new_rows) c
  WHERE s."id" = c."stayId";
  RETURN NULL;
END;
$$;

CREATE TRIGGER "StayGuest_search_insert" AFTER INSERT ON "StayGuest"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "StayGuest_refresh_search"();
CREATE TRIGGER "StayGuest_search_delete" AFTER DELETE ON "StayGuest"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "StayGuest_refresh_search"();
CREATE TRIGGER "StayGuest_search_update" AFTER UPDATE ON "StayGuest"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "StayGuest_refresh_search_update"();

UPDATE "Stay" s SET "guestSearch" = "Stay_guest_search_of"(s."hotelId", s."id");
