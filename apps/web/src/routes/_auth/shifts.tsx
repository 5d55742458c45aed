import { createFileRoute } from '@tanstack/react-router';
import { ShiftsPage } from '@/features/shifts/shifts-page';

/** Cashier shifts (issue 26 §2): the clerk's shift, opened with the float counted and closed by counting, and each shift's report. */
export const Route = createFileRoute('/_auth/shifts')({
  staticData: { titleKey: 'route.shifts', sectionKey: 'menu.orders' },
  loaderDeps: ({ search }) => search,
  // The open shift and the shifts start loading with the navigation; the api module comes with the page's chunk (the route's code is in every page's first download).
  loader: ({ context, deps }) =>
    void import('@/features/shifts/api').then(({ prefetchShifts }) => prefetchShifts(context.queryClient, deps)).catch(() => undefined),
  component: ShiftsPage,
});
