import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from '@/components/language-select';

/** The frame of the public pages (sign-in, password recovery): the form in a card, the language choice above. */
export function AuthShell({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="from-sidebar via-sidebar to-primary/80 flex min-h-full flex-col bg-linear-to-br">
      <div className="flex justify-end p-4">
        <div className="rounded-md bg-white/95">
          <LanguageSelect variant="ghost" />
        </div>
      </div>
      <main className="flex flex-1 items-center justify-center px-4 pb-16">
        <div className="bg-card w-full max-w-md rounded-xl border p-8 shadow-2xl">
          <div className="mb-6 flex items-center gap-3">
            <img src="/favicon.svg" alt="" className="size-10" />
            <div>
              <div className="text-muted-foreground text-sm">{t('app.title')}</div>
              <h1 className="text-xl font-semibold">{title}</h1>
            </div>
          </div>
          {subtitle && <p className="text-muted-foreground -mt-2 mb-6 text-sm">{subtitle}</p>}
          {children}
        </div>
      </main>
    </div>
  );
}
