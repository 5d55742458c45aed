import { createFileRoute } from '@tanstack/react-router';
import { DispensersPage } from '@/features/readers/dispensers-page';
import { readerQueries } from '@/features/readers/api';

/** Card dispensers (issue 8 §5): the desk's dispenser through its reader service, and the hotel's registered ones. */
export const Route = createFileRoute('/_auth/cardDispenser')({
  staticData: { titleKey: 'route.cardDispensers', sectionKey: 'menu.deskDevices' },
  loader: ({ context }) => void context.queryClient.ensureQueryData(readerQueries.dispensers()).catch(() => undefined),
  component: DispensersPage,
});
