import { createFileRoute } from '@tanstack/react-router';
import { BreakfastPage, breakfastSearchSchema } from '@/features/tenants/breakfast-page';

export const Route = createFileRoute('/_auth/room/breakfast')({
  validateSearch: breakfastSearchSchema,
  staticData: { titleKey: 'route.breakfast', sectionKey: 'menu.frontDesk' },
  component: BreakfastPage,
});
