-- Arrivals without a key (issue 27, docs/access-rules.md "Arrivals not ready"): when the hotel's
-- managers were told of this one by e-mail, so each arrival is told once.
ALTER TABLE "Stay" ADD COLUMN "accessAlertAt" TIMESTAMPTZ(3);
