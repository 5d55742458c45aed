import { createFileRoute } from '@tanstack/react-router';
import { AddCardPage } from '@/features/cards/admin/add-card-page';
import { writeCardAtDesk } from '@/features/cards/card-writing';

/** The personal centre's `addUniversalCard` (spec §2, hidden; issue 8 §2): a universal card written on the desk reader. */
export const Route = createFileRoute('/_auth/center/personalCenter/addUniversalCard')({
  staticData: { titleKey: 'route.addUniversalCard', sectionKey: 'menu.cards' },
  component: AddUniversalCardRoute,
});

function AddUniversalCardRoute() {
  return <AddCardPage kind="universal" writeCard={writeCardAtDesk} />;
}
