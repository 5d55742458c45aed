import { createFileRoute } from '@tanstack/react-router';
import { feedQueries } from '@/features/feeds/api';
import { CalendarFeedsPage } from '@/features/feeds/calendar-feeds-page';

/** Channel calendar feeds and each room's export address (issue 20 §1): managers (room.manage). */
export const Route = createFileRoute('/_auth/room/calendarFeeds')({
  staticData: { titleKey: 'feeds.title', sectionKey: 'menu.roomSetup' },
  // The feeds and the rooms of the export card start loading with the navigation.
  loader: ({ context }) => {
    void context.queryClient.ensureQueryData(feedQueries.list()).catch(() => undefined);
    void context.queryClient.ensureQueryData(feedQueries.rooms()).catch(() => undefined);
  },
  component: CalendarFeedsPage,
});
