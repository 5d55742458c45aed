-- A keypad without a 0 key (a Nuki Keypad through Seam, issue 38): no code with a 0 is given to it or taken for it.
ALTER TABLE "Lock" ADD COLUMN "keypadWithoutZero" BOOLEAN NOT NULL DEFAULT false;
