import { Check, Languages } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '@console/shared';
import { Button } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { changeLanguage, currentLanguage } from '@/lib/language';

/** The 12 languages, each in its own script; choosing one stores it and reloads (spec §1). */
export function LanguageSelect({ variant = 'ghost' }: { variant?: 'ghost' | 'outline' }) {
  const { t } = useTranslation();
  const current = currentLanguage();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant={variant} size="sm" data-testid="language-select" aria-label={t('layout.language')}>
          <Languages className="size-4" aria-hidden />
          <span className="hidden sm:inline">{current.nativeName}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
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
