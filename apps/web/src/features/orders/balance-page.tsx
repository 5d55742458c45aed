import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/list-page';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { BALANCE_TABS } from './balance-search';
import { CashView } from './cash-view';
import { CustomerView } from './customer-view';
import { OrdersView } from './orders-view';
import { useBalanceSearch } from './use-balance-search';

/**
 * `/order/balance`, the Balance page (issue 9 §3): the orders of a stay (or of the whole hotel)
 * with their sum and refunds from the list; a customer's balance and its recharges; and a day's
 * cash report per operator and way of paying, for the shift hand-over. Needs `order.manage`.
 */
export function BalancePage() {
  const { t } = useTranslation();
  const [search, setSearch] = useBalanceSearch();
  return (
    <div className="space-y-4" data-testid="balance-page">
      <PageHeader title={t('orders.balance.title')} />
      <Tabs value={search.tab} onValueChange={(tab) => setSearch({ tab: BALANCE_TABS.find((b) => b === tab) ?? 'orders' })}>
        <TabsList>
          <TabsTrigger value="orders" data-testid="balance-tab-orders">
            {t('orders.balance.tabs.orders')}
          </TabsTrigger>
          <TabsTrigger value="customer" data-testid="balance-tab-customer">
            {t('orders.balance.tabs.customer')}
          </TabsTrigger>
          <TabsTrigger value="cash" data-testid="balance-tab-cash">
            {t('orders.balance.tabs.cash')}
          </TabsTrigger>
        </TabsList>
        <TabsContent value="orders">
          <OrdersView />
        </TabsContent>
        <TabsContent value="customer">
          <CustomerView />
        </TabsContent>
        <TabsContent value="cash">
          <CashView />
        </TabsContent>
      </Tabs>
    </div>
  );
}
