import { createFileRoute } from '@tanstack/react-router';
import { cardQueries } from '@/features/cards/api';
import { CardEncryptionPage } from '@/features/cards/admin/card-encryption-page';

/** Encryption management (spec §2, shown with apiKeyAuth; issue 8 §1): the hotel's card key sets and the locks' keys. */
export const Route = createFileRoute('/_auth/cardEncryption/cardEncryption')({
  staticData: { titleKey: 'route.cardEncryption', sectionKey: 'menu.cards' },
  loader: ({ context }) => {
    void context.queryClient.ensureQueryData(cardQueries.keySets()).catch(() => undefined);
    void context.queryClient.ensureQueryData(cardQueries.keyStates()).catch(() => undefined);
    void context.queryClient.ensureQueryData(cardQueries.doorKeyStates()).catch(() => undefined);
  },
  component: CardEncryptionPage,
});
