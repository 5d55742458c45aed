import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { prefetchLockAccounts } from '@/features/lock-accounts/api';
import { LockAccountsPage } from '@/features/lock-accounts/lock-accounts-page';
import { lockAccountsSearchDefaults, lockAccountsSearchSchema } from '@/features/lock-accounts/lock-accounts-search';

/** The hotel's lock accounts and its locks (issue 16 §2): owners and administrators (lock.accounts). */
export const Route = createFileRoute('/_auth/lockAccounts')({
  validateSearch: lockAccountsSearchSchema,
  search: { middlewares: [stripSearchParams(lockAccountsSearchDefaults)] },
  staticData: { titleKey: 'lockAccounts.title', sectionKey: 'menu.administration' },
  loaderDeps: ({ search }) => search,
  // The accounts start loading with the navigation, then the locks of the URL's filters when the page will list them.
  loader: ({ context, deps }) => prefetchLockAccounts(context.queryClient, deps),
  component: LockAccountsPage,
});
