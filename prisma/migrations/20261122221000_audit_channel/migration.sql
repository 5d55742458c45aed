-- The face an audited action came through: the web console, the legacy protocol, the card-service
-- gateway or a background job (entries written before this have none).
CREATE TYPE "AuditChannel" AS ENUM ('console', 'legacy', 'gateway', 'job');

ALTER TABLE "AuditLog" ADD COLUMN     "channel" "AuditChannel";
