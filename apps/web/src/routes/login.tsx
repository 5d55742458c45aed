import { createFileRoute, redirect } from '@tanstack/react-router';
import { LoginPage } from '@/features/auth/login-page';
import { requestCaptchaEarly } from '@/lib/early-captcha';
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
  // The graphic code is asked for while the page's chunks load (not on a link's hover: it lives 2 minutes).
  loader: ({ preload }) => {
    if (!preload) requestCaptchaEarly();
  },
  component: LoginPage,
});
