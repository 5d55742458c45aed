import { Suspense, createContext, lazy, useCallback, useContext, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { useBlocker } from '@tanstack/react-router';
import { useMountedOnce } from '@/lib/lazy';

/** The question is a chunk of its own: loaded as soon as a form holds changes, mounted when first asked. */
const loadDiscardDialog = () => import('./discard-changes-dialog');
const DiscardChangesDialog = lazy(() => loadDiscardDialog().then((m) => ({ default: m.DiscardChangesDialog })));

/**
 * The one way the console keeps half-done work. A form registers its unsaved state
 * (`useUnsavedChanges(isDirty)`); whatever would throw it away asks "Discard your changes?" first:
 * closing its dialog (Escape, a click outside, ×, Cancel: `useGuardedClose`), switching away from
 * its tab (`confirmDiscard`), leaving the page by a link or the browser's back button, or
 * reloading (the provider's navigation blocker, for every dirty form at once).
 */
interface UnsavedChangesContext {
  /** Shows the question; resolves true when the user chose to discard. */
  ask(): Promise<boolean>;
  setDirty(id: string, isDirty: boolean): void;
  isDirty(id?: string): boolean;
  clear(id?: string): void;
}

const Context = createContext<UnsavedChangesContext | null>(null);

/**
 * Where focus goes back after "keep editing": the control the user was last in, not a tab (a tab
 * is focused by the very click that asked, and focusing a tab switches to it, which would ask
 * again); if that control is gone, the selected tab. Null: let the dialog decide.
 */
function focusTarget(last: HTMLElement | null): HTMLElement | null {
  if (last?.isConnected && !last.closest('[inert]')) return last;
  return document.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]');
}

export function UnsavedChangesProvider({ children }: { children: ReactNode }) {
  const dirty = useRef(new Set<string>());
  const [pending, setPending] = useState<((discard: boolean) => void) | null>(null);
  // The last control focused outside the question, and the one to go back to once it is answered.
  const lastFocused = useRef<HTMLElement | null>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const discarded = useRef(false);
  useEffect(() => {
    const onFocusIn = (event: FocusEvent) => {
      const target = event.target;
      if (!(target instanceof HTMLElement) || target.getAttribute('role') === 'tab' || target.closest('[data-testid="discard-changes"]')) return;
      lastFocused.current = target;
    };
    document.addEventListener('focusin', onFocusIn);
    return () => document.removeEventListener('focusin', onFocusIn);
  }, []);

  const value = useMemo<UnsavedChangesContext>(
    () => ({
      ask: () =>
        new Promise<boolean>((resolve) => {
          returnFocus.current = lastFocused.current;
          setPending(() => resolve);
        }),
      setDirty(id, isDirty) {
        if (isDirty) {
          dirty.current.add(id);
          // The question is ready before it is asked.
          void loadDiscardDialog().catch(() => undefined);
        } else {
          dirty.current.delete(id);
        }
      },
      isDirty: (id) => (id === undefined ? dirty.current.size > 0 : dirty.current.has(id)),
      clear: (id) => (id === undefined ? dirty.current.clear() : void dirty.current.delete(id)),
    }),
    [],
  );

  const answer = (discard: boolean) => {
    discarded.current = discard;
    pending?.(discard);
    setPending(null);
  };

  // Leaving the page (a link, back, forward) asks while any form holds unsaved changes; so does a reload.
  useBlocker({
    shouldBlockFn: async () => {
      if (!value.isDirty()) return false;
      const discard = await value.ask();
      if (discard) value.clear();
      return !discard;
    },
    enableBeforeUnload: () => value.isDirty(),
  });

  const isAsked = pending !== null;
  const isDialogMounted = useMountedOnce(isAsked);

  return (
    <Context.Provider value={value}>
      {children}
      {/* A dialog floats above the page: nothing holds its place while its chunk arrives. */}
      {isDialogMounted && (
        <Suspense fallback={null}>
          <DiscardChangesDialog open={isAsked} onAnswer={answer} returnFocusTo={() => (discarded.current ? null : focusTarget(returnFocus.current))} />
        </Suspense>
      )}
    </Context.Provider>
  );
}

function useUnsavedContext(): UnsavedChangesContext {
  const context = useContext(Context);
  if (!context) throw new Error('unsaved changes need <UnsavedChangesProvider> above them');
  return context;
}

/**
 * Registers a form's unsaved changes while `isDirty`. `confirmDiscard()` resolves true at once when
 * the form is clean, and otherwise after the user agreed to throw its changes away.
 */
export function useUnsavedChanges(isDirty: boolean): { confirmDiscard(): Promise<boolean> } {
  const context = useUnsavedContext();
  const id = useId();
  useEffect(() => {
    context.setDirty(id, isDirty);
    return () => context.setDirty(id, false);
  }, [context, id, isDirty]);
  const confirmDiscard = useCallback(async () => {
    if (!context.isDirty(id)) return true;
    const discard = await context.ask();
    if (discard) context.clear(id);
    return discard;
  }, [context, id]);
  return useMemo(() => ({ confirmDiscard }), [confirmDiscard]);
}

/**
 * The `onOpenChange` of a dialog that holds a form: closing it by Escape, a click outside, × or
 * Cancel asks first when the form has unsaved changes; closing while it saves does nothing.
 */
export function useGuardedClose(
  onOpenChange: (open: boolean) => void,
  guard: { confirmDiscard(): Promise<boolean> },
  isSaving = false,
): (open: boolean) => void {
  return useCallback(
    (open: boolean) => {
      if (open) return onOpenChange(true);
      if (isSaving) return;
      void guard.confirmDiscard().then((discard) => discard && onOpenChange(false));
    },
    [guard, isSaving, onOpenChange],
  );
}
