-- Issue 8: a retired key set no live card uses can be deleted; the writings made under it that
-- have ended keep their history without it. A data card that is reserved or issued still needs
-- the key set it was written under.
ALTER TABLE "CardIssue" DROP CONSTRAINT "CardIssue_data_key";
ALTER TABLE "CardIssue" ADD CONSTRAINT "CardIssue_data_key" CHECK ("medium" <> 'data' OR "keyId" IS NOT NULL OR "state" NOT IN ('reserved', 'issued'));
