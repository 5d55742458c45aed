import { createFileRoute } from '@tanstack/react-router';
import { FIRST_API_KEYS, apiKeyQueries } from '@/features/api-keys/api';
import { ApiKeysPage } from '@/features/api-keys/api-keys-page';

/** Third-party authorisation (spec §2, shown with apiKeyAuth; issue 9 §2): the hotel's API keys. */
export const Route = createFileRoute('/_auth/thirdPartyAuthorization/thirdPartyAuthorization')({
  staticData: { titleKey: 'apiKeys.title', sectionKey: 'menu.administration' },
  loader: ({ context }) => void context.queryClient.ensureQueryData(apiKeyQueries.list(FIRST_API_KEYS)).catch(() => undefined),
  component: ApiKeysPage,
});
