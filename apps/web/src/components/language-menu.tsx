import type { ReactNode } from 'react';
import { Check } from 'lucide-react';
import { LANGUAGES } from '@console/shared';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger, useFirstItemFocus } from '@/components/ui/dropdown-menu';
import { changeLanguage, currentLanguage } from '@/lib/language';

/**
 * The menu of `LanguageSelect` (language-select.tsx), a chunk of its own: mounted open, by the
 * first press of the button that stood in for its trigger.
 */
export function LanguageMenu({ trigger, openedWithKeyboard }: { trigger: ReactNode; openedWithKeyboard: boolean }) {
  const current = currentLanguage();
  const onFocus = useFirstItemFocus(openedWithKeyboard);
  return (
    <DropdownMenu defaultOpen>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end" onFocus={onFocus}>
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
