import { createFileRoute } from '@tanstack/react-router';
import { roomSetupQueries } from '@/features/room-setup/api';
import { RoomGroupsPage } from '@/features/room-setup/room-groups-page';

export const Route = createFileRoute('/_auth/room/category')({
  staticData: { titleKey: 'route.roomGroups', sectionKey: 'menu.roomSetup' },
  loader: ({ context }) => void context.queryClient.ensureQueryData(roomSetupQueries.groups()).catch(() => undefined),
  component: RoomGroupsPage,
});
