import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { prefetchLockMessages } from '@/features/locks/api';
import { LockMessagesPage } from '@/features/locks/lock-messages-page';
import { lockMessagesSearchDefaults, lockMessagesSearchSchema } from '@/features/locks/lock-messages-search';

/** Alarms and notices from the rooms' locks (issue 7 §5); the navbar's bell leads here. */
export const Route = createFileRoute('/_auth/lock-messages')({
  validateSearch: lockMessagesSearchSchema,
  search: { middlewares: [stripSearchParams(lockMessagesSearchDefaults)] },
  staticData: { titleKey: 'route.lockMessages', sectionKey: 'menu.frontDesk' },
  loaderDeps: ({ search }) => search,
  // The page's list (and the room it is filtered to) start loading with the navigation; not awaited.
  loader: ({ context, deps }) => prefetchLockMessages(context.queryClient, deps),
  component: LockMessagesPage,
});
