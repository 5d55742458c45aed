-- The today board (board.today): the hotel's active stays (reserved, in house, expired) with what
-- its figures read of them, so that they come from this small index alone (an index-only scan of a
-- few thousand entries on a 10,000-room hotel, where the (hotelId, status) index visited each
-- stay's row: bench/today-board.ts). Hand-written: Prisma cannot express INCLUDE with a WHERE.
CREATE INDEX "Stay_active_day_idx" ON "Stay"("hotelId", "checkInAt") INCLUDE ("expectedCheckOutAt", "checkedOutAt", "roomId", "breakfast", "id")
  WHERE "status" IN ('reserved', 'in_house', 'expired');
