import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { cardQueries } from '@/features/cards/api';
import { cardListSearchDefaults, cardListSearchSchema } from '@/features/cards/admin/card-admin-search';
import { CardListPage } from '@/features/cards/admin/card-list-page';

/** The personal centre's universal cards (spec §2, hidden `universalCardList`; issue 8 §2). */
export const Route = createFileRoute('/_auth/center/personalCenter/universalCardList')({
  validateSearch: cardListSearchSchema,
  search: { middlewares: [stripSearchParams(cardListSearchDefaults)] },
  staticData: { titleKey: 'route.universalCards', sectionKey: 'menu.cards' },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => void context.queryClient.ensureQueryData(cardQueries.adminList('universal', deps)).catch(() => undefined),
  component: UniversalCardListRoute,
});

function UniversalCardListRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return <CardListPage kind="universal" search={search} onSearch={(patch) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true })} />;
}
