-- Issue 20 §4: the guest's key page. One link per visit (the visit's first stay: a room change
-- keeps it), found by the SHA-256 of its token; the token itself is kept only sealed under the
-- server's secret (so the console can show it and guest messages can carry it). It lives as long as
-- the visit's current stay (computed, never stored): a renewal extends it, a check-out ends it.

-- AlterEnum
ALTER TYPE "ActorType" ADD VALUE 'key_link';

-- AlterEnum
ALTER TYPE "AuditChannel" ADD VALUE 'key_page';

-- CreateTable
CREATE TABLE "KeyLink" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "visitStayId" INTEGER NOT NULL,
    "tokenHash" CHAR(64) NOT NULL,
    "sealedToken" TEXT NOT NULL,
    "createdByAccountId" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" TIMESTAMPTZ(3),

    CONSTRAINT "KeyLink_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "KeyLink_tokenHash_key" ON "KeyLink"("tokenHash");

-- CreateIndex
CREATE INDEX "KeyLink_hotelId_visitStayId_idx" ON "KeyLink"("hotelId", "visitStayId");

-- AddForeignKey
ALTER TABLE "KeyLink" ADD CONSTRAINT "KeyLink_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KeyLink" ADD CONSTRAINT "KeyLink_hotelId_visitStayId_fkey" FOREIGN KEY ("hotelId", "visitStayId") REFERENCES "Stay"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KeyLink" ADD CONSTRAINT "KeyLink_createdByAccountId_fkey" FOREIGN KEY ("createdByAccountId") REFERENCES "Account"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- One live link per visit (two identical "make a link" requests at once make one). Hand-written
-- (Prisma cannot express a partial index; apps/server/src/db/migrations.integration.test.ts lists it).
CREATE UNIQUE INDEX "KeyLink_live_key" ON "KeyLink"("visitStayId") WHERE "revokedAt" IS NULL;
