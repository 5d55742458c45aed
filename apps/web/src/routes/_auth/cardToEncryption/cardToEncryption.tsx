import { createFileRoute } from '@tanstack/react-router';
import { prefetchRoomCard } from '@/features/cards/api';
import { roomCardSearchSchema } from '@/features/cards/admin/card-admin-search';
import { RoomCardPage } from '@/features/cards/admin/room-card-page';
import { writeCardAtDesk } from '@/features/cards/card-writing';

/** Room card encryption (spec §2; issue 8 §3): write or rewrite a card for a room on the desk reader. */
export const Route = createFileRoute('/_auth/cardToEncryption/cardToEncryption')({
  validateSearch: roomCardSearchSchema,
  staticData: { titleKey: 'route.roomCardEncryption', sectionKey: 'menu.cards' },
  loaderDeps: ({ search }) => ({ roomId: search.roomId }),
  loader: ({ context, deps }) => prefetchRoomCard(context.queryClient, deps.roomId),
  component: RoomCardRoute,
});

function RoomCardRoute() {
  const { roomId } = Route.useSearch();
  const navigate = Route.useNavigate();
  return <RoomCardPage writeCard={writeCardAtDesk} roomId={roomId} onRoom={(id) => void navigate({ search: { roomId: id }, replace: true })} />;
}
