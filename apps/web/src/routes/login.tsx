import { createFileRoute, redirect } from '@tanstack/react-router';
import { z } from 'zod';
import { LoginPage } from '@/features/auth/login-page';
import { readUserInfo } from '@/lib/user-info';

export const Route = createFileRoute('/login')({
  validateSearch: z.object({ redirect: z.string().optional().catch(undefined) }),
  staticData: { titleKey: 'route.login' },
  beforeLoad: () => {
    // Spec §2: with stored user info, /login goes to /room.
    if (readUserInfo()) throw redirect({ to: '/room' });
  },
  component: LoginPage,
});
