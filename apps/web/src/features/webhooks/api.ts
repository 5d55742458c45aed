import type { QueryClient } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';

/** The webhooks page's queries (docs/webhooks.md); mutations are the tRPC ones (`trpc.webhooks.*`). */
export const webhookQueries = {
  list: () => trpc.webhooks.list.queryOptions(undefined, { meta: { showsErrors: true } }),
  /** An endpoint's delivery log, asked again every 5 s while it is open (attempts come in). */
  deliveries: (id: number) => trpc.webhooks.deliveries.queryOptions({ id }, { refetchInterval: 5_000 }),
};

/** An endpoint changed, or a delivery queued: the list and every log are asked again. */
export const invalidateWebhooks = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
