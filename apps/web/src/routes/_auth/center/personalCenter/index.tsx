import { createFileRoute } from '@tanstack/react-router';
import { settingsQueries } from '@/features/settings/api';
import { PersonalCenterPage } from '@/features/settings/personal-center-page';

/** The personal centre (spec §2 `/center/personalCenter`; issue 9 §4): profile, sign-in identities, sessions and the card pages. */
export const Route = createFileRoute('/_auth/center/personalCenter/')({
  staticData: { titleKey: 'settings.personal.title', sectionKey: 'menu.account' },
  // The profile and the sessions start loading with the navigation.
  loader: ({ context }) => {
    void context.queryClient.ensureQueryData(settingsQueries.profile()).catch(() => undefined);
    void context.queryClient.ensureQueryData(settingsQueries.sessions()).catch(() => undefined);
  },
  component: PersonalCenterPage,
});
