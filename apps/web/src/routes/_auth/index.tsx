import { createFileRoute, redirect } from '@tanstack/react-router';

/** `/` lands on customer management (spec §2). */
export const Route = createFileRoute('/_auth/')({
  beforeLoad: () => {
    throw redirect({ to: '/customer/customer' });
  },
});
