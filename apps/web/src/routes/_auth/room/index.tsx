import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { RoomBoardPage } from '@/features/front-desk/room-board-page';
import { roomBoardSearchDefaults, roomBoardSearchSchema } from '@/features/front-desk/room-board-search';

/** The room board, where signed-in users land from /login (spec §2). */
export const Route = createFileRoute('/_auth/room/')({
  validateSearch: roomBoardSearchSchema,
  search: { middlewares: [stripSearchParams(roomBoardSearchDefaults)] },
  staticData: { titleKey: 'route.roomBoard', sectionKey: 'menu.frontDesk' },
  component: RoomBoardPage,
});
