import { createFileRoute, redirect } from '@tanstack/react-router';

export const Route = createFileRoute('/_auth/cardToEncryption/')({
  beforeLoad: () => {
    throw redirect({ to: '/cardToEncryption/cardToEncryption' });
  },
});
