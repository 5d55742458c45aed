import { Suspense, lazy } from 'react';
import { useMountedOnce, usePrefetchWhenIdle } from '@/lib/lazy';
import type { ConfirmDialogProps } from './confirm-dialog-content';

/** The dialog (radix's alert dialog) is loaded when the page is idle, and mounted when it first opens. */
const loadConfirmDialog = () => import('./confirm-dialog-content');
const ConfirmDialogContent = lazy(() => loadConfirmDialog().then((m) => ({ default: m.ConfirmDialogContent })));

/** The confirmation asked before an action: it stays open, with a spinner, until the server answers. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  usePrefetchWhenIdle(loadConfirmDialog);
  const isMounted = useMountedOnce(props.open);
  if (!isMounted) return null;
  // A dialog floats above the page: nothing holds its place while its chunk arrives.
  return (
    <Suspense fallback={null}>
      <ConfirmDialogContent {...props} />
    </Suspense>
  );
}
