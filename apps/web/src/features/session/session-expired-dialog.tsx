import { Suspense, lazy, useEffect, useState } from 'react';
import { onSessionExpired } from '@/lib/api-errors';
import { useMountedOnce } from '@/lib/lazy';

const SessionExpiredAlert = lazy(() => import('./session-expired-alert').then((m) => ({ default: m.SessionExpiredAlert })));

/**
 * Spec §8, errno 100003: "the login info expired", with sign in again or cancel. The dialog is a
 * chunk of its own, loaded the first time a session expires (it floats above the page: nothing
 * holds its place meanwhile), then kept mounted.
 */
export function SessionExpiredDialog() {
  const [isOpen, setIsOpen] = useState(false);
  useEffect(() => onSessionExpired(setIsOpen), []);
  const isMounted = useMountedOnce(isOpen);
  if (!isMounted) return null;
  return (
    <Suspense fallback={null}>
      <SessionExpiredAlert isOpen={isOpen} />
    </Suspense>
  );
}
