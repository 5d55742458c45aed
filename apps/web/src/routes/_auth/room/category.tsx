import { createFileRoute } from '@tanstack/react-router';
import { RoomGroupsPage } from '@/features/room-setup/room-groups-page';

export const Route = createFileRoute('/_auth/room/category')({
  staticData: { titleKey: 'route.roomGroups', sectionKey: 'menu.roomSetup' },
  component: RoomGroupsPage,
});
