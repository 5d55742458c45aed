-- The hotel's default check-in and check-out times (issue 9 §4), and the ranges of its settings
-- that the database itself keeps: coordinates in degrees, times of day as HH:mm.
ALTER TABLE "Hotel" ADD COLUMN     "checkInTime" VARCHAR(5) NOT NULL DEFAULT '14:00',
ADD COLUMN     "checkOutTime" VARCHAR(5) NOT NULL DEFAULT '12:00';

ALTER TABLE "Hotel" ADD CONSTRAINT "Hotel_latitude_range" CHECK ("latitude" IS NULL OR "latitude" BETWEEN -90 AND 90);
ALTER TABLE "Hotel" ADD CONSTRAINT "Hotel_longitude_range" CHECK ("longitude" IS NULL OR "longitude" BETWEEN -180 AND 180);
ALTER TABLE "Hotel" ADD CONSTRAINT "Hotel_default_times" CHECK ("checkInTime" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' AND "checkOutTime" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$');
