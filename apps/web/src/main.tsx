import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { i18next, initI18n, loadLaterTexts } from './lib/i18n';
import { requestCaptchaEarly } from './lib/early-captcha';
import { whenIdle } from './lib/lazy';
import { queryClient } from './lib/trpc';
import { hasStoredUserInfo, loadUserInfoCodec } from './lib/user-info';
import { router } from './router';
import { SessionExpiredDialog } from './features/session/session-expired-dialog';
import { AppToaster } from './components/app-toaster';
import './styles.css';

/**
 * Two costs every first render paid inside its own long task (issue 18 §4): tailwind-merge builds its
 * class map on its first call, and the browser loads its locale data on the first Intl formatter
 * (tens of milliseconds on a phone each). Paid here instead, each in a short task of its own, while
 * the page's texts load; the formatter only where a signed-in page will show numbers and dates.
 */
function warmUp() {
  // Both modules are in the chunks the key pages load with the entry (not in the entry itself).
  const later = (task: () => void) => setTimeout(task, 0);
  void import('./lib/utils').then(({ cn }) => later(() => cn('p-0', 'p-1')));
  if (hasStoredUserInfo()) void import('./lib/format').then(({ formatNumber }) => later(() => formatNumber(0)));
}

async function bootstrap() {
  warmUp();
  // The sign-in page's graphic code is its largest paint: asked for before the texts and the first
  // render are waited for (routes/login.tsx asks as the route starts when this did not, or was used).
  const signedIn = hasStoredUserInfo();
  if (window.location.pathname === '/login' && !signedIn) requestCaptchaEarly();
  // The cookie's cipher is needed before the route guard reads it; the sign-in page of a visitor
  // without the cookie paints without it (lib/user-info.ts).
  const [language] = await Promise.all([initI18n(), signedIn ? loadUserInfoCodec() : undefined]);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        <SessionExpiredDialog />
        <AppToaster
          position="top-center"
          // Below the header (h-14), never over its buttons and breadcrumb (issue 39 §12).
          offset={{ top: 64 }}
          mobileOffset={{ top: 64 }}
          richColors
          closeButton
          dir={language.dir}
          containerAriaLabel={i18next.t('layout.notifications')}
          toastOptions={{ closeButtonAriaLabel: i18next.t('common.close') }}
        />
      </QueryClientProvider>
    </StrictMode>,
  );
  // The texts only other pages use, fetched once the page has painted (lib/text-parts.ts).
  whenIdle(() => void loadLaterTexts().catch(() => undefined));
}

void bootstrap();
