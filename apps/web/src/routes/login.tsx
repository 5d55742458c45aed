import { createFileRoute, redirect } from '@tanstack/react-router';
import { LoginPage } from '@/features/auth/login-page';
import { optional, searchSchema, string } from '@/lib/url-search';
import { readUserInfo } from '@/lib/user-info';

export const Route = createFileRoute('/login')({
  // What `z.object({ redirect: z.string().optional().catch(undefined) })` read, without zod (lib/url-search.ts).
  validateSearch: searchSchema({ redirect: optional(string()) }),
  staticData: { titleKey: 'route.login' },
  beforeLoad: () => {
    // Spec §2: with stored user info, /login goes to /room.
    if (readUserInfo()) throw redirect({ to: '/room' });
  },
  component: LoginPage,
});
