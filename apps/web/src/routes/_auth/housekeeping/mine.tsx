import { createFileRoute } from '@tanstack/react-router';
import { housekeepingQueries } from '@/features/housekeeping/api';
import { MyRoomsPage } from '@/features/housekeeping/my-rooms-page';

/** The attendant's phone: "my rooms" of the day (issue 28 §2, docs/housekeeping.md). */
export const Route = createFileRoute('/_auth/housekeeping/mine')({
  staticData: { titleKey: 'housekeeping.myRooms', sectionKey: 'menu.housekeeping' },
  loader: ({ context }) => {
    void context.queryClient.ensureQueryData(housekeepingQueries.myRooms()).catch(() => undefined);
  },
  component: MyRoomsPage,
});
