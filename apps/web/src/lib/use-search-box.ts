import { useEffect, useRef, useState } from 'react';
import { useRouter } from '@tanstack/react-router';

/**
 * The search box of a list: what the user types is applied after a short pause (the caller goes
 * back to the first page), and "/" anywhere outside a field jumps to the box, as in most consoles.
 */
export function useSearchBox(applied: string, apply: (text: string) => void) {
  const ref = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(applied);

  const router = useRouter();
  useEffect(() => {
    if (text === applied) return;
    const page = router.latestLocation.pathname;
    const timer = setTimeout(() => {
      // The clerk has left the page meanwhile (a link, `g t`, the back button), and the page is still
      // drawn while the next one loads: the pause ending now must not bring them back to it.
      if (router.latestLocation.pathname !== page) return;
      apply(text.trim());
    }, 300);
    return () => clearTimeout(timer);
    // Only typing starts the pause: a new applied value or callback must not apply again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (
        event.key === '/' &&
        !event.ctrlKey &&
        !event.metaKey &&
        !event.altKey &&
        !['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) &&
        !target.isContentEditable
      ) {
        event.preventDefault();
        ref.current?.focus();
      }
    };
    // First (capture), so that on a list `/` is its box's and not the search box's (lib/shortcuts.ts
    // leaves a key already handled alone): Ctrl+K opens the search box everywhere.
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, []);

  return { ref, text, setText };
}
