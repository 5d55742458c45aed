import { Suspense, lazy } from 'react';
import { Languages } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { currentLanguage } from '@/lib/language';
import { useMenuStandIn } from '@/components/menu-stand-in';

/** The menu (radix's menu and its positioning: about 20 kB gzipped) is loaded when the page is idle, mounted at the first press. */
const loadLanguageMenu = () => import('./language-menu');
const LanguageMenu = lazy(() => loadLanguageMenu().then((m) => ({ default: m.LanguageMenu })));

/** The 12 languages, each in its own script; choosing one stores it and reloads (spec §1). */
export function LanguageSelect({ variant = 'ghost' }: { variant?: 'ghost' | 'outline' }) {
  const { t } = useTranslation();
  const current = currentLanguage();
  const { openedBy, standInProps } = useMenuStandIn(loadLanguageMenu);

  // The name says what the button shows (WCAG 2.5.3), then what it does.
  const label = t('layout.languageCurrent', { language: current.nativeName });
  const face = (
    <>
      <Languages className="size-4" aria-hidden />
      <span className="hidden sm:inline">{current.nativeName}</span>
    </>
  );
  // Until the menu is mounted, its trigger's stand-in (components/menu-stand-in.tsx).
  const standIn = (
    <Button variant={variant} size="sm" data-testid="language-select" aria-label={label} {...standInProps}>
      {face}
    </Button>
  );
  if (!openedBy) return standIn;
  return (
    <Suspense fallback={standIn}>
      <LanguageMenu
        trigger={
          <Button variant={variant} size="sm" data-testid="language-select" aria-label={label}>
            {face}
          </Button>
        }
        openedWithKeyboard={openedBy === 'keyboard'}
      />
    </Suspense>
  );
}
