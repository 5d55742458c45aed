-- Issue 20 §2: a number card as an access rule's kind (docs/access-rules.md). When on, a reservation
-- gets the guest's own number card pushed to the room's lock (TTLock identityCard through the
-- gateway); without one, the stay says the desk issues a card at arrival.
-- AlterTable
ALTER TABLE "AccessRule" ADD COLUMN     "card" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Stay" ADD COLUMN     "accessCard" VARCHAR(16);

-- Written by hand: what a rule's card gave the stay.
ALTER TABLE "Stay" ADD CONSTRAINT "Stay_access_card_check" CHECK ("accessCard" IS NULL OR "accessCard" IN ('card_sent', 'card_at_arrival'));
