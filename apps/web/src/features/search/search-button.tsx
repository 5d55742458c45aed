import { Search } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { isMacPlatform, openPalette } from '@/lib/shortcuts';

/** The navbar's search button (issue 28 §3), for the mouse and the phone; the keyboard has Ctrl+K (⌘K) and `/`. */
export function SearchButton() {
  const { t } = useTranslation();
  const hint = isMacPlatform() ? '⌘K' : 'Ctrl+K';
  return (
    <Button
      variant="ghost"
      size="icon"
      data-testid="search-open"
      aria-label={t('search.open')}
      aria-keyshortcuts={isMacPlatform() ? 'Meta+K' : 'Control+K'}
      title={`${t('search.open')} (${hint})`}
      onClick={() => openPalette('search')}
    >
      <Search className="size-5" aria-hidden />
    </Button>
  );
}
