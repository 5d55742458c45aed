import { useDeferredValue, useEffect, useState, type ReactNode } from 'react';

/**
 * Parts of the console that no page needs to show itself (dialogs, the toaster, menus' contents)
 * are separate chunks, loaded with `React.lazy` when first used: they are not part of the first
 * download (bench/bundle-size.ts). These helpers load them when the browser is idle after the page
 * has painted, so that they still open at once, and mount them on first use.
 */

/**
 * After the page's load event, a moment for what it fetched first (its data, its pictures): what
 * loads when idle must not take a phone's bandwidth from what the page shows (issue 18 §4: the
 * sign-in page's graphic code waited behind 100 kB of dialogs and texts loaded "when idle").
 */
const AFTER_LOAD_MS = 1000;

/** Runs `task` when the browser is idle a moment after the page has loaded; returns a cancel. */
export function whenIdle(task: () => void): () => void {
  let cancel = () => {};
  const idle = () => {
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(task, { timeout: 2000 });
      cancel = () => window.cancelIdleCallback(id);
    } else {
      const id = window.setTimeout(task, 200);
      cancel = () => window.clearTimeout(id);
    }
  };
  const afterLoad = () => {
    const id = window.setTimeout(idle, AFTER_LOAD_MS);
    cancel = () => window.clearTimeout(id);
  };
  if (document.readyState === 'complete') afterLoad();
  else {
    window.addEventListener('load', afterLoad, { once: true });
    cancel = () => window.removeEventListener('load', afterLoad);
  }
  return () => cancel();
}

let wasIdle = false;

/**
 * False until the browser is first idle after the page has loaded (`whenIdle`), then true for good
 * (on later pages at once). For the parts of the layout that nothing shows at first (the card
 * reader's button waits for the later texts, the dialogs' hosts for a request): their chunks are
 * then neither fetched nor run while the page loads (issue 18 §4).
 */
export function useWhenIdle(): boolean {
  const [idle, setIdle] = useState(wasIdle);
  useEffect(() => {
    if (idle) return;
    return whenIdle(() => {
      wasIdle = true;
      setIdle(true);
    });
  }, [idle]);
  return idle;
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

/**
 * Renders `children` in the background right after its own first render (which shows `fallback`):
 * a transition, which React splits into slices of a few milliseconds between the browser's own work,
 * instead of one long task as a page's first render is (issue 18 §4: Total Blocking Time). Only on
 * mount: a later render of the same place renders its children at once.
 */
export function RenderedInBackground({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }): ReactNode {
  return useDeferredValue(true, false) ? children : fallback;
}
