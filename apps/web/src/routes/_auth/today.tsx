import { createFileRoute } from '@tanstack/react-router';
import { frontDeskQueries } from '@/features/front-desk/api';
import { ArrivalsPanel } from '@/features/front-desk/arrivals-panel';
import { todayQueries } from '@/features/today/api';
import { TodayPage } from '@/features/today/today-page';

/** The today board (issue 9 §6, the spec's "home"): the hotel's day at a glance, each figure a link to its list, and the day's arrivals (issue 17 §4). */
export const Route = createFileRoute('/_auth/today')({
  staticData: { titleKey: 'route.today', sectionKey: 'menu.frontDesk' },
  // The day's figures and today's arrivals (the panel opens on today) start loading with the navigation.
  loader: ({ context }) => {
    void context.queryClient.ensureQueryData(todayQueries.board()).catch(() => undefined);
    void context.queryClient.ensureQueryData(frontDeskQueries.arrivals({})).catch(() => undefined);
  },
  component: () => <TodayPage arrivals={<ArrivalsPanel />} />,
});
