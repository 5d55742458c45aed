import { createFileRoute, redirect } from '@tanstack/react-router';

export const Route = createFileRoute('/_auth/cardEncryption/')({
  beforeLoad: () => {
    throw redirect({ to: '/cardEncryption/cardEncryption' });
  },
});
