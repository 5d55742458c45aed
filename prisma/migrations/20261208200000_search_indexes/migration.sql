-- The search box (issue 28 §3, docs/decisions/045-search.md): a substring of a guest's name, mobile
-- (a mobile's last digits) or ID number, of a card's number or UID, and of a channel booking's UID or
-- reference, found through trigram indexes (pg_trgm, created by 20261122100000_room_board_counts)
-- instead of reading every guest of the hotel. gin_trgm_ops answers LIKE and ILIKE alike, which is
-- what Prisma's `contains` (db/search.ts) sends. Texts of fewer than three characters cannot use
-- them; the search's LIMIT bounds those.
CREATE INDEX "StayGuest_name_trgm_idx" ON "StayGuest" USING gin ("name" gin_trgm_ops);
CREATE INDEX "StayGuest_mobile_trgm_idx" ON "StayGuest" USING gin ("mobile" gin_trgm_ops);
CREATE INDEX "StayGuest_idNumber_trgm_idx" ON "StayGuest" USING gin ("idNumber" gin_trgm_ops);
CREATE INDEX "Card_cardNumber_trgm_idx" ON "Card" USING gin ("cardNumber" gin_trgm_ops);
CREATE INDEX "Card_uid_trgm_idx" ON "Card" USING gin ("uid" gin_trgm_ops);
CREATE INDEX "CalendarFeedBooking_uid_trgm_idx" ON "CalendarFeedBooking" USING gin ("uid" gin_trgm_ops);
CREATE INDEX "CalendarFeedBooking_reference_trgm_idx" ON "CalendarFeedBooking" USING gin ("reference" gin_trgm_ops);
