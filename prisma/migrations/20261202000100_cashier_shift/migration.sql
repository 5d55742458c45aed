-- Cashier shifts (issue 26 §2, docs/orders.md "Cashier shifts"): a clerk opens a shift with the cash
-- float counted; every money entry the clerk records while it is open belongs to it (OrderEntry.shiftId);
-- the clerk closes it by counting what is in hand per way of paying, and the difference against what
-- the ledger says is kept. A closed shift is never opened again or changed.
CREATE TABLE "CashierShift" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "accountId" INTEGER NOT NULL,
    "openingFloat" INTEGER NOT NULL,
    "openedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closedAt" TIMESTAMPTZ(3),
    "closedByAccountId" INTEGER,
    -- At close: what the ledger says is in hand and what was counted, per way of paying ({ "cash": 12300, ... }).
    "expected" JSONB,
    "counted" JSONB,
    -- counted - expected, over every way of paying counted (minor units).
    "difference" INTEGER,
    "note" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "CashierShift_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "CashierShift_float_check" CHECK ("openingFloat" >= 0),
    CONSTRAINT "CashierShift_closed_check" CHECK (
        ("closedAt" IS NULL AND "expected" IS NULL AND "counted" IS NULL AND "difference" IS NULL)
        OR ("closedAt" IS NOT NULL AND "expected" IS NOT NULL AND "counted" IS NOT NULL AND "difference" IS NOT NULL)
    )
);

CREATE UNIQUE INDEX "CashierShift_hotelId_id_key" ON "CashierShift"("hotelId", "id");
CREATE INDEX "CashierShift_hotelId_openedAt_idx" ON "CashierShift"("hotelId", "openedAt");
-- One open shift per clerk and hotel.
CREATE UNIQUE INDEX "CashierShift_one_open_key" ON "CashierShift"("hotelId", "accountId") WHERE "closedAt" IS NULL;

ALTER TABLE "CashierShift" ADD CONSTRAINT "CashierShift_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "CashierShift" ADD CONSTRAINT "CashierShift_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A closed shift is history: it is never reopened and never changed.
CREATE FUNCTION "CashierShift_closed_is_final"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."closedAt" IS NOT NULL THEN
    RAISE EXCEPTION 'constraint "CashierShift_closed_is_final": cashier shift % is closed', OLD."id" USING ERRCODE = 'check_violation';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "CashierShift_closed_is_final" BEFORE UPDATE OR DELETE ON "CashierShift"
  FOR EACH ROW EXECUTE FUNCTION "CashierShift_closed_is_final"();

ALTER TABLE "OrderEntry" ADD COLUMN "shiftId" INTEGER;
ALTER TABLE "OrderEntry" ADD CONSTRAINT "OrderEntry_hotelId_shiftId_fkey" FOREIGN KEY ("hotelId", "shiftId") REFERENCES "CashierShift"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;
CREATE INDEX "OrderEntry_hotelId_shiftId_idx" ON "OrderEntry"("hotelId", "shiftId");
