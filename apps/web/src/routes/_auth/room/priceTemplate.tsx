import { createFileRoute } from '@tanstack/react-router';
import { roomSetupQueries } from '@/features/room-setup/api';
import { PriceTemplatesPage } from '@/features/room-setup/price-templates-page';

export const Route = createFileRoute('/_auth/room/priceTemplate')({
  staticData: { titleKey: 'route.priceTemplates', sectionKey: 'menu.roomSetup' },
  loader: ({ context }) => void context.queryClient.ensureQueryData(roomSetupQueries.priceTemplates()).catch(() => undefined),
  component: PriceTemplatesPage,
});
