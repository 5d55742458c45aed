import { createFileRoute } from '@tanstack/react-router';
import { TrialBalancePage } from '@/features/journal/trial-balance-page';

/** The trial balance of a business date (issue 36): the accounts with their drill-down, the checks that the books tie, the exports and the general ledger. */
export const Route = createFileRoute('/_auth/order/trialBalance')({
  staticData: { titleKey: 'route.trialBalance', sectionKey: 'menu.orders' },
  loaderDeps: ({ search }) => search,
  // The day's trial balance starts loading with the navigation; the api module comes with the page's chunk (the route's code is in every page's first download).
  loader: ({ context, deps }) =>
    void import('@/features/journal/api').then(({ prefetchTrialBalance }) => prefetchTrialBalance(context.queryClient, deps)).catch(() => undefined),
  component: TrialBalancePage,
});
