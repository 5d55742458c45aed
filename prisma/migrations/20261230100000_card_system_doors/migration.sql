-- A door of a hotel card system reached through Seam (issue 38: Seam's `acs`, ASSA ABLOY Visionline,
-- Salto, dormakaba): its cards are encoded at the desk on the system's encoder, and a card of it is
-- a writing of the medium `encoded` (its grant's providerRef: the card system's user and credential).
ALTER TABLE "Lock" ADD COLUMN "encodedCards" BOOLEAN NOT NULL DEFAULT false;
ALTER TYPE "CardMedium" ADD VALUE 'encoded';
-- An encoded card has no UID the console reads (the card system's encoder reads and writes it).
-- (`medium`::text: the enum's new value cannot be named in the transaction that adds it.)
ALTER TABLE "CardIssue" DROP CONSTRAINT "CardIssue_uid_hex";
ALTER TABLE "CardIssue" ADD CONSTRAINT "CardIssue_uid_hex" CHECK ("uid" ~ '^([0-9A-F]{8}|[0-9A-F]{14})$' OR ("medium"::text = 'encoded' AND "uid" = ''));
