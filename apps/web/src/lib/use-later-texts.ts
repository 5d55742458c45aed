import { useEffect, useState } from 'react';
import { i18next, loadLaterTexts } from './i18n';

/**
 * True once the later part of the texts (lib/text-parts.ts) is there, `key` being one of its
 * texts: a part of the sign-in page or the room board that speaks with later texts (a dialog's
 * section, a navbar button of a lazy chunk) shows itself only then, so that the first part stays
 * small (bench/bundle-size.ts). The later part is fetched when the browser is idle after the first
 * paint, so it is almost always there already.
 */
export function useLaterTexts(key: string): boolean {
  const [isReady, setIsReady] = useState(() => i18next.exists(key));
  useEffect(() => {
    if (isReady) return;
    let isCurrent = true;
    loadLaterTexts().then(
      () => isCurrent && setIsReady(true),
      () => undefined,
    );
    return () => {
      isCurrent = false;
    };
  }, [isReady]);
  return isReady;
}
