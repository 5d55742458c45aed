import { useRef, type ReactNode } from 'react';
import { Check } from 'lucide-react';
import { LANGUAGES } from '@console/shared';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { changeLanguage, currentLanguage } from '@/lib/language';

/**
 * The menu of `LanguageSelect` (language-select.tsx), a chunk of its own: mounted open, by the
 * first press of the button that stood in for its trigger.
 */
export function LanguageMenu({ trigger, openedWithKeyboard }: { trigger: ReactNode; openedWithKeyboard: boolean }) {
  const current = currentLanguage();
  // The menu learns that the keyboard is in use from the key presses it sees; the one that opened
  // it came before it was mounted, so on that first opening the focus goes to the first item here
  // (as radix does when a key opens the menu), not to the menu itself.
  const isFirstOpening = useRef(true);
  return (
    <DropdownMenu defaultOpen>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent
        align="end"
        onFocus={(event) => {
          if (event.target !== event.currentTarget || !isFirstOpening.current) return;
          isFirstOpening.current = false;
          if (openedWithKeyboard) event.currentTarget.querySelector<HTMLElement>('[role="menuitem"]')?.focus({ preventScroll: true });
        }}
      >
        {LANGUAGES.map((language) => (
          <DropdownMenuItem
            key={language.code}
            lang={language.header}
            dir={language.dir}
            data-language={language.code}
            onSelect={() => language.code !== current.code && changeLanguage(language.code)}
          >
            <Check className={language.code === current.code ? 'size-4' : 'invisible size-4'} aria-hidden />
            {language.nativeName}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
