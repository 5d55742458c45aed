import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { cardQueries } from '@/features/cards/api';
import { selectRoomsSearchDefaults, selectRoomsSearchSchema } from '@/features/cards/admin/card-admin-search';
import { SelectRoomsPage } from '@/features/cards/admin/select-rooms-page';

/** The personal centre's `selectRoomList` (spec §2, hidden "choose room"): the rooms of a management or universal card. */
export const Route = createFileRoute('/_auth/center/personalCenter/selectRoomList')({
  validateSearch: selectRoomsSearchSchema,
  search: { middlewares: [stripSearchParams(selectRoomsSearchDefaults)] },
  staticData: { titleKey: 'route.selectRooms', sectionKey: 'menu.cards' },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => void context.queryClient.ensureQueryData(cardQueries.roomChoice(deps)).catch(() => undefined),
  component: SelectRoomListRoute,
});

function SelectRoomListRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return <SelectRoomsPage search={search} onSearch={(patch) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true })} />;
}
