-- Issue 7: locks and the delivery engine. Every credential carries the state of its delivery,
-- a version naming its job, the provider's id once on the lock, and why it was revoked; locks
-- keep their last reported status; unlock records remember the provider's record id, so a record
-- delivered twice (callback and polling) is stored once.
-- AlterEnum


ALTER TYPE "DeliveryState" ADD VALUE 'remove_failed';
ALTER TYPE "DeliveryState" ADD VALUE 'unknown';

-- AlterTable
ALTER TABLE "CardGrant" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "deliveredAt" TIMESTAMPTZ(3),
ADD COLUMN     "lastAttemptAt" TIMESTAMPTZ(3),
ADD COLUMN     "providerRef" TEXT,
ADD COLUMN     "removedAt" TIMESTAMPTZ(3),
ADD COLUMN     "revokeReason" TEXT,
ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "LockPassword" ADD COLUMN     "accountId" INTEGER,
ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "createdByAccountId" INTEGER,
ADD COLUMN     "deliveredAt" TIMESTAMPTZ(3),
ADD COLUMN     "lastAttemptAt" TIMESTAMPTZ(3),
ADD COLUMN     "providerRef" TEXT,
ADD COLUMN     "removedAt" TIMESTAMPTZ(3),
ADD COLUMN     "revokeReason" TEXT,
ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 1,
ALTER COLUMN "code" DROP NOT NULL;

-- AlterTable
ALTER TABLE "FaceAuthorization" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "deliveredAt" TIMESTAMPTZ(3),
ADD COLUMN     "lastAttemptAt" TIMESTAMPTZ(3),
ADD COLUMN     "providerRef" TEXT,
ADD COLUMN     "removedAt" TIMESTAMPTZ(3),
ADD COLUMN     "revokeReason" TEXT,
ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "Fingerprint" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "deliveredAt" TIMESTAMPTZ(3),
ADD COLUMN     "lastAttemptAt" TIMESTAMPTZ(3),
ADD COLUMN     "providerRef" TEXT,
ADD COLUMN     "removedAt" TIMESTAMPTZ(3),
ADD COLUMN     "revokeReason" TEXT,
ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "UnlockRecord" ADD COLUMN     "credential" TEXT,
ADD COLUMN     "providerRecordId" TEXT,
ADD COLUMN     "recordType" INTEGER;

-- CreateTable
CREATE TABLE "Lock" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "provider" TEXT NOT NULL,
    "providerLockId" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "mac" TEXT NOT NULL DEFAULT '',
    "simulated" BOOLEAN NOT NULL DEFAULT false,
    "online" BOOLEAN,
    "battery" INTEGER,
    "gatewayId" TEXT,
    "gatewayName" TEXT,
    "gatewayOnline" BOOLEAN,
    "lastSeenAt" TIMESTAMPTZ(3),
    "statusCheckedAt" TIMESTAMPTZ(3),
    "recordsReadUntil" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Lock_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Lock_hotelId_idx" ON "Lock"("hotelId");

-- CreateIndex
CREATE UNIQUE INDEX "Lock_hotelId_id_key" ON "Lock"("hotelId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Lock_provider_providerLockId_key" ON "Lock"("provider", "providerLockId");

-- CreateIndex
CREATE UNIQUE INDEX "UnlockRecord_hotelId_providerRecordId_key" ON "UnlockRecord"("hotelId", "providerRecordId");

-- AddForeignKey
ALTER TABLE "Lock" ADD CONSTRAINT "Lock_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A custom password has its code from the start; a cloud-generated one gets it from the cloud.
ALTER TABLE "LockPassword" ADD CONSTRAINT "LockPassword_custom_has_code" CHECK ("kind" <> 'custom' OR "code" IS NOT NULL);

-- What the delivery sweep looks for: credentials with work to do for their lock.
CREATE INDEX "LockPassword_delivery_work_idx" ON "LockPassword"("deliveryState") WHERE "deliveryState" IN ('pending', 'removing');
CREATE INDEX "CardGrant_delivery_work_idx" ON "CardGrant"("deliveryState") WHERE "deliveryState" IN ('pending', 'removing');
CREATE INDEX "FaceAuthorization_delivery_work_idx" ON "FaceAuthorization"("deliveryState") WHERE "deliveryState" IN ('pending', 'removing');
CREATE INDEX "Fingerprint_delivery_work_idx" ON "Fingerprint"("deliveryState") WHERE "deliveryState" IN ('pending', 'removing');
