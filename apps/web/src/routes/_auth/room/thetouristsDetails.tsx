import { createFileRoute } from '@tanstack/react-router';
import { GuestCards } from '@/features/cards/guest-cards';
import { GuestDetailPage } from '@/features/tenants/guest-detail-page';
import { guestDetailSearchSchema } from '@/features/tenants/guest-detail-search';

/** The guest page with the stay's room cards (the cards feature's) in its slot: return, report lost, write. */
function GuestPage() {
  return <GuestDetailPage stayCards={(stay, guestName) => <GuestCards stay={stay} guestName={guestName} />} />;
}

/** The guest detail page of spec §2: `?id=<manage_id>&other_information=...`, reached from card reading. */
export const Route = createFileRoute('/_auth/room/thetouristsDetails')({
  validateSearch: guestDetailSearchSchema,
  staticData: { titleKey: 'route.guestDetail', sectionKey: 'menu.frontDesk' },
  component: GuestPage,
});
