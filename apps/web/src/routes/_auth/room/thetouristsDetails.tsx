import { createFileRoute } from '@tanstack/react-router';
import { GuestDetailPage } from '@/features/tenants/guest-detail-page';
import { guestDetailSearchSchema } from '@/features/tenants/guest-detail-search';

/** The guest detail page of spec §2: `?id=<manage_id>&other_information=...`, reached from card reading. */
export const Route = createFileRoute('/_auth/room/thetouristsDetails')({
  validateSearch: guestDetailSearchSchema,
  staticData: { titleKey: 'route.guestDetail', sectionKey: 'menu.frontDesk' },
  component: GuestDetailPage,
});
