import type { QueryClient } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';

/**
 * The guest messages' api (issue 19 §5): the sending settings and the templates, and what saving
 * either makes stale. Mutations are the tRPC ones (`trpc.guestMessage.*`). The route's loader asks
 * for both as the route starts (`ensureQueryData`, not awaited: the page shows its skeletons and
 * its own load errors as before).
 */
export const guestMessageQueries = {
  /** The hotel's sending settings (language, sender), with which channels can send. */
  settings: () => trpc.guestMessage.settings.queryOptions(undefined, { meta: { showsErrors: true } }),
  /** The SMS and e-mail templates per language. */
  templates: () => trpc.guestMessage.templates.queryOptions(undefined, { meta: { showsErrors: true } }),
};

/** The sending settings saved: they are asked again. */
export const invalidateGuestMessageSettings = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.guestMessage.settings.queryKey() });
/** A template saved or reset: the templates are asked again. */
export const invalidateGuestMessageTemplates = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: trpc.guestMessage.templates.queryKey() });
