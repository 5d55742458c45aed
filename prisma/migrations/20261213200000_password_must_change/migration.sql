-- A password the account did not choose (issue 39 §7): the first password of an account added from
-- the staff page, sent by SMS, must be changed at the first sign-in; until then the account's
-- sessions may only change it or sign out (modules/auth/session.service.ts).
ALTER TABLE "Account" ADD COLUMN "mustChangePassword" BOOLEAN NOT NULL DEFAULT false;
