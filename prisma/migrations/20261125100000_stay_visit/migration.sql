-- Issue 17: every stay names the first stay of its visit. A room change ends a stay and continues
-- the guest's visit in a new one (movedFromStayId); the visit's bill (Folio) belongs to its first
-- stay. With the first stay on every row, a stay's bill is one join away (the room board's "due"
-- mark, the guest list's balance, loadVisit), instead of a walk along movedFromStayId.
--
-- The database sets it on insert (itself, or the visit of the stay it was moved from) and keeps it
-- from being changed: no code path writes it.

ALTER TABLE "Stay" ADD COLUMN "visitStayId" INTEGER NOT NULL DEFAULT 0;

WITH RECURSIVE visit AS (
  SELECT s."id", s."id" AS "first" FROM "Stay" s WHERE s."movedFromStayId" IS NULL
  UNION ALL
  SELECT s."id", v."first" FROM "Stay" s JOIN visit v ON s."movedFromStayId" = v."id"
)
UPDATE "Stay" s SET "visitStayId" = visit."first" FROM visit WHERE visit."id" = s."id";

CREATE INDEX "Stay_hotelId_visitStayId_idx" ON "Stay"("hotelId", "visitStayId");

CREATE FUNCTION "Stay_visit"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    NEW."visitStayId" := OLD."visitStayId";
    RETURN NEW;
  END IF;
  NEW."visitStayId" := NEW."id";
  IF NEW."movedFromStayId" IS NOT NULL THEN
    SELECT p."visitStayId" INTO NEW."visitStayId" FROM "Stay" p WHERE p."hotelId" = NEW."hotelId" AND p."id" = NEW."movedFromStayId";
    IF NOT FOUND THEN
      RAISE EXCEPTION 'constraint "Stay_visit": stay % is not a stay of hotel %', NEW."movedFromStayId", NEW."hotelId" USING ERRCODE = 'check_violation';
    END IF;
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "Stay_visit" BEFORE INSERT OR UPDATE OF "visitStayId" ON "Stay" FOR EACH ROW EXECUTE FUNCTION "Stay_visit"();
