import { createFileRoute } from '@tanstack/react-router';
import { GuestMessagesPage } from '@/features/guest-messages/guest-messages-page';

/** Guest messages (issue 20 §3): the SMS and e-mail templates per language and the hotel's sender. */
export const Route = createFileRoute('/_auth/guestMessages')({
  staticData: { titleKey: 'guestMessages.title', sectionKey: 'menu.administration' },
  component: GuestMessagesPage,
});
