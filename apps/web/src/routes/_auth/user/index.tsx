import { createFileRoute, redirect } from '@tanstack/react-router';

export const Route = createFileRoute('/_auth/user/')({
  beforeLoad: () => {
    throw redirect({ to: '/user/changePsw' });
  },
});
