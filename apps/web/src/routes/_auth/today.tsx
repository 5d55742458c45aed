import { createFileRoute } from '@tanstack/react-router';
import { ArrivalsPanel } from '@/features/front-desk/arrivals-panel';
import { TodayPage } from '@/features/today/today-page';

/** The today board (issue 9 §6, the spec's "home"): the hotel's day at a glance, each figure a link to its list, and the day's arrivals (issue 17 §4). */
export const Route = createFileRoute('/_auth/today')({
  staticData: { titleKey: 'route.today', sectionKey: 'menu.frontDesk' },
  component: () => <TodayPage arrivals={<ArrivalsPanel />} />,
});
