import { createFileRoute, redirect } from '@tanstack/react-router';

/** Any unknown path goes to /404 (spec §2); signed-out users meet the guard first. */
export const Route = createFileRoute('/_auth/$')({
  beforeLoad: () => {
    throw redirect({ to: '/404' });
  },
});
