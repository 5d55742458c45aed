import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { prefetchRoomBoard } from '@/features/front-desk/api';
import { RoomBoardPage } from '@/features/front-desk/room-board-page';
import { roomBoardSearchDefaults, roomBoardSearchSchema, roomListInput } from '@/features/front-desk/room-board-search';

/** The room board, where signed-in users land from /login (spec §2). */
export const Route = createFileRoute('/_auth/room/')({
  validateSearch: roomBoardSearchSchema,
  search: { middlewares: [stripSearchParams(roomBoardSearchDefaults)] },
  staticData: { titleKey: 'route.roomBoard', sectionKey: 'menu.frontDesk' },
  // The rooms and groups are asked for as the route starts, while its chunk loads, not once the page
  // has rendered (issue 18 §4: on a phone's link, the page's data came after its code and its lazy
  // parts). Not awaited: the page shows its skeleton meanwhile, as before.
  loaderDeps: ({ search }) => roomListInput(search),
  loader: ({ context, deps }) => prefetchRoomBoard(context.queryClient, deps),
  component: RoomBoardPage,
});
