-- Third-party API keys: what each may do (permissions, read or manage per area) and until when.
ALTER TABLE "ApiKey" ADD COLUMN     "permissions" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "expiresAt" TIMESTAMPTZ(3);
