import { createFileRoute } from '@tanstack/react-router';
import { CardEncryptionPage } from '@/features/card-admin/card-encryption-page';

/** Encryption management (spec §2, shown with apiKeyAuth; issue 8 §1): the hotel's card key sets and the locks' keys. */
export const Route = createFileRoute('/_auth/cardEncryption/cardEncryption')({
  staticData: { titleKey: 'route.cardEncryption', sectionKey: 'menu.cards' },
  component: CardEncryptionPage,
});
