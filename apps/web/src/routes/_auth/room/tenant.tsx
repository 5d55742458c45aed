import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { TenantListPage, tenantSearchDefaults, tenantSearchSchema } from '@/features/tenants/tenant-list-page';

export const Route = createFileRoute('/_auth/room/tenant')({
  validateSearch: tenantSearchSchema,
  search: { middlewares: [stripSearchParams(tenantSearchDefaults)] },
  staticData: { titleKey: 'route.tenants', sectionKey: 'menu.frontDesk' },
  component: TenantListPage,
});
