import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { CustomersPage, customerSearchDefaults, customerSearchSchema } from '@/features/customers/customers-page';

export const Route = createFileRoute('/_auth/customer/customer')({
  validateSearch: customerSearchSchema,
  search: { middlewares: [stripSearchParams(customerSearchDefaults)] },
  staticData: { titleKey: 'route.customers', sectionKey: 'menu.customers' },
  component: CustomersPage,
});
