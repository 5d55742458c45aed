import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { i18next, initI18n, loadLaterTexts } from './lib/i18n';
import { whenIdle } from './lib/lazy';
import { queryClient } from './lib/trpc';
import { router } from './router';
import { SessionExpiredDialog } from './features/session/session-expired-dialog';
import { AppToaster } from './components/app-toaster';
import './styles.css';

async function bootstrap() {
  const language = await initI18n();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        <SessionExpiredDialog />
        <AppToaster
          position="top-center"
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
