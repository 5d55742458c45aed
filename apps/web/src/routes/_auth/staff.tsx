import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { staffQueries } from '@/features/staff/api';
import { StaffPage } from '@/features/staff/staff-page';
import { staffSearchDefaults, staffSearchSchema } from '@/features/staff/staff-search';

/** Administrator and permission management (spec §2 "authority management", §6; issue 9 §1): owners and administrators (staff.manage). */
export const Route = createFileRoute('/_auth/staff')({
  validateSearch: staffSearchSchema,
  search: { middlewares: [stripSearchParams(staffSearchDefaults)] },
  staticData: { titleKey: 'staff.title', sectionKey: 'menu.administration' },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => void context.queryClient.ensureQueryData(staffQueries.list(deps)).catch(() => undefined),
  component: StaffPage,
});
