import { createFileRoute } from '@tanstack/react-router';
import { GuestDetailPage, guestDetailSearchSchema } from '@/features/tenants/guest-detail-page';

/** The guest detail page of spec §2: `?id=<manage_id>&other_information=...`, reached from card reading. */
export const Route = createFileRoute('/_auth/room/thetouristsDetails')({
  validateSearch: guestDetailSearchSchema,
  staticData: { titleKey: 'route.guestDetail', sectionKey: 'menu.frontDesk' },
  component: GuestDetailPage,
});
