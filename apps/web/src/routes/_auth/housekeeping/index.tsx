import { createFileRoute } from '@tanstack/react-router';
import { housekeepingQueries } from '@/features/housekeeping/api';
import { writeCardAtDesk } from '@/features/cards/card-writing';
import { HousekeepingPage } from '@/features/housekeeping/housekeeping-page';

/** The housekeeping supervisor's page (issue 28 §2, docs/housekeeping.md). */
export const Route = createFileRoute('/_auth/housekeeping/')({
  staticData: { titleKey: 'housekeeping.title', sectionKey: 'menu.housekeeping' },
  loader: ({ context }) => {
    void context.queryClient.ensureQueryData(housekeepingQueries.day()).catch(() => undefined);
  },
  component: SupervisorPage,
});

function SupervisorPage() {
  return <HousekeepingPage writeCard={writeCardAtDesk} />;
}
