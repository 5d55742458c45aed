import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { stayListInput, stayQueries } from '@/features/stays/api';
import { StayListPage } from '@/features/stays/stay-list-page';
import { stayListSearchDefaults, stayListSearchSchema } from '@/features/stays/stay-list-search';

export const Route = createFileRoute('/_auth/room/tenant')({
  validateSearch: stayListSearchSchema,
  search: { middlewares: [stripSearchParams(stayListSearchDefaults)] },
  staticData: { titleKey: 'route.stays', sectionKey: 'menu.frontDesk' },
  loaderDeps: ({ search }) => search,
  // The page's list starts loading with the navigation; filters that cannot be sent (an end before the start) ask for nothing.
  loader: ({ context, deps }) => {
    if (deps.from && deps.to && deps.from > deps.to) return;
    void context.queryClient.ensureQueryData(stayQueries.list(stayListInput(deps))).catch(() => undefined);
  },
  component: StayListPage,
});
