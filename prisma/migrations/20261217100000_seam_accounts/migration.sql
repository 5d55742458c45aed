-- Seam workspaces as lock accounts (issue 38, second step; docs/seam.md, decision 061). A Seam
-- account is a LockAccount of provider and kind `seam` (the workspace id its username, its API key
-- sealed in "tokensSealed"): the kind picks the account's adapter, the provider names its locks'
-- ids, and the one goes with the other.
ALTER TABLE "LockAccount" DROP CONSTRAINT "LockAccount_kind_check";
ALTER TABLE "LockAccount" ADD CONSTRAINT "LockAccount_kind_check" CHECK ("kind" IN ('ttlock', 'tthotel', 'seam'));
ALTER TABLE "LockAccount" ADD CONSTRAINT "LockAccount_seam_kind" CHECK (("kind" = 'seam') = ("provider" = 'seam'));

-- A lock says which codes its keypad takes: chosen codes sent to it (online) and codes computed
-- without it (offline). Seam reports each; a TTLock lock takes both when it has a keypad, so the
-- locks already imported take their keypad's answer.
ALTER TABLE "Lock" ADD COLUMN "onlinePasscodes" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "Lock" ADD COLUMN "offlinePasscodes" BOOLEAN NOT NULL DEFAULT true;
UPDATE "Lock" SET "onlinePasscodes" = false, "offlinePasscodes" = false WHERE NOT "hasKeypad";
