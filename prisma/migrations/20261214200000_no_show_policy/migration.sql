-- What the night audit does with a reservation whose guest never came (issue 36 §6, docs/reports.md
-- "The day close"): `release` its room (as before), or `charge_first_night` as well: the first
-- night's booked amount posted on its bill as a no-show fee, whichever way it became a no-show (its
-- job, the sweep, the close).
ALTER TABLE "Hotel" ADD COLUMN "noShowPolicy" VARCHAR(24) NOT NULL DEFAULT 'release';
ALTER TABLE "Hotel" ADD CONSTRAINT "Hotel_noShowPolicy_check" CHECK ("noShowPolicy" IN ('release', 'charge_first_night'));
