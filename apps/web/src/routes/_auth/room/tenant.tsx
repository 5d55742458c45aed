import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { TenantListPage } from '@/features/tenants/tenant-list-page';
import { tenantSearchDefaults, tenantSearchSchema } from '@/features/tenants/tenant-search';

export const Route = createFileRoute('/_auth/room/tenant')({
  validateSearch: tenantSearchSchema,
  search: { middlewares: [stripSearchParams(tenantSearchDefaults)] },
  staticData: { titleKey: 'route.tenants', sectionKey: 'menu.frontDesk' },
  component: TenantListPage,
});
