import { createFileRoute } from '@tanstack/react-router';
import { BalancePage } from '@/features/orders/balance-page';

/** The Balance page (issue 9 §3): orders per stay with refunds, a customer's balance and recharges, and the day's cash report per operator. */
export const Route = createFileRoute('/_auth/order/balance')({
  staticData: { titleKey: 'route.balance', sectionKey: 'menu.orders' },
  component: BalancePage,
});
