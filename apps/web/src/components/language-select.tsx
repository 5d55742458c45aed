import { Suspense, lazy, useState } from 'react';
import { Languages } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { currentLanguage } from '@/lib/language';
import { usePrefetchWhenIdle } from '@/lib/lazy';

/** The menu (radix's menu and its positioning: about 20 kB gzipped) is loaded when the page is idle, mounted at the first press. */
const loadLanguageMenu = () => import('./language-menu');
const LanguageMenu = lazy(() => loadLanguageMenu().then((m) => ({ default: m.LanguageMenu })));

const OPENING_KEYS = ['Enter', ' ', 'ArrowDown'];

/** The 12 languages, each in its own script; choosing one stores it and reloads (spec §1). */
export function LanguageSelect({ variant = 'ghost' }: { variant?: 'ghost' | 'outline' }) {
  const { t } = useTranslation();
  const current = currentLanguage();
  const [openedBy, setOpenedBy] = useState<'pointer' | 'keyboard' | null>(null);
  usePrefetchWhenIdle(loadLanguageMenu);

  // The name says what the button shows (WCAG 2.5.3), then what it does.
  const label = t('layout.languageCurrent', { language: current.nativeName });
  const face = (
    <>
      <Languages className="size-4" aria-hidden />
      <span className="hidden sm:inline">{current.nativeName}</span>
    </>
  );
  // Until the menu is mounted, a button that looks and answers like its trigger (radix opens a
  // menu on pointer down, and on Enter, Space or the down arrow); it also holds the place while the
  // menu's chunk arrives.
  const standIn = (
    <Button
      variant={variant}
      size="sm"
      data-testid="language-select"
      aria-label={label}
      type="button"
      aria-haspopup="menu"
      aria-expanded={false}
      data-state="closed"
      onPointerDown={(event) => {
        if (event.button !== 0 || event.ctrlKey) return;
        event.preventDefault();
        setOpenedBy((by) => by ?? 'pointer');
      }}
      onKeyDown={(event) => {
        if (!OPENING_KEYS.includes(event.key)) return;
        event.preventDefault();
        setOpenedBy((by) => by ?? 'keyboard');
      }}
    >
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
