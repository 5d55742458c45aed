import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { prefetchCustomers } from '@/features/customers/api';
import { CustomersPage } from '@/features/customers/customers-page';
import { customerSearchDefaults, customerSearchSchema } from '@/features/customers/customer-search';

export const Route = createFileRoute('/_auth/customer/customer')({
  validateSearch: customerSearchSchema,
  search: { middlewares: [stripSearchParams(customerSearchDefaults)] },
  staticData: { titleKey: 'route.customers', sectionKey: 'menu.customers' },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => prefetchCustomers(context.queryClient, deps),
  component: CustomersPage,
});
