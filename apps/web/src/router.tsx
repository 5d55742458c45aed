import { createRouter } from '@tanstack/react-router';
import { queryClient } from './lib/trpc';
import { routeTree } from './routeTree.gen';

export const router = createRouter({
  routeTree,
  context: { queryClient },
  defaultPreload: 'intent',
  defaultPreloadStaleTime: 0,
  scrollRestoration: true,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
  interface StaticDataRouteOption {
    /** i18n key of the page title: document title and last breadcrumb. */
    titleKey?: string;
    /** i18n key of the menu section the page belongs to (breadcrumb). */
    sectionKey?: string;
  }
}
