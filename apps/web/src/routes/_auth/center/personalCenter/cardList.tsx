import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { cardQueries } from '@/features/cards/api';
import { cardListSearchDefaults, cardListSearchSchema } from '@/features/cards/admin/card-admin-search';
import { CardListPage } from '@/features/cards/admin/card-list-page';

/** The personal centre's management cards (spec §2, hidden `cardList`; issue 8 §2). */
export const Route = createFileRoute('/_auth/center/personalCenter/cardList')({
  validateSearch: cardListSearchSchema,
  search: { middlewares: [stripSearchParams(cardListSearchDefaults)] },
  staticData: { titleKey: 'route.managementCards', sectionKey: 'menu.cards' },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => void context.queryClient.ensureQueryData(cardQueries.adminList('management', deps)).catch(() => undefined),
  component: CardListRoute,
});

function CardListRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return <CardListPage kind="management" search={search} onSearch={(patch) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true })} />;
}
