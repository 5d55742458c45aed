import { createFileRoute } from '@tanstack/react-router';
import { GuestCards } from '@/features/cards/guest-cards';
import { GuestStayBill } from '@/features/stays/bills/stay-folio';
import { stayQueries } from '@/features/stays/api';
import { GuestDetailPage } from '@/features/stays/guest-detail-page';
import { guestDetailSearchSchema } from '@/features/stays/guest-detail-search';

/** The guest page with the stay's bill (the front desk's: collect what is owed) and room cards (the cards feature's: return, report lost, write) in its slots. */
function GuestPage() {
  return (
    <GuestDetailPage stayBill={(stay) => <GuestStayBill stay={stay} />} stayCards={(stay, guestName) => <GuestCards stay={stay} guestName={guestName} />} />
  );
}

/** The guest detail page of spec §2: `?id=<manage_id>&other_information=...`, reached from card reading. */
export const Route = createFileRoute('/_auth/room/thetouristsDetails')({
  validateSearch: guestDetailSearchSchema,
  staticData: { titleKey: 'route.guestDetail', sectionKey: 'menu.frontDesk' },
  loaderDeps: ({ search }) => ({ id: search.id }),
  loader: ({ context, deps }) => {
    if (deps.id > 0) void context.queryClient.ensureQueryData(stayQueries.guest(deps.id)).catch(() => undefined);
  },
  component: GuestPage,
});
