import { createFileRoute, redirect } from '@tanstack/react-router';
import { RoomCards } from '@/features/cards/room-cards';
import { CredentialsTab } from '@/features/credentials/credentials-tab';
import { RoomFaces } from '@/features/faces/room-faces';
import { OutOfOrderSection } from '@/features/housekeeping/out-of-order-section';
import { prefetchRoomDetail } from '@/features/room-detail/api';
import { RoomDetailPage } from '@/features/room-detail/room-detail-page';
import { roomDetailSearchSchema } from '@/features/room-detail/room-detail-search';

/**
 * The room page, with the Credentials tab of the credentials feature in its slot: passwords, then faces, then room cards;
 * and the housekeeping feature's out-of-order ranges under the room's status.
 */
function RoomPage() {
  return (
    <RoomDetailPage
      credentialsTab={(props) => (
        <div className="space-y-4">
          <CredentialsTab {...props} />
          <RoomFaces {...props} />
          <RoomCards {...props} />
        </div>
      )}
      outOfOrder={({ roomId, roomName }) => <OutOfOrderSection roomId={roomId} roomName={roomName} />}
    />
  );
}

export const Route = createFileRoute('/_auth/room/$roomId')({
  params: {
    parse: (params) => ({ roomId: Number(params.roomId) }),
    stringify: (params) => ({ roomId: String(params.roomId) }),
  },
  beforeLoad: ({ params }) => {
    if (!Number.isInteger(params.roomId) || params.roomId <= 0) throw redirect({ to: '/404' });
  },
  validateSearch: roomDetailSearchSchema,
  staticData: { titleKey: 'route.roomDetail', sectionKey: 'menu.frontDesk' },
  loaderDeps: ({ search }) => ({ tab: search.tab }),
  // The room (and the stays tab's first page) start loading with the navigation; not awaited: the page keeps its skeleton and its load error.
  loader: ({ context, params, deps }) => prefetchRoomDetail(context.queryClient, params.roomId, deps.tab),
  component: RoomPage,
});
