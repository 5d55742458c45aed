-- The room board finds each room's lock by the hotel and the provider's lock id.
CREATE INDEX "Lock_hotelId_providerLockId_idx" ON "Lock"("hotelId", "providerLockId");
