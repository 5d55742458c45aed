import { createFileRoute } from '@tanstack/react-router';
import { guestMessageQueries } from '@/features/guest-messages/api';
import { GuestMessagesPage } from '@/features/guest-messages/guest-messages-page';

/** Guest messages (issue 20 §3): the SMS and e-mail templates per language and the hotel's sender. */
export const Route = createFileRoute('/_auth/guestMessages')({
  staticData: { titleKey: 'guestMessages.title', sectionKey: 'menu.administration' },
  // The sending settings and the templates start loading with the navigation.
  loader: ({ context }) => {
    void context.queryClient.ensureQueryData(guestMessageQueries.settings()).catch(() => undefined);
    void context.queryClient.ensureQueryData(guestMessageQueries.templates()).catch(() => undefined);
  },
  component: GuestMessagesPage,
});
