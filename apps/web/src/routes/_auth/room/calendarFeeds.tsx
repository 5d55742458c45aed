import { createFileRoute } from '@tanstack/react-router';
import { feedQueries } from '@/features/feeds/api';
import { CalendarFeedsPage } from '@/features/feeds/calendar-feeds-page';

/** Channel calendar feeds and each room's export address (issue 20 §1): managers (room.manage). */
export const Route = createFileRoute('/_auth/room/calendarFeeds')({
  staticData: { titleKey: 'feeds.title', sectionKey: 'menu.roomSetup' },
  // The feeds start loading with the navigation (the rooms are not: their failure is a toast of the query's own, which a
  // failed start would show twice).
  loader: ({ context }) => void context.queryClient.ensureQueryData(feedQueries.list()).catch(() => undefined),
  component: CalendarFeedsPage,
});
