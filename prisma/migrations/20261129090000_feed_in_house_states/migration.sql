-- A channel's change to a booking whose guest is already in (docs/calendar-feeds.md "After the
-- guest arrived"): `moved_in_house` (dates changed, not followed by itself: the desk decides) and
-- `gone_in_house` (cancelled on the channel while the guest is in: the stay is left).
ALTER TABLE "CalendarFeedBooking" DROP CONSTRAINT "CalendarFeedBooking_state";
ALTER TABLE "CalendarFeedBooking" ADD CONSTRAINT "CalendarFeedBooking_state"
  CHECK ("state" IN ('booked', 'conflict', 'cancelled', 'past', 'moved_in_house', 'gone_in_house'));
