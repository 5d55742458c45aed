-- The audit log viewer's filters over a large log (issue 9 §8, bench/audit-log.ts: 2,000,000 entries).
--
-- A page filtered by who acted (an account, or the kind of actor) or by the face it came through
-- walks one of these backwards in time and stops after the page; each ends with the id, the page's
-- exact order (newest first, then the higher id), so the page's ids are read from the index alone.
-- The total (counted up to 1,000 on the first pages, 10,000 after them) is read from the index
-- alone too, also when an action (`room`, and every `room.*`) or a face narrows the filter further:
-- those columns are carried in the index (INCLUDE), so the entries that do not match are skipped
-- without reading the table.
-- Without them a filter by actor or face walked the hotel's whole log by time and read every entry
-- to test it (80 to 340 ms at p50 for a filter matching 3 to 10 % of the log), and a face and an
-- action together read 40,000 entries of the table to count the first 10,000.
-- Hand-written (INCLUDE): see HAND_WRITTEN_INDEXES of migrations.integration.test.ts.
CREATE INDEX "AuditLog_hotel_actor_account_idx" ON "AuditLog"("hotelId", "actorAccountId", "createdAt", "id") INCLUDE ("action", "channel");

CREATE INDEX "AuditLog_hotel_actor_type_idx" ON "AuditLog"("hotelId", "actorType", "createdAt", "id") INCLUDE ("action", "channel");

CREATE INDEX "AuditLog_hotel_channel_idx" ON "AuditLog"("hotelId", "channel", "createdAt", "id") INCLUDE ("action", "actorType", "actorAccountId");
