import { createFileRoute } from '@tanstack/react-router';
import { hotelToday, stayQueries } from '@/features/stays/api';
import { BreakfastPage } from '@/features/stays/breakfast-page';
import { breakfastSearchSchema } from '@/features/stays/breakfast-search';

export const Route = createFileRoute('/_auth/room/breakfast')({
  validateSearch: breakfastSearchSchema,
  staticData: { titleKey: 'route.breakfast', sectionKey: 'menu.frontDesk' },
  loaderDeps: ({ search }) => ({ date: search.date }),
  loader: ({ context, deps }) => void context.queryClient.ensureQueryData(stayQueries.breakfast(deps.date ?? hotelToday())).catch(() => undefined),
  component: BreakfastPage,
});
