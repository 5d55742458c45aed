import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { UnlockRecordsPage } from '@/features/unlock-records/unlock-records-page';
import { unlockRecordsSearchDefaults, unlockRecordsSearchSchema } from '@/features/unlock-records/unlock-records-search';

/** Unlock records of the hotel by person, or of one credential (issue 7 §6). */
export const Route = createFileRoute('/_auth/unlock-records')({
  validateSearch: unlockRecordsSearchSchema,
  search: { middlewares: [stripSearchParams(unlockRecordsSearchDefaults)] },
  staticData: { titleKey: 'route.unlockRecords', sectionKey: 'menu.frontDesk' },
  loaderDeps: ({ search }) => search,
  // The records of the URL's filters start loading with the navigation; the api module comes with
  // the page's chunk (it reads days with packages/shared, whose runtime is not in every page's first download).
  loader: ({ context, deps }) =>
    void import('@/features/unlock-records/api').then(({ prefetchUnlockRecords }) => prefetchUnlockRecords(context.queryClient, deps)).catch(() => undefined),
  component: UnlockRecordsPage,
});
