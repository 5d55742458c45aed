import { useEffect } from 'react';
import { Outlet, createRootRouteWithContext, useRouterState } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { UnsavedChangesProvider } from '@/components/unsaved-changes';
import { loadLaterTexts } from '@/lib/i18n';
import { FIRST_PART_PATHS } from '@/lib/text-parts';

export interface RouterContext {
  queryClient: QueryClient;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  // Pages other than sign-in and the board need the later part of the texts (lib/text-parts.ts).
  beforeLoad: ({ location }) => (FIRST_PART_PATHS.has(location.pathname) ? undefined : loadLaterTexts()),
  component: RootLayout,
});

/** The document title follows the route title and the site title in the chosen language (spec §1, §2). */
function RootLayout() {
  const { t } = useTranslation();
  const titleKey = useRouterState({ select: (s) => [...s.matches].reverse().find((m) => m.staticData.titleKey)?.staticData.titleKey });
  useEffect(() => {
    document.title = titleKey ? `${t(titleKey)} - ${t('app.title')}` : t('app.title');
  }, [t, titleKey]);
  return (
    <UnsavedChangesProvider>
      <Outlet />
    </UnsavedChangesProvider>
  );
}
