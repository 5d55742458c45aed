import { createFileRoute } from '@tanstack/react-router';
import { webhookQueries } from '@/features/webhooks/api';
import { WebhooksPage } from '@/features/webhooks/webhooks-page';

/** Webhooks (issue 29 §2): the hotel's endpoints, their secrets and delivery logs. */
export const Route = createFileRoute('/_auth/webhooks')({
  staticData: { titleKey: 'webhooks.title', sectionKey: 'menu.administration' },
  loader: ({ context }) => void context.queryClient.ensureQueryData(webhookQueries.list()).catch(() => undefined),
  component: WebhooksPage,
});
