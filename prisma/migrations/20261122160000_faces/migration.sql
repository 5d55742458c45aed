-- Issue 7 §4: faces. A face keeps the SHA-256 of its photo, the feature data the delivery engine
-- sends to the lock (docs/credential-delivery.md); no face could be created before this issue,
-- so the column needs no default. Authorisations are revoked by stay, hence the index.
-- Column and index drafted with `schema:draft -- HEAD`; the constraints below are hand-written.

-- AlterTable
ALTER TABLE "Face" ADD COLUMN     "imageSha256" CHAR(64) NOT NULL;

-- CreateIndex
CREATE INDEX "FaceAuthorization_hotelId_stayId_idx" ON "FaceAuthorization"("hotelId", "stayId");

-- Spec §5: face id, note and image cannot be empty.
ALTER TABLE "Face" ADD CONSTRAINT "Face_required_fields" CHECK (btrim("faceId") <> '' AND btrim("note") <> '' AND "imageUrl" <> '');
ALTER TABLE "Face" ADD CONSTRAINT "Face_imageSha256_hex" CHECK ("imageSha256" ~ '^[0-9a-f]{64}$');

-- One live authorisation of a face per room: two requests at the same moment cannot both add one.
CREATE UNIQUE INDEX "FaceAuthorization_live_face_room_key" ON "FaceAuthorization"("faceId", "roomId") WHERE "deliveryState" IN ('pending', 'on_lock', 'failed', 'unknown');
