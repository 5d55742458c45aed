-- The door as a lock's own sensor says it in a status read (issue 38: Seam's `properties.door_open`), and
-- since when it has stood open, for the room's "door opened", "door closed" and "door left open".
ALTER TABLE "Lock" ADD COLUMN "doorOpen" BOOLEAN;
ALTER TABLE "Lock" ADD COLUMN "doorOpenSince" TIMESTAMPTZ(3);
