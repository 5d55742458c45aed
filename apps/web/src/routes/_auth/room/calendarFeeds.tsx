import { createFileRoute } from '@tanstack/react-router';
import { CalendarFeedsPage } from '@/features/feeds/calendar-feeds-page';

/** Channel calendar feeds and each room's export address (issue 20 §1): managers (room.manage). */
export const Route = createFileRoute('/_auth/room/calendarFeeds')({
  staticData: { titleKey: 'feeds.title', sectionKey: 'menu.roomSetup' },
  component: CalendarFeedsPage,
});
