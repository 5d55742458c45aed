import { createFileRoute } from '@tanstack/react-router';
import { ReportsPage } from '@/features/reports/reports-page';

/** The manager's reports (issue 26 §2): a day, a week or a month with its figures, the day close, the files and the chart. */
export const Route = createFileRoute('/_auth/reports')({
  staticData: { titleKey: 'route.reports', sectionKey: 'menu.orders' },
  loaderDeps: ({ search }) => search,
  // The report starts loading with the navigation; the api module comes with the page's chunk (the route's code is in every page's first download).
  loader: ({ context, deps }) =>
    void import('@/features/reports/api').then(({ prefetchReports }) => prefetchReports(context.queryClient, deps)).catch(() => undefined),
  component: ReportsPage,
});
