-- Issue 17 §5: text the system writes is stored as a code and translated when read, in the
-- reader's language (apps/server/src/infra/system-text.ts). A note the server writes on an entry
-- (a refund at check-out, a room charge re-priced) and a key set's name nobody typed are an i18n
-- key and its parameters; the text column is then empty. Rows written before keep their text.

ALTER TABLE "OrderEntry" ADD COLUMN "noteKey" TEXT;
ALTER TABLE "OrderEntry" ADD COLUMN "noteParams" JSONB;
-- A refund, a correction and a charge still need a reason: typed, or the system's code.
ALTER TABLE "OrderEntry" DROP CONSTRAINT "OrderEntry_reason";
ALTER TABLE "OrderEntry" ADD CONSTRAINT "OrderEntry_reason" CHECK ("kind" NOT IN ('refund', 'correction', 'charge') OR btrim("note") <> '' OR "noteKey" IS NOT NULL);
-- One text: typed, or a code (never both, so no face shows one and another face the other).
ALTER TABLE "OrderEntry" ADD CONSTRAINT "OrderEntry_note_or_key" CHECK ("noteKey" IS NULL OR "note" = '');
ALTER TABLE "OrderEntry" ADD CONSTRAINT "OrderEntry_note_params" CHECK ("noteParams" IS NULL OR ("noteKey" IS NOT NULL AND jsonb_typeof("noteParams") = 'object'));

ALTER TABLE "CardEncryption" ADD COLUMN "nameKey" TEXT;
ALTER TABLE "CardEncryption" ADD COLUMN "nameParams" JSONB;
ALTER TABLE "CardEncryption" ADD CONSTRAINT "CardEncryption_name_or_key" CHECK ("nameKey" IS NULL OR "name" = '');
ALTER TABLE "CardEncryption" ADD CONSTRAINT "CardEncryption_name_params" CHECK ("nameParams" IS NULL OR ("nameKey" IS NOT NULL AND jsonb_typeof("nameParams") = 'object'));
