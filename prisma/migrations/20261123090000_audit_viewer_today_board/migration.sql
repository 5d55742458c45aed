-- The audit log viewer and the today board (issue 9 §6).

-- The job that acted (AuditLog.actorType = 'job'), as the viewer names it.
ALTER TABLE "AuditLog" ADD COLUMN     "actorJob" TEXT;

-- The viewer's target filter: one entity's history, newest first.
CREATE INDEX "AuditLog_hotelId_entityType_entityId_createdAt_idx" ON "AuditLog"("hotelId", "entityType", "entityId", "createdAt");

-- The viewer's action filter: an action and every action under it (`room` is `room` and `room.*`),
-- found as a range of the index. In the C collation, the actions starting with `room.` are exactly
-- those from `room.` up to `room/` (the next character); other collations may order punctuation
-- differently, so the index and the query both say COLLATE "C". (Hand-written: Prisma cannot.)
CREATE INDEX "AuditLog_hotel_action_c_idx" ON "AuditLog"("hotelId", "action" COLLATE "C", "createdAt");

-- The today board: the day's check-outs and breakfasts among years of past stays.
CREATE INDEX "Stay_hotelId_checkedOutAt_idx" ON "Stay"("hotelId", "checkedOutAt");

-- The today board: credentials whose delivery to their lock failed, per hotel and room (few rows;
-- the other states are most of each table). Hand-written: partial indexes.
CREATE INDEX "LockPassword_delivery_failed_idx" ON "LockPassword"("hotelId", "roomId") WHERE "deliveryState" IN ('failed', 'remove_failed');
CREATE INDEX "FaceAuthorization_delivery_failed_idx" ON "FaceAuthorization"("hotelId", "roomId") WHERE "deliveryState" IN ('failed', 'remove_failed');
CREATE INDEX "CardGrant_delivery_failed_idx" ON "CardGrant"("hotelId", "roomId") WHERE "deliveryState" IN ('failed', 'remove_failed');
