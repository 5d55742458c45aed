-- Issue 8: the rooms a card's writing opens, kept with it: its grants (one per room's lock) are
-- made when the card is issued, not when its data is reserved. Drafted with `schema:draft -- HEAD`.

-- AlterTable
ALTER TABLE "CardIssue" ADD COLUMN     "roomIds" INTEGER[] DEFAULT ARRAY[]::INTEGER[];
