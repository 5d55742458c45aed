-- Initial schema: drafted from schema.prisma with the Prisma schema engine (scripts/schema-diff.mjs),
-- then completed by hand with what Prisma cannot express (see the end of this file).

-- btree_gist lets one exclusion constraint combine equality on a room and overlap of periods.
CREATE EXTENSION IF NOT EXISTS btree_gist;


-- CreateEnum
CREATE TYPE "Role" AS ENUM ('owner', 'admin', 'staff');

-- CreateEnum
CREATE TYPE "SessionKind" AS ENUM ('web', 'legacy');

-- CreateEnum
CREATE TYPE "CleanStatus" AS ENUM ('clean', 'dirty', 'inspected');

-- CreateEnum
CREATE TYPE "MaintenanceStatus" AS ENUM ('none', 'out_of_order', 'out_of_service');

-- CreateEnum
CREATE TYPE "StayStatus" AS ENUM ('reserved', 'in_house', 'expired', 'moved', 'checked_out', 'ended');

-- CreateEnum
CREATE TYPE "StayLengthUnit" AS ENUM ('hour', 'day', 'month', 'year');

-- CreateEnum
CREATE TYPE "Gender" AS ENUM ('male', 'female', 'unknown');

-- CreateEnum
CREATE TYPE "DeliveryState" AS ENUM ('pending', 'on_lock', 'failed', 'removing', 'removed');

-- CreateEnum
CREATE TYPE "CardKind" AS ENUM ('room', 'management', 'universal');

-- CreateEnum
CREATE TYPE "PasswordKind" AS ENUM ('air', 'custom', 'one_time');

-- CreateEnum
CREATE TYPE "UnlockStyle" AS ENUM ('password', 'card', 'face', 'fingerprint', 'bluetooth', 'remote', 'key', 'other');

-- CreateEnum
CREATE TYPE "DispenserStatus" AS ENUM ('online', 'offline', 'empty', 'fault');

-- CreateEnum
CREATE TYPE "OrderEntryKind" AS ENUM ('cash', 'deposit', 'refund', 'recharge');

-- CreateEnum
CREATE TYPE "ActorType" AS ENUM ('account', 'api_key', 'job', 'anonymous');

-- CreateTable
CREATE TABLE "Hotel" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "address" TEXT NOT NULL DEFAULT '',
    "tel" TEXT NOT NULL DEFAULT '',
    "latitude" DECIMAL(9,6),
    "longitude" DECIMAL(9,6),
    "timeZone" TEXT NOT NULL DEFAULT 'Asia/Shanghai',
    "currency" CHAR(3) NOT NULL DEFAULT 'CNY',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Hotel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Account" (
    "id" SERIAL NOT NULL,
    "mobile" TEXT,
    "email" TEXT,
    "passwordHash" TEXT NOT NULL,
    "nickname" TEXT NOT NULL,
    "avatar" TEXT,
    "frozenAt" TIMESTAMPTZ(3),
    "passwordChangedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastLoginAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Membership" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "role" "Role" NOT NULL,
    "allRooms" BOOLEAN NOT NULL DEFAULT true,
    "apiKeyAuth" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Membership_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MembershipRoom" (
    "hotelId" INTEGER NOT NULL,
    "membershipId" INTEGER NOT NULL,
    "roomId" INTEGER NOT NULL,

    CONSTRAINT "MembershipRoom_pkey" PRIMARY KEY ("membershipId","roomId")
);

-- CreateTable
CREATE TABLE "Session" (
    "id" SERIAL NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "kind" "SessionKind" NOT NULL,
    "accountId" INTEGER NOT NULL,
    "hotelId" INTEGER,
    "ip" TEXT,
    "userAgent" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "revokedAt" TIMESTAMPTZ(3),
    "revokeReason" TEXT,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Customer" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "nickname" TEXT NOT NULL DEFAULT '',
    "mobile" TEXT,
    "email" TEXT,
    "avatar" TEXT,
    "registeredAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "frozenAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Customer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CustomerSession" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "customerId" INTEGER NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "revokedAt" TIMESTAMPTZ(3),

    CONSTRAINT "CustomerSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RoomGroup" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "sort" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "RoomGroup_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Room" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "groupId" INTEGER,
    "name" TEXT NOT NULL,
    "picture" TEXT,
    "remarkName" TEXT NOT NULL DEFAULT '',
    "description" TEXT NOT NULL DEFAULT '',
    "lockNotice" TEXT NOT NULL DEFAULT '',
    "notice" TEXT NOT NULL DEFAULT '',
    "lockId" TEXT,
    "bluetoothName" TEXT,
    "lockPower" INTEGER,
    "macId" TEXT,
    "sortOrder" INTEGER NOT NULL DEFAULT 0,
    "cleanStatus" "CleanStatus" NOT NULL DEFAULT 'clean',
    "maintenance" "MaintenanceStatus" NOT NULL DEFAULT 'none',
    "depositAmount" INTEGER NOT NULL DEFAULT 0,
    "usualPrice" INTEGER NOT NULL DEFAULT 0,
    "weekendPrice" INTEGER,
    "renewalPrice" INTEGER,
    "priceTemplateId" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Room_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RoomDatePrice" (
    "hotelId" INTEGER NOT NULL,
    "roomId" INTEGER NOT NULL,
    "date" DATE NOT NULL,
    "price" INTEGER NOT NULL,

    CONSTRAINT "RoomDatePrice_pkey" PRIMARY KEY ("roomId","date")
);

-- CreateTable
CREATE TABLE "PriceTemplate" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "depositAmount" INTEGER NOT NULL DEFAULT 0,
    "usualPrice" INTEGER NOT NULL,
    "weekendPrice" INTEGER,
    "renewalPrice" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "PriceTemplate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PriceTemplateDatePrice" (
    "templateId" INTEGER NOT NULL,
    "date" DATE NOT NULL,
    "price" INTEGER NOT NULL,

    CONSTRAINT "PriceTemplateDatePrice_pkey" PRIMARY KEY ("templateId","date")
);

-- CreateTable
CREATE TABLE "Stay" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "roomId" INTEGER NOT NULL,
    "status" "StayStatus" NOT NULL,
    "checkInAt" TIMESTAMPTZ(3) NOT NULL,
    "expectedCheckOutAt" TIMESTAMPTZ(3) NOT NULL,
    "checkedOutAt" TIMESTAMPTZ(3),
    "lengthUnit" "StayLengthUnit" NOT NULL DEFAULT 'day',
    "breakfast" BOOLEAN NOT NULL DEFAULT false,
    "disableOldCards" BOOLEAN NOT NULL DEFAULT false,
    "idCardUnlock" BOOLEAN NOT NULL DEFAULT false,
    "depositAmount" INTEGER NOT NULL DEFAULT 0,
    "priceAmount" INTEGER NOT NULL DEFAULT 0,
    "remark" TEXT NOT NULL DEFAULT '',
    "version" INTEGER NOT NULL DEFAULT 0,
    "idempotencyKey" TEXT,
    "movedFromStayId" INTEGER,
    "createdByAccountId" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Stay_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "StayGuest" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "stayId" INTEGER NOT NULL,
    "isPrimary" BOOLEAN NOT NULL DEFAULT false,
    "name" TEXT NOT NULL,
    "gender" "Gender" NOT NULL DEFAULT 'unknown',
    "nationality" TEXT NOT NULL DEFAULT '',
    "birthDate" DATE,
    "idNumber" TEXT,
    "mobile" TEXT,
    "email" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StayGuest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BreakfastRecord" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "stayId" INTEGER NOT NULL,
    "date" DATE NOT NULL,
    "guests" INTEGER NOT NULL DEFAULT 1,
    "servedAt" TIMESTAMPTZ(3),

    CONSTRAINT "BreakfastRecord_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Card" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "cardNumber" TEXT NOT NULL,
    "kind" "CardKind" NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "holderAccountId" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Card_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CardGrant" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "cardId" INTEGER NOT NULL,
    "roomId" INTEGER,
    "stayId" INTEGER,
    "guestId" INTEGER,
    "customerId" INTEGER,
    "validFrom" TIMESTAMPTZ(3) NOT NULL,
    "validUntil" TIMESTAMPTZ(3),
    "deliveryState" "DeliveryState" NOT NULL DEFAULT 'pending',
    "lastError" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "CardGrant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CardEncryption" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "sector" INTEGER NOT NULL,
    "keyA" CHAR(12) NOT NULL,
    "keyB" CHAR(12),
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "CardEncryption_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CardReader" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "deviceId" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "readerType" INTEGER NOT NULL DEFAULT 1,
    "boundAccountId" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "CardReader_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LockPassword" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "roomId" INTEGER NOT NULL,
    "stayId" INTEGER,
    "guestId" INTEGER,
    "customerId" INTEGER,
    "kind" "PasswordKind" NOT NULL,
    "holderName" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "validFrom" TIMESTAMPTZ(3) NOT NULL,
    "validUntil" TIMESTAMPTZ(3),
    "deliveryState" "DeliveryState" NOT NULL DEFAULT 'pending',
    "lastError" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "LockPassword_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Face" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "faceId" TEXT NOT NULL,
    "note" TEXT NOT NULL,
    "imageUrl" TEXT NOT NULL,
    "guestId" INTEGER,
    "customerId" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Face_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FaceAuthorization" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "faceId" INTEGER NOT NULL,
    "roomId" INTEGER NOT NULL,
    "stayId" INTEGER,
    "note" TEXT NOT NULL DEFAULT '',
    "validFrom" TIMESTAMPTZ(3) NOT NULL,
    "validUntil" TIMESTAMPTZ(3),
    "deliveryState" "DeliveryState" NOT NULL DEFAULT 'pending',
    "lastError" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "FaceAuthorization_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Fingerprint" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "roomId" INTEGER NOT NULL,
    "stayId" INTEGER,
    "guestId" INTEGER,
    "note" TEXT NOT NULL DEFAULT '',
    "templateRef" TEXT NOT NULL,
    "validFrom" TIMESTAMPTZ(3) NOT NULL,
    "validUntil" TIMESTAMPTZ(3),
    "deliveryState" "DeliveryState" NOT NULL DEFAULT 'pending',
    "lastError" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Fingerprint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UnlockRecord" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "roomId" INTEGER NOT NULL,
    "occurredAt" TIMESTAMPTZ(3) NOT NULL,
    "content" TEXT NOT NULL DEFAULT '',
    "source" TEXT NOT NULL DEFAULT '',
    "style" "UnlockStyle" NOT NULL,
    "operator" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UnlockRecord_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LockManager" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "roomId" INTEGER NOT NULL,
    "accountId" INTEGER,
    "name" TEXT NOT NULL,
    "mobile" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LockManager_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LockMessage" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "roomId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "readAt" TIMESTAMPTZ(3),

    CONSTRAINT "LockMessage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CardDispenser" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "deviceId" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "stock" INTEGER NOT NULL DEFAULT 0,
    "status" "DispenserStatus" NOT NULL DEFAULT 'offline',
    "lastCheckedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "CardDispenser_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OrderEntry" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "kind" "OrderEntryKind" NOT NULL,
    "amount" INTEGER NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "stayId" INTEGER,
    "roomId" INTEGER,
    "customerId" INTEGER,
    "method" TEXT NOT NULL DEFAULT '',
    "note" TEXT NOT NULL DEFAULT '',
    "createdByAccountId" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OrderEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "keyHash" TEXT NOT NULL,
    "createdByAccountId" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMPTZ(3),
    "revokedAt" TIMESTAMPTZ(3),

    CONSTRAINT "ApiKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditLog" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER,
    "actorType" "ActorType" NOT NULL,
    "actorAccountId" INTEGER,
    "actorApiKeyId" INTEGER,
    "action" TEXT NOT NULL,
    "entityType" TEXT,
    "entityId" TEXT,
    "before" JSONB,
    "after" JSONB,
    "ip" TEXT,
    "userAgent" TEXT,
    "requestId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditLog_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Account_mobile_key" ON "Account"("mobile");

-- CreateIndex
CREATE UNIQUE INDEX "Account_email_key" ON "Account"("email");

-- CreateIndex
CREATE INDEX "Membership_hotelId_idx" ON "Membership"("hotelId");

-- CreateIndex
CREATE UNIQUE INDEX "Membership_accountId_hotelId_key" ON "Membership"("accountId", "hotelId");

-- CreateIndex
CREATE UNIQUE INDEX "Membership_hotelId_id_key" ON "Membership"("hotelId", "id");

-- CreateIndex
CREATE INDEX "MembershipRoom_hotelId_roomId_idx" ON "MembershipRoom"("hotelId", "roomId");

-- CreateIndex
CREATE UNIQUE INDEX "Session_tokenHash_key" ON "Session"("tokenHash");

-- CreateIndex
CREATE INDEX "Session_accountId_idx" ON "Session"("accountId");

-- CreateIndex
CREATE INDEX "Customer_hotelId_registeredAt_idx" ON "Customer"("hotelId", "registeredAt");

-- CreateIndex
CREATE UNIQUE INDEX "Customer_hotelId_id_key" ON "Customer"("hotelId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Customer_hotelId_mobile_key" ON "Customer"("hotelId", "mobile");

-- CreateIndex
CREATE UNIQUE INDEX "CustomerSession_tokenHash_key" ON "CustomerSession"("tokenHash");

-- CreateIndex
CREATE INDEX "CustomerSession_hotelId_customerId_idx" ON "CustomerSession"("hotelId", "customerId");

-- CreateIndex
CREATE UNIQUE INDEX "RoomGroup_hotelId_id_key" ON "RoomGroup"("hotelId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "RoomGroup_hotelId_name_key" ON "RoomGroup"("hotelId", "name");

-- CreateIndex
CREATE INDEX "Room_hotelId_groupId_idx" ON "Room"("hotelId", "groupId");

-- CreateIndex
CREATE UNIQUE INDEX "Room_hotelId_id_key" ON "Room"("hotelId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Room_hotelId_name_key" ON "Room"("hotelId", "name");

-- CreateIndex
CREATE INDEX "RoomDatePrice_hotelId_idx" ON "RoomDatePrice"("hotelId");

-- CreateIndex
CREATE UNIQUE INDEX "PriceTemplate_hotelId_id_key" ON "PriceTemplate"("hotelId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "PriceTemplate_hotelId_name_key" ON "PriceTemplate"("hotelId", "name");

-- CreateIndex
CREATE INDEX "Stay_hotelId_roomId_checkInAt_idx" ON "Stay"("hotelId", "roomId", "checkInAt");

-- CreateIndex
CREATE INDEX "Stay_hotelId_status_idx" ON "Stay"("hotelId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "Stay_hotelId_id_key" ON "Stay"("hotelId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Stay_hotelId_idempotencyKey_key" ON "Stay"("hotelId", "idempotencyKey");

-- CreateIndex
CREATE INDEX "StayGuest_hotelId_stayId_idx" ON "StayGuest"("hotelId", "stayId");

-- CreateIndex
CREATE INDEX "StayGuest_hotelId_mobile_idx" ON "StayGuest"("hotelId", "mobile");

-- CreateIndex
CREATE INDEX "StayGuest_hotelId_idNumber_idx" ON "StayGuest"("hotelId", "idNumber");

-- CreateIndex
CREATE UNIQUE INDEX "StayGuest_hotelId_id_key" ON "StayGuest"("hotelId", "id");

-- CreateIndex
CREATE INDEX "BreakfastRecord_hotelId_date_idx" ON "BreakfastRecord"("hotelId", "date");

-- CreateIndex
CREATE UNIQUE INDEX "BreakfastRecord_stayId_date_key" ON "BreakfastRecord"("stayId", "date");

-- CreateIndex
CREATE UNIQUE INDEX "Card_hotelId_id_key" ON "Card"("hotelId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Card_hotelId_cardNumber_key" ON "Card"("hotelId", "cardNumber");

-- CreateIndex
CREATE INDEX "CardGrant_hotelId_cardId_idx" ON "CardGrant"("hotelId", "cardId");

-- CreateIndex
CREATE INDEX "CardGrant_hotelId_roomId_idx" ON "CardGrant"("hotelId", "roomId");

-- CreateIndex
CREATE INDEX "CardGrant_hotelId_stayId_idx" ON "CardGrant"("hotelId", "stayId");

-- CreateIndex
CREATE INDEX "CardGrant_hotelId_customerId_idx" ON "CardGrant"("hotelId", "customerId");

-- CreateIndex
CREATE INDEX "CardEncryption_hotelId_idx" ON "CardEncryption"("hotelId");

-- CreateIndex
CREATE UNIQUE INDEX "CardReader_hotelId_deviceId_key" ON "CardReader"("hotelId", "deviceId");

-- CreateIndex
CREATE INDEX "LockPassword_hotelId_roomId_idx" ON "LockPassword"("hotelId", "roomId");

-- CreateIndex
CREATE INDEX "LockPassword_hotelId_stayId_idx" ON "LockPassword"("hotelId", "stayId");

-- CreateIndex
CREATE INDEX "LockPassword_hotelId_customerId_idx" ON "LockPassword"("hotelId", "customerId");

-- CreateIndex
CREATE UNIQUE INDEX "Face_hotelId_id_key" ON "Face"("hotelId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Face_hotelId_faceId_key" ON "Face"("hotelId", "faceId");

-- CreateIndex
CREATE INDEX "FaceAuthorization_hotelId_roomId_idx" ON "FaceAuthorization"("hotelId", "roomId");

-- CreateIndex
CREATE INDEX "FaceAuthorization_hotelId_faceId_idx" ON "FaceAuthorization"("hotelId", "faceId");

-- CreateIndex
CREATE INDEX "Fingerprint_hotelId_roomId_idx" ON "Fingerprint"("hotelId", "roomId");

-- CreateIndex
CREATE INDEX "UnlockRecord_hotelId_roomId_occurredAt_idx" ON "UnlockRecord"("hotelId", "roomId", "occurredAt" DESC);

-- CreateIndex
CREATE INDEX "UnlockRecord_hotelId_occurredAt_idx" ON "UnlockRecord"("hotelId", "occurredAt" DESC);

-- CreateIndex
CREATE INDEX "LockManager_hotelId_roomId_idx" ON "LockManager"("hotelId", "roomId");

-- CreateIndex
CREATE INDEX "LockMessage_hotelId_roomId_createdAt_idx" ON "LockMessage"("hotelId", "roomId", "createdAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "CardDispenser_hotelId_deviceId_key" ON "CardDispenser"("hotelId", "deviceId");

-- CreateIndex
CREATE INDEX "OrderEntry_hotelId_createdAt_idx" ON "OrderEntry"("hotelId", "createdAt");

-- CreateIndex
CREATE INDEX "OrderEntry_hotelId_stayId_idx" ON "OrderEntry"("hotelId", "stayId");

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_keyHash_key" ON "ApiKey"("keyHash");

-- CreateIndex
CREATE INDEX "ApiKey_hotelId_idx" ON "ApiKey"("hotelId");

-- CreateIndex
CREATE INDEX "AuditLog_hotelId_createdAt_idx" ON "AuditLog"("hotelId", "createdAt");

-- CreateIndex
CREATE INDEX "AuditLog_actorAccountId_createdAt_idx" ON "AuditLog"("actorAccountId", "createdAt");

-- CreateIndex
CREATE INDEX "AuditLog_action_createdAt_idx" ON "AuditLog"("action", "createdAt");

-- AddForeignKey
ALTER TABLE "Membership" ADD CONSTRAINT "Membership_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Membership" ADD CONSTRAINT "Membership_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MembershipRoom" ADD CONSTRAINT "MembershipRoom_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MembershipRoom" ADD CONSTRAINT "MembershipRoom_hotelId_membershipId_fkey" FOREIGN KEY ("hotelId", "membershipId") REFERENCES "Membership"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MembershipRoom" ADD CONSTRAINT "MembershipRoom_hotelId_roomId_fkey" FOREIGN KEY ("hotelId", "roomId") REFERENCES "Room"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Customer" ADD CONSTRAINT "Customer_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CustomerSession" ADD CONSTRAINT "CustomerSession_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CustomerSession" ADD CONSTRAINT "CustomerSession_hotelId_customerId_fkey" FOREIGN KEY ("hotelId", "customerId") REFERENCES "Customer"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RoomGroup" ADD CONSTRAINT "RoomGroup_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Room" ADD CONSTRAINT "Room_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Room" ADD CONSTRAINT "Room_hotelId_groupId_fkey" FOREIGN KEY ("hotelId", "groupId") REFERENCES "RoomGroup"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Room" ADD CONSTRAINT "Room_hotelId_priceTemplateId_fkey" FOREIGN KEY ("hotelId", "priceTemplateId") REFERENCES "PriceTemplate"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RoomDatePrice" ADD CONSTRAINT "RoomDatePrice_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RoomDatePrice" ADD CONSTRAINT "RoomDatePrice_hotelId_roomId_fkey" FOREIGN KEY ("hotelId", "roomId") REFERENCES "Room"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PriceTemplate" ADD CONSTRAINT "PriceTemplate_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PriceTemplateDatePrice" ADD CONSTRAINT "PriceTemplateDatePrice_templateId_fkey" FOREIGN KEY ("templateId") REFERENCES "PriceTemplate"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Stay" ADD CONSTRAINT "Stay_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Stay" ADD CONSTRAINT "Stay_hotelId_roomId_fkey" FOREIGN KEY ("hotelId", "roomId") REFERENCES "Room"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Stay" ADD CONSTRAINT "Stay_movedFromStayId_fkey" FOREIGN KEY ("movedFromStayId") REFERENCES "Stay"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StayGuest" ADD CONSTRAINT "StayGuest_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StayGuest" ADD CONSTRAINT "StayGuest_hotelId_stayId_fkey" FOREIGN KEY ("hotelId", "stayId") REFERENCES "Stay"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BreakfastRecord" ADD CONSTRAINT "BreakfastRecord_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BreakfastRecord" ADD CONSTRAINT "BreakfastRecord_hotelId_stayId_fkey" FOREIGN KEY ("hotelId", "stayId") REFERENCES "Stay"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Card" ADD CONSTRAINT "Card_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Card" ADD CONSTRAINT "Card_holderAccountId_fkey" FOREIGN KEY ("holderAccountId") REFERENCES "Account"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardGrant" ADD CONSTRAINT "CardGrant_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardGrant" ADD CONSTRAINT "CardGrant_hotelId_cardId_fkey" FOREIGN KEY ("hotelId", "cardId") REFERENCES "Card"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardGrant" ADD CONSTRAINT "CardGrant_hotelId_roomId_fkey" FOREIGN KEY ("hotelId", "roomId") REFERENCES "Room"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardGrant" ADD CONSTRAINT "CardGrant_hotelId_stayId_fkey" FOREIGN KEY ("hotelId", "stayId") REFERENCES "Stay"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardGrant" ADD CONSTRAINT "CardGrant_hotelId_guestId_fkey" FOREIGN KEY ("hotelId", "guestId") REFERENCES "StayGuest"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardGrant" ADD CONSTRAINT "CardGrant_hotelId_customerId_fkey" FOREIGN KEY ("hotelId", "customerId") REFERENCES "Customer"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardEncryption" ADD CONSTRAINT "CardEncryption_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardReader" ADD CONSTRAINT "CardReader_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardReader" ADD CONSTRAINT "CardReader_boundAccountId_fkey" FOREIGN KEY ("boundAccountId") REFERENCES "Account"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LockPassword" ADD CONSTRAINT "LockPassword_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LockPassword" ADD CONSTRAINT "LockPassword_hotelId_roomId_fkey" FOREIGN KEY ("hotelId", "roomId") REFERENCES "Room"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LockPassword" ADD CONSTRAINT "LockPassword_hotelId_stayId_fkey" FOREIGN KEY ("hotelId", "stayId") REFERENCES "Stay"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LockPassword" ADD CONSTRAINT "LockPassword_hotelId_guestId_fkey" FOREIGN KEY ("hotelId", "guestId") REFERENCES "StayGuest"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LockPassword" ADD CONSTRAINT "LockPassword_hotelId_customerId_fkey" FOREIGN KEY ("hotelId", "customerId") REFERENCES "Customer"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Face" ADD CONSTRAINT "Face_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Face" ADD CONSTRAINT "Face_hotelId_guestId_fkey" FOREIGN KEY ("hotelId", "guestId") REFERENCES "StayGuest"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Face" ADD CONSTRAINT "Face_hotelId_customerId_fkey" FOREIGN KEY ("hotelId", "customerId") REFERENCES "Customer"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FaceAuthorization" ADD CONSTRAINT "FaceAuthorization_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FaceAuthorization" ADD CONSTRAINT "FaceAuthorization_hotelId_faceId_fkey" FOREIGN KEY ("hotelId", "faceId") REFERENCES "Face"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FaceAuthorization" ADD CONSTRAINT "FaceAuthorization_hotelId_roomId_fkey" FOREIGN KEY ("hotelId", "roomId") REFERENCES "Room"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FaceAuthorization" ADD CONSTRAINT "FaceAuthorization_hotelId_stayId_fkey" FOREIGN KEY ("hotelId", "stayId") REFERENCES "Stay"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Fingerprint" ADD CONSTRAINT "Fingerprint_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Fingerprint" ADD CONSTRAINT "Fingerprint_hotelId_roomId_fkey" FOREIGN KEY ("hotelId", "roomId") REFERENCES "Room"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Fingerprint" ADD CONSTRAINT "Fingerprint_hotelId_stayId_fkey" FOREIGN KEY ("hotelId", "stayId") REFERENCES "Stay"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Fingerprint" ADD CONSTRAINT "Fingerprint_hotelId_guestId_fkey" FOREIGN KEY ("hotelId", "guestId") REFERENCES "StayGuest"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UnlockRecord" ADD CONSTRAINT "UnlockRecord_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UnlockRecord" ADD CONSTRAINT "UnlockRecord_hotelId_roomId_fkey" FOREIGN KEY ("hotelId", "roomId") REFERENCES "Room"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LockManager" ADD CONSTRAINT "LockManager_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LockManager" ADD CONSTRAINT "LockManager_hotelId_roomId_fkey" FOREIGN KEY ("hotelId", "roomId") REFERENCES "Room"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LockManager" ADD CONSTRAINT "LockManager_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LockMessage" ADD CONSTRAINT "LockMessage_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LockMessage" ADD CONSTRAINT "LockMessage_hotelId_roomId_fkey" FOREIGN KEY ("hotelId", "roomId") REFERENCES "Room"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardDispenser" ADD CONSTRAINT "CardDispenser_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrderEntry" ADD CONSTRAINT "OrderEntry_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrderEntry" ADD CONSTRAINT "OrderEntry_hotelId_stayId_fkey" FOREIGN KEY ("hotelId", "stayId") REFERENCES "Stay"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrderEntry" ADD CONSTRAINT "OrderEntry_hotelId_roomId_fkey" FOREIGN KEY ("hotelId", "roomId") REFERENCES "Room"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrderEntry" ADD CONSTRAINT "OrderEntry_hotelId_customerId_fkey" FOREIGN KEY ("hotelId", "customerId") REFERENCES "Customer"("hotelId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_createdByAccountId_fkey" FOREIGN KEY ("createdByAccountId") REFERENCES "Account"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditLog" ADD CONSTRAINT "AuditLog_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditLog" ADD CONSTRAINT "AuditLog_actorAccountId_fkey" FOREIGN KEY ("actorAccountId") REFERENCES "Account"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditLog" ADD CONSTRAINT "AuditLog_actorApiKeyId_fkey" FOREIGN KEY ("actorApiKeyId") REFERENCES "ApiKey"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------------
-- Hand-written constraints (Prisma's schema language cannot express them).

-- Active stays of one room never overlap in time. A stay occupies [checkInAt, expectedCheckOutAt).
ALTER TABLE "Stay" ADD CONSTRAINT "Stay_no_overlap"
  EXCLUDE USING gist ("roomId" WITH =, tstzrange("checkInAt", "expectedCheckOutAt", '[)') WITH &&)
  WHERE ("status" IN ('reserved', 'in_house', 'expired'));

-- A stay lasts at least one hour (spec §5, §9).
ALTER TABLE "Stay" ADD CONSTRAINT "Stay_min_length"
  CHECK ("expectedCheckOutAt" >= "checkInAt" + interval '1 hour');
ALTER TABLE "Stay" ADD CONSTRAINT "Stay_amounts_non_negative"
  CHECK ("depositAmount" >= 0 AND "priceAmount" >= 0);

-- An account signs in with a mobile number, an e-mail address, or both.
ALTER TABLE "Account" ADD CONSTRAINT "Account_has_login"
  CHECK ("mobile" IS NOT NULL OR "email" IS NOT NULL);
ALTER TABLE "Account" ADD CONSTRAINT "Account_email_lower"
  CHECK ("email" IS NULL OR "email" = lower("email"));

ALTER TABLE "Room" ADD CONSTRAINT "Room_lock_power_range"
  CHECK ("lockPower" IS NULL OR "lockPower" BETWEEN 0 AND 100);
ALTER TABLE "Room" ADD CONSTRAINT "Room_prices_non_negative"
  CHECK ("depositAmount" >= 0 AND "usualPrice" >= 0 AND coalesce("weekendPrice", 0) >= 0 AND coalesce("renewalPrice", 0) >= 0);
ALTER TABLE "RoomDatePrice" ADD CONSTRAINT "RoomDatePrice_price_non_negative" CHECK ("price" >= 0);
ALTER TABLE "PriceTemplate" ADD CONSTRAINT "PriceTemplate_prices_non_negative"
  CHECK ("depositAmount" >= 0 AND "usualPrice" >= 0 AND coalesce("weekendPrice", 0) >= 0 AND coalesce("renewalPrice", 0) >= 0);
ALTER TABLE "PriceTemplateDatePrice" ADD CONSTRAINT "PriceTemplateDatePrice_price_non_negative" CHECK ("price" >= 0);

ALTER TABLE "CardEncryption" ADD CONSTRAINT "CardEncryption_keys_hex"
  CHECK ("keyA" ~ '^[0-9A-Fa-f]{12}$' AND ("keyB" IS NULL OR "keyB" ~ '^[0-9A-Fa-f]{12}$'));
ALTER TABLE "CardReader" ADD CONSTRAINT "CardReader_type" CHECK ("readerType" IN (1, 2, 3));
ALTER TABLE "CardDispenser" ADD CONSTRAINT "CardDispenser_stock_non_negative" CHECK ("stock" >= 0);

-- Credentials have a validity window that ends after it starts.
ALTER TABLE "CardGrant" ADD CONSTRAINT "CardGrant_validity" CHECK ("validUntil" IS NULL OR "validUntil" > "validFrom");
ALTER TABLE "LockPassword" ADD CONSTRAINT "LockPassword_validity" CHECK ("validUntil" IS NULL OR "validUntil" > "validFrom");
ALTER TABLE "FaceAuthorization" ADD CONSTRAINT "FaceAuthorization_validity" CHECK ("validUntil" IS NULL OR "validUntil" > "validFrom");
ALTER TABLE "Fingerprint" ADD CONSTRAINT "Fingerprint_validity" CHECK ("validUntil" IS NULL OR "validUntil" > "validFrom");

-- The order ledger is append-only: corrections are new entries (a refund), never edits.
CREATE FUNCTION "OrderEntry_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'OrderEntry is append-only' USING ERRCODE = 'restrict_violation';
END;
$$;
CREATE TRIGGER "OrderEntry_no_update" BEFORE UPDATE ON "OrderEntry"
  FOR EACH ROW EXECUTE FUNCTION "OrderEntry_append_only"();
CREATE TRIGGER "OrderEntry_no_delete" BEFORE DELETE ON "OrderEntry"
  FOR EACH ROW EXECUTE FUNCTION "OrderEntry_append_only"();
