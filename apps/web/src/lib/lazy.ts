import { useEffect, useState } from 'react';

/**
 * Parts of the console that no page needs to show itself (dialogs, the toaster, menus' contents)
 * are separate chunks, loaded with `React.lazy` when first used: they are not part of the first
 * download (bench/bundle-size.ts). These helpers load them when the browser is idle after the page
 * has painted, so that they still open at once, and mount them on first use.
 */

/** Runs `task` when the browser is idle (soon after the page has painted); returns a cancel. */
export function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(task, { timeout: 2000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(task, 200);
  return () => window.clearTimeout(id);
}

/** Loads a lazy chunk once the browser is idle. `load` must be a stable function (module scope). */
export function usePrefetchWhenIdle(load: () => Promise<unknown>): void {
  useEffect(() => whenIdle(() => void load().catch(() => undefined)), [load]);
}

/** False until `wanted` is first true, then true for good: a lazy part is mounted on first use and kept (its closing animation, its state). */
export function useMountedOnce(wanted: boolean): boolean {
  const [mounted, setMounted] = useState(wanted);
  if (wanted && !mounted) setMounted(true);
  return mounted || wanted;
}
