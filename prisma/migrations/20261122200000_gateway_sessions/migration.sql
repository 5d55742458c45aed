-- Issue 8 §6: the card-service gateway (`POST /auth/login`, `/linQuan/*`) signs accounts in with
-- sessions of their own kind, sent back as `Authorization: Bearer <token>`
-- (docs/card-service-gateway.md). A web or legacy token is not a gateway token, nor the reverse.

-- AlterEnum
ALTER TYPE "SessionKind" ADD VALUE 'gateway';
