import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { guestQueries } from '@/features/guests/api';
import { GuestsPage } from '@/features/guests/guests-page';
import { guestsSearchDefaults, guestsSearchSchema } from '@/features/guests/guests-search';

/** Every guest of the hotel's stays, co-guests too (spec §1 "guest management"; issue 9 §5 exports it). */
export const Route = createFileRoute('/_auth/room/guests')({
  validateSearch: guestsSearchSchema,
  search: { middlewares: [stripSearchParams(guestsSearchDefaults)] },
  staticData: { titleKey: 'route.guests', sectionKey: 'menu.frontDesk' },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => void context.queryClient.ensureQueryData(guestQueries.list(deps)).catch(() => undefined),
  component: GuestsPage,
});
