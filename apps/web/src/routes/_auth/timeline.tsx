import { createFileRoute } from '@tanstack/react-router';
import { addDays, localDate } from '@console/shared';
import { StayActionById } from '@/features/stays/stay-action-by-id';
import { timelineQueries } from '@/features/timeline/api';
import { TimelinePage } from '@/features/timeline/timeline-page';
import { readUserInfo } from '@/lib/user-info';

/** The timeline (issue 28 §1): rooms down, days across, each stay a bar; its changes open the front desk's own dialogs. */
export const Route = createFileRoute('/_auth/timeline')({
  staticData: { titleKey: 'timeline.title', sectionKey: 'menu.frontDesk' },
  // The first window (yesterday and the next two weeks, as the page opens) starts loading with the navigation.
  loader: ({ context }) => {
    const timeZone = readUserInfo()?.hotel.timeZone ?? 'UTC';
    const from = addDays(localDate(new Date(), timeZone), -1);
    void context.queryClient.ensureQueryData(timelineQueries.window({ from, days: 14 })).catch(() => undefined);
  },
  component: () => <TimelinePage actions={(action, close) => <StayActionById request={action} onClose={close} />} />,
});
