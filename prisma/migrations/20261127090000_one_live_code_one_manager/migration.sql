-- Issue 18 §1: two identical requests at the same moment each passed the service's check and both
-- inserted: two live custom passwords with one code on one room's lock (the lock refuses the
-- second, the console showed both), and two lock managers for one person. The check and the insert
-- are now one step: the database refuses the second row (a unique violation, answered as a
-- translated conflict), and the service's check stays for its field-named message. Hand-written
-- (Prisma cannot express a partial index; apps/server/src/db/migrations.integration.test.ts lists them).

-- Rows an earlier race left: the newer duplicate of a live custom code is marked failed with the
-- reason the service gives (the lock holds one code once, so it never held the second).
UPDATE "LockPassword" p SET "deliveryState" = 'failed', "lastError" = 'duplicate_code', "updatedAt" = now()
WHERE p."kind" = 'custom' AND p."code" IS NOT NULL AND p."deliveryState" IN ('pending', 'on_lock', 'unknown')
  AND EXISTS (
    SELECT 1 FROM "LockPassword" o
    WHERE o."roomId" = p."roomId" AND o."code" = p."code" AND o."kind" = 'custom' AND o."id" < p."id"
      AND o."deliveryState" IN ('pending', 'on_lock', 'unknown'));

-- One live custom code per room's lock (the states the service's check counts as live).
CREATE UNIQUE INDEX "LockPassword_live_code_key" ON "LockPassword"("roomId", "code") WHERE "kind" = 'custom' AND "code" IS NOT NULL AND "deliveryState" IN ('pending', 'on_lock', 'unknown');

-- A lock manager is one person per room: a member once, someone outside the hotel once per name and phone.
DELETE FROM "LockManager" m WHERE m."accountId" IS NOT NULL AND EXISTS (
  SELECT 1 FROM "LockManager" o WHERE o."roomId" = m."roomId" AND o."accountId" = m."accountId" AND o."id" < m."id");
DELETE FROM "LockManager" m WHERE m."accountId" IS NULL AND EXISTS (
  SELECT 1 FROM "LockManager" o WHERE o."roomId" = m."roomId" AND o."accountId" IS NULL AND o."name" = m."name" AND o."mobile" = m."mobile" AND o."id" < m."id");
CREATE UNIQUE INDEX "LockManager_member_key" ON "LockManager"("roomId", "accountId") WHERE "accountId" IS NOT NULL;
CREATE UNIQUE INDEX "LockManager_person_key" ON "LockManager"("roomId", "name", "mobile") WHERE "accountId" IS NULL;
