import { createFileRoute, redirect } from '@tanstack/react-router';
import { MainLayout } from '@/features/layout/main-layout';
import { readUserInfo } from '@/lib/user-info';

/** Spec §2 route guard: without stored user info, every page sends the user to /login?redirect=<wanted path>. */
export const Route = createFileRoute('/_auth')({
  beforeLoad: ({ location }) => {
    if (!readUserInfo()) throw redirect({ to: '/login', search: { redirect: location.href } });
  },
  component: MainLayout,
});
