import { Search } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { isMacPlatform, openPalette, SEARCH_PERMISSION } from '@/lib/shortcuts';
import { hasPermission, useUserInfo } from '@/lib/user-info';

/**
 * The navbar's search button (issue 28 §3), for the mouse and the phone; the keyboard has Ctrl+K
 * (⌘K) and `/`. Not offered to a member who may not search (an attendant: issue 39 §8).
 */
export function SearchButton() {
  const { t } = useTranslation();
  const user = useUserInfo();
  if (!hasPermission(user, SEARCH_PERMISSION)) return null;
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
