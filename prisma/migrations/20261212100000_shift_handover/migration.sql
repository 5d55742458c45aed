-- The cashier's close hands the drawer over (issue 36 §7, docs/orders.md "Cashier shifts"): at the
-- close, the cash left in the drawer for the next shift (the rest of the cash counted goes to the
-- safe); at the open, the close it was handed over from and, when the float counted differs from
-- what was left, why.
ALTER TABLE "CashierShift" ADD COLUMN "leftInDrawer" INTEGER;
ALTER TABLE "CashierShift" ADD COLUMN "handedOverFromId" INTEGER;
ALTER TABLE "CashierShift" ADD COLUMN "openingNote" TEXT NOT NULL DEFAULT '';
ALTER TABLE "CashierShift" ADD CONSTRAINT "CashierShift_leftInDrawer_check" CHECK ("leftInDrawer" IS NULL OR ("leftInDrawer" >= 0 AND "closedAt" IS NOT NULL));
ALTER TABLE "CashierShift" ADD CONSTRAINT "CashierShift_hotelId_handedOverFromId_fkey" FOREIGN KEY ("hotelId", "handedOverFromId") REFERENCES "CashierShift"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;
-- The hotel's latest close, for the next open.
CREATE INDEX "CashierShift_hotelId_closedAt_idx" ON "CashierShift"("hotelId", "closedAt");
