import { useSyncExternalStore } from 'react';

/** A phone: narrower than Tailwind's `sm` (640px), the width where the tables fold into cards (issue 26 §3). */
const phoneQuery = '(max-width: 639px)';

let media: MediaQueryList | undefined;
const phoneMedia = () => (media ??= window.matchMedia(phoneQuery));

function subscribe(onChange: () => void) {
  const list = phoneMedia();
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}
const isPhoneNow = () => phoneMedia().matches;

/**
 * Whether the screen is a phone's (the "phone desk", issue 26 §3): lists become cards, the bill
 * keeps only its kind and amount columns and money is written in its shortest form. It follows a
 * rotation or a resized window.
 */
export function usePhone(): boolean {
  return useSyncExternalStore(subscribe, isPhoneNow);
}
