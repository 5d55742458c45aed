-- Readable automation in the audit log (issue 27 §11): names kept when an entry is written, for what
-- cannot be read later (the calendar feed a job read, a target deleted by the entry). Both null for
-- every entry written before, which the viewer names from the rows that still exist.
ALTER TABLE "AuditLog" ADD COLUMN "actorNames" JSONB,
ADD COLUMN "targetNames" JSONB;
