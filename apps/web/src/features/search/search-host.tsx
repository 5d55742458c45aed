import { openPalette, usePalette } from '@/lib/shortcuts';
import { useLaterTexts } from '@/lib/use-later-texts';
import { SearchDialog } from './search-dialog';
import { ShortcutsDialog } from './shortcuts-dialog';

const close = () => openPalette(null);

/** The search box or the list of shortcuts, whichever is open (lib/shortcuts.ts), once their texts are there. */
export function SearchHost() {
  const palette = usePalette();
  const hasTexts = useLaterTexts('search.title');
  if (!hasTexts || palette === null) return null;
  return palette === 'search' ? <SearchDialog onClose={close} /> : <ShortcutsDialog onClose={close} />;
}
