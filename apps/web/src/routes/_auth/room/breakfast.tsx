import { createFileRoute } from '@tanstack/react-router';
import { BreakfastPage } from '@/features/tenants/breakfast-page';
import { breakfastSearchSchema } from '@/features/tenants/breakfast-search';

export const Route = createFileRoute('/_auth/room/breakfast')({
  validateSearch: breakfastSearchSchema,
  staticData: { titleKey: 'route.breakfast', sectionKey: 'menu.frontDesk' },
  component: BreakfastPage,
});
