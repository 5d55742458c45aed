import { createFileRoute } from '@tanstack/react-router';
import { StayActionById } from '@/features/stays/stay-action-by-id';
import { timelineQueries } from '@/features/timeline/api';
import { TimelinePage } from '@/features/timeline/timeline-page';
import { readUserInfo } from '@/lib/user-info';

/**
 * Yesterday in the hotel's zone (YYYY-MM-DD), the first day the page opens on (`addDays(localDate(now), -1)`
 * in its component). With Intl alone: a route's loader is in the first download, which must not take in
 * the shared package's date library and zod (29 kB gzipped on the sign-in page).
 */
function yesterdayIn(timeZone: string): string | null {
  try {
    const [y, m, d] = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
      .format(new Date())
      .split('-')
      .map(Number);
    return new Date(Date.UTC(y!, m! - 1, d! - 1)).toISOString().slice(0, 10);
  } catch {
    return null;
  }
}

/** The timeline (issue 28 §1): rooms down, days across, each stay a bar; its changes open the front desk's own dialogs. */
export const Route = createFileRoute('/_auth/timeline')({
  staticData: { titleKey: 'timeline.title', sectionKey: 'menu.frontDesk' },
  // The first window (yesterday and the next two weeks, as the page opens) starts loading with the navigation.
  loader: ({ context }) => {
    const from = yesterdayIn(readUserInfo()?.hotel.timeZone ?? 'UTC');
    if (from) void context.queryClient.ensureQueryData(timelineQueries.window({ from, days: 14 })).catch(() => undefined);
  },
  component: () => <TimelinePage actions={(action, close) => <StayActionById request={action} onClose={close} />} />,
});
