import { createFileRoute } from '@tanstack/react-router';
import { ApiKeysPage } from '@/features/api-keys/api-keys-page';

/** Third-party authorisation (spec §2, shown with apiKeyAuth; issue 9 §2): the hotel's API keys. */
export const Route = createFileRoute('/_auth/thirdPartyAuthorization/thirdPartyAuthorization')({
  staticData: { titleKey: 'apiKeys.title', sectionKey: 'menu.administration' },
  component: ApiKeysPage,
});
