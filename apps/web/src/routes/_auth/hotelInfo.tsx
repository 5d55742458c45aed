import { createFileRoute } from '@tanstack/react-router';
import { settingsQueries } from '@/features/settings/api';
import { HotelInfoPage } from '@/features/settings/hotel-info-page';

/** Hotel information (spec §2 "hotel information", §3; issue 9 §4): owners and administrators change it, everyone reads it. */
export const Route = createFileRoute('/_auth/hotelInfo')({
  staticData: { titleKey: 'settings.hotel.title', sectionKey: 'menu.administration' },
  loader: ({ context }) => void context.queryClient.ensureQueryData(settingsQueries.hotel()).catch(() => undefined),
  component: HotelInfoPage,
});
