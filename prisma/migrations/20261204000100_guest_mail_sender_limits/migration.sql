-- Mail as a careful provider sends it (issue 27 §8, docs/guest-messages.md).
-- A message is claimed by the job that sends it (`sending`, `claimedBy`: two jobs of one message never
-- both send it), and an e-mail over the hotel's hourly limit waits (`held` until `heldUntil`).
ALTER TABLE "GuestMessage" ADD COLUMN "heldUntil" TIMESTAMPTZ(3);
ALTER TABLE "GuestMessage" ADD COLUMN "claimedBy" VARCHAR(64);

-- "Send again" while the same code's message to the same channel still waits is that message:
-- two clicks at once (or two clerks) send it once.
CREATE UNIQUE INDEX "GuestMessage_pending_again_key" ON "GuestMessage"("stayId", "channel", "passwordId")
  WHERE "trigger" = 'again' AND "state" IN ('queued', 'held', 'sending');
