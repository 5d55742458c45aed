import { useState, type KeyboardEvent, type PointerEvent } from 'react';
import { usePrefetchWhenIdle } from '@/lib/lazy';

const OPENING_KEYS = ['Enter', ' ', 'ArrowDown'];

/**
 * A menu whose parts (radix's menu, its focus scope and scroll lock: the `menus` chunk) load on
 * first use, not with the page (bench/bundle-size.ts): its chunk is fetched when the page is idle,
 * and until the first press its trigger is a stand-in, a button that looks and answers like
 * radix's trigger (a menu opens on pointer down, and on Enter, Space or the down arrow) and holds
 * the place while the chunk arrives. `openedBy` is how the first press came: the menu is then
 * mounted open (`defaultOpen`), its first item focused when a key opened it (`useFirstItemFocus`).
 */
export function useMenuStandIn(load: () => Promise<unknown>) {
  const [openedBy, setOpenedBy] = useState<'pointer' | 'keyboard' | null>(null);
  usePrefetchWhenIdle(load);
  const standInProps = {
    type: 'button' as const,
    'aria-haspopup': 'menu' as const,
    'aria-expanded': false,
    'data-state': 'closed',
    onPointerDown: (event: PointerEvent<HTMLButtonElement>) => {
      if (event.button !== 0 || event.ctrlKey) return;
      event.preventDefault();
      setOpenedBy((by) => by ?? 'pointer');
    },
    onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => {
      if (!OPENING_KEYS.includes(event.key)) return;
      event.preventDefault();
      setOpenedBy((by) => by ?? 'keyboard');
    },
  };
  return { openedBy, standInProps };
}
