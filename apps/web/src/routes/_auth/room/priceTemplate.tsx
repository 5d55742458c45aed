import { createFileRoute } from '@tanstack/react-router';
import { PriceTemplatesPage } from '@/features/room-setup/price-templates-page';

export const Route = createFileRoute('/_auth/room/priceTemplate')({
  staticData: { titleKey: 'route.priceTemplates', sectionKey: 'menu.roomSetup' },
  component: PriceTemplatesPage,
});
