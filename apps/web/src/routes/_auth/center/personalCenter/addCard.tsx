import { createFileRoute } from '@tanstack/react-router';
import { AddCardPage } from '@/features/cards/admin/add-card-page';
import { writeCardAtDesk } from '@/features/cards/card-writing';

/** The personal centre's `addCard` (spec §2, hidden; issue 8 §2): a management card written on the desk reader. */
export const Route = createFileRoute('/_auth/center/personalCenter/addCard')({
  staticData: { titleKey: 'route.addManagementCard', sectionKey: 'menu.cards' },
  component: AddManagementCardRoute,
});

function AddManagementCardRoute() {
  return <AddCardPage kind="management" writeCard={writeCardAtDesk} />;
}
