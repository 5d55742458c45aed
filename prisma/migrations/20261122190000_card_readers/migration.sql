-- Issue 8 §3, §5: the desk card-reader registry and card dispensers. A reader keeps the serial
-- number it reports when opened; an account has at most one desk reader per hotel (the console
-- picks the reader bound to the signed-in account; unbound readers have NULL, and NULLs are
-- distinct in a unique index). A dispenser keeps the capacity its last status check reported.
-- Columns and index drafted with `schema:draft -- HEAD`; the CHECKs below are hand-written.

-- AlterTable
ALTER TABLE "CardReader" ADD COLUMN     "serial" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "CardDispenser" ADD COLUMN     "capacity" INTEGER;

-- CreateIndex
CREATE UNIQUE INDEX "CardReader_hotelId_boundAccountId_key" ON "CardReader"("hotelId", "boundAccountId");

-- A device id is what the reader reports: never empty.
ALTER TABLE "CardReader" ADD CONSTRAINT "CardReader_deviceId_present" CHECK (btrim("deviceId") <> '');
ALTER TABLE "CardDispenser" ADD CONSTRAINT "CardDispenser_deviceId_present" CHECK (btrim("deviceId") <> '');
-- The capacity is a count of cards (the stock already has CardDispenser_stock_non_negative).
ALTER TABLE "CardDispenser" ADD CONSTRAINT "CardDispenser_capacity_non_negative" CHECK ("capacity" IS NULL OR "capacity" >= 0);
