-- Issue 20 §3: guest messages (SMS and e-mail once the lock confirmed the code): the hotel's sender
-- and language, its own templates per channel and language, and each stay's delivery log.
-- CreateTable
CREATE TABLE "GuestMessageSettings" (
    "hotelId" INTEGER NOT NULL,
    "language" VARCHAR(8) NOT NULL,
    "senderName" TEXT NOT NULL DEFAULT '',
    "senderEmail" TEXT NOT NULL DEFAULT '',
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "GuestMessageSettings_pkey" PRIMARY KEY ("hotelId")
);

-- CreateTable
CREATE TABLE "GuestMessageTemplate" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "channel" VARCHAR(8) NOT NULL,
    "language" VARCHAR(8) NOT NULL,
    "subject" TEXT NOT NULL DEFAULT '',
    "body" TEXT NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "GuestMessageTemplate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GuestMessage" (
    "id" SERIAL NOT NULL,
    "hotelId" INTEGER NOT NULL,
    "stayId" INTEGER NOT NULL,
    "passwordId" INTEGER,
    "channel" VARCHAR(8) NOT NULL,
    "recipient" TEXT NOT NULL,
    "language" VARCHAR(8) NOT NULL,
    "state" VARCHAR(8) NOT NULL DEFAULT 'queued',
    "trigger" VARCHAR(8) NOT NULL,
    "onceKey" TEXT,
    "error" VARCHAR(32),
    "errorDetail" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "requestedByAccountId" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sentAt" TIMESTAMPTZ(3),
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "GuestMessage_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "GuestMessageTemplate_hotelId_channel_language_key" ON "GuestMessageTemplate"("hotelId", "channel", "language");

-- CreateIndex
CREATE INDEX "GuestMessage_hotelId_stayId_createdAt_idx" ON "GuestMessage"("hotelId", "stayId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "GuestMessage_onceKey_key" ON "GuestMessage"("onceKey");

-- AddForeignKey
ALTER TABLE "GuestMessageSettings" ADD CONSTRAINT "GuestMessageSettings_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GuestMessageTemplate" ADD CONSTRAINT "GuestMessageTemplate_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GuestMessage" ADD CONSTRAINT "GuestMessage_hotelId_fkey" FOREIGN KEY ("hotelId") REFERENCES "Hotel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GuestMessage" ADD CONSTRAINT "GuestMessage_hotelId_stayId_fkey" FOREIGN KEY ("hotelId", "stayId") REFERENCES "Stay"("hotelId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
