import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { cardListSearchDefaults, cardListSearchSchema } from '@/features/card-admin/card-admin-search';
import { CardListPage } from '@/features/card-admin/card-list-page';

/** The personal centre's management cards (spec §2, hidden `cardList`; issue 8 §2). */
export const Route = createFileRoute('/_auth/center/personalCenter/cardList')({
  validateSearch: cardListSearchSchema,
  search: { middlewares: [stripSearchParams(cardListSearchDefaults)] },
  staticData: { titleKey: 'route.managementCards', sectionKey: 'menu.cards' },
  component: CardListRoute,
});

function CardListRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return <CardListPage kind="management" search={search} onSearch={(patch) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true })} />;
}
