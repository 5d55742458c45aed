import { Suspense, lazy, useEffect, useState, type ComponentProps } from 'react';
import { whenIdle } from '@/lib/lazy';
import { loadSonner, onToastRequested } from '@/lib/toast';

const Toaster = lazy(() => loadSonner().then((m) => ({ default: m.Toaster })));

/**
 * sonner's <Toaster>, mounted when the browser is idle after the first paint or at the first toast
 * (see lib/toast.ts), so that sonner is not part of the first download. It draws nothing until a
 * toast comes, so nothing holds its place meanwhile.
 */
export function AppToaster(props: ComponentProps<typeof Toaster>) {
  const [isMounted, setIsMounted] = useState(false);
  useEffect(() => {
    const mount = () => setIsMounted(true);
    const cancelIdle = whenIdle(mount);
    const stopListening = onToastRequested(mount);
    return () => {
      cancelIdle();
      stopListening();
    };
  }, []);
  if (!isMounted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster {...props} />
    </Suspense>
  );
}
