-- A lock platform that answers a write before the lock has it (Seam: "accepted", set on the lock
-- later; issue 38, docs/credential-delivery.md "Accepted, not yet on the lock"): the version of a
-- password the platform accepted and has not confirmed yet. While it equals "version" the
-- password is still `pending`, on its way, and the delivery engine asks the platform where the
-- code stands instead of sending it again. A later version (a revoke, a new validity) makes it
-- stale by itself: versions only grow.
ALTER TABLE "LockPassword" ADD COLUMN "acceptedVersion" INTEGER;
ALTER TABLE "LockPassword" ADD CONSTRAINT "LockPassword_acceptedVersion_check"
  CHECK ("acceptedVersion" IS NULL OR "acceptedVersion" <= "version");
