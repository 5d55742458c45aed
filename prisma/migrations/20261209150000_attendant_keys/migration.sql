-- Keys that follow the rota (issue 28 §2, docs/housekeeping-keys.md, decision 051): a lock password
-- issued to a housekeeping attendant for one hotel day names the attendant (their Membership) and
-- the day. The delivery engine carries it like any other password; the rota decides which rooms'
-- locks hold it and for which hours (the attendant's shift).

ALTER TABLE "LockPassword" ADD COLUMN "attendantId" INTEGER,
ADD COLUMN "attendantDay" DATE;

-- No foreign key to Membership, as `accountId` has none: removing a member deletes their shifts
-- (cascade), and the rota's sweep then withdraws what their codes still hold on the locks; the row
-- stays for the delivery engine and the room's history (its holder's name is on it).

-- An attendant's password is nobody's stay's, and always names its day.
ALTER TABLE "LockPassword" ADD CONSTRAINT "LockPassword_attendant_check"
  CHECK ("attendantId" IS NULL OR ("stayId" IS NULL AND "attendantDay" IS NOT NULL AND "doorLockId" IS NULL));

-- One live password per attendant, day and room: two syncs of the rota at once issue it once.
CREATE UNIQUE INDEX "LockPassword_live_attendant_key" ON "LockPassword"("hotelId", "attendantId", "attendantDay", "roomId")
  WHERE "attendantId" IS NOT NULL AND "deliveryState" IN ('pending', 'on_lock', 'failed', 'unknown');

CREATE INDEX "LockPassword_attendant_idx" ON "LockPassword"("hotelId", "attendantDay", "attendantId") WHERE "attendantId" IS NOT NULL;
