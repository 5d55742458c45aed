import { Suspense, lazy } from 'react';
import { finishGuestKeys, useGuestKeysRequest } from '@/lib/stay-keys';
import { loadLaterTexts } from '@/lib/i18n';

/** The dialog and its texts (a later text part) come when a change first asks for it. */
const GuestKeysDialog = lazy(() => Promise.all([import('./stay-keys-dialog'), loadLaterTexts()]).then(([m]) => ({ default: m.GuestKeysDialog })));

/**
 * Hosts "what the guest holds" for the whole signed-in console (the layout renders it): a check-in,
 * a room change or a renewal asks for it with `showGuestKeys` (lib/stay-keys.ts), and this shows it.
 */
export function GuestKeysHost() {
  const request = useGuestKeysRequest();
  if (!request) return null;
  return (
    <Suspense fallback={null}>
      <GuestKeysDialog key={request.key} request={request} onClose={finishGuestKeys} />
    </Suspense>
  );
}
