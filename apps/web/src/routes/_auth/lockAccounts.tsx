import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { LockAccountsPage } from '@/features/lock-accounts/lock-accounts-page';
import { lockAccountsSearchDefaults, lockAccountsSearchSchema } from '@/features/lock-accounts/lock-accounts-search';

/** The hotel's lock accounts and its locks (issue 16 §2): owners and administrators (lock.accounts). */
export const Route = createFileRoute('/_auth/lockAccounts')({
  validateSearch: lockAccountsSearchSchema,
  search: { middlewares: [stripSearchParams(lockAccountsSearchDefaults)] },
  staticData: { titleKey: 'lockAccounts.title', sectionKey: 'menu.administration' },
  component: LockAccountsPage,
});
