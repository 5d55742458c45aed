-- Staff and authority management (issue 9 §1): the hotel's record of each administrator (spec §3:
-- name, gender, nationality, birth). The e-mail or phone is the account's own.
ALTER TABLE "Membership" ADD COLUMN "name" TEXT NOT NULL DEFAULT '';
ALTER TABLE "Membership" ADD COLUMN "gender" "Gender" NOT NULL DEFAULT 'unknown';
ALTER TABLE "Membership" ADD COLUMN "nationality" TEXT NOT NULL DEFAULT '';
ALTER TABLE "Membership" ADD COLUMN "birthDate" DATE;
