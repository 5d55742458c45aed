import type { QueryClient } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';

/**
 * The access rules' api (issue 19 §5): the rules' query, and what saving a rule makes stale.
 * Mutations are the tRPC ones (`trpc.accessRule.*`). The route's loader asks for the rules as the
 * route starts (`ensureQueryData`, not awaited: the page shows its skeleton and its own load error
 * as before).
 */
export const accessRuleQueries = {
  /** The hotel's rule and each room group's own. */
  list: () => trpc.accessRule.list.queryOptions(undefined, { meta: { showsErrors: true } }),
};

/** A rule saved or removed: the rules are asked again. */
export const invalidateAccessRules = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.accessRule.list.queryKey() });
