import type { QueryClient } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';

/**
 * The settings' api (issue 19 §5): the queries of the hotel information page and of the personal
 * centre, and what a change of the profile or of the sessions makes stale. Mutations are the tRPC
 * ones (`trpc.hotel.*`, `trpc.account.*`). The routes' loaders ask for the page's data as the route
 * starts (`ensureQueryData`, not awaited: the page shows its skeleton and its own load error as before).
 */
export const settingsQueries = {
  /** The hotel's information (name, address, zone, currency, times). */
  hotel: () => trpc.hotel.info.queryOptions(undefined, { meta: { showsErrors: true } }),
  /** The taxes included in the price in force (docs/journal.md "Taxes"). */
  taxRules: () => trpc.hotel.taxRules.queryOptions(undefined, { meta: { showsErrors: true } }),
  /** The hotel's legal details printed on its invoices (docs/invoices.md). */
  invoiceDetails: () => trpc.invoice.details.queryOptions(undefined, { meta: { showsErrors: true } }),
  /** The signed-in account's profile. */
  profile: () => trpc.account.profile.queryOptions(undefined, { meta: { showsErrors: true } }),
  /** The signed-in account's sessions on every face. */
  sessions: () => trpc.account.sessions.queryOptions(undefined, { meta: { showsErrors: true } }),
};

/** After a change of the profile the navbar's name and avatar follow: the user info and the profile are asked again. */
export const invalidateProfile = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() }),
    queryClient.invalidateQueries({ queryKey: trpc.account.profile.queryKey() }),
  ]);

/** A session ended: the sessions are asked again. */
export const invalidateSessions = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.account.sessions.queryKey() });
