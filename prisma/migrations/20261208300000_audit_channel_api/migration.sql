-- The JSON API (/api/v1, issue 29 §1) is a face of its own in the audit log.
ALTER TYPE "AuditChannel" ADD VALUE IF NOT EXISTS 'api';
