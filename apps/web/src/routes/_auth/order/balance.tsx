import { createFileRoute } from '@tanstack/react-router';
import { BalancePage } from '@/features/orders/balance-page';

/** The Balance page (issue 9 §3): orders per stay with refunds, a customer's balance and recharges, and the day's cash report per operator. */
export const Route = createFileRoute('/_auth/order/balance')({
  staticData: { titleKey: 'route.balance', sectionKey: 'menu.orders' },
  loaderDeps: ({ search }) => search,
  // The orders start loading with the navigation; the api module comes with the page's chunk (the route's code is in every page's first download).
  loader: ({ context, deps }) =>
    void import('@/features/orders/api').then(({ prefetchOrders }) => prefetchOrders(context.queryClient, deps)).catch(() => undefined),
  component: BalancePage,
});
