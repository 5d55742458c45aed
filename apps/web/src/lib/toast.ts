/**
 * `toast.success` / `toast.error` / `toast.warning` of sonner, without sonner in the first download: the library
 * (toasts and their <Toaster>) is a chunk of its own, loaded when the browser is idle after the
 * first paint, or by the first toast, whichever comes first. A toast raised before the <Toaster>
 * is mounted is not lost: sonner keeps active toasts and shows them when the <Toaster> subscribes.
 * Toasts appear a moment later than a direct call would show them only while the chunk loads.
 */
import type { toast as sonnerToast } from 'sonner';

export const loadSonner = () => import('sonner');

type Success = typeof sonnerToast.success;
type Failure = typeof sonnerToast.error;
type Info = typeof sonnerToast.info;
type Warning = typeof sonnerToast.warning;

const toasterListeners = new Set<() => void>();
let isToasterWanted = false;

/** Calls `listener` once a toast has been asked for (at once if one already was); returns an unsubscribe. */
export function onToastRequested(listener: () => void): () => void {
  if (isToasterWanted) {
    listener();
    return () => undefined;
  }
  toasterListeners.add(listener);
  return () => toasterListeners.delete(listener);
}

function request(show: (sonner: Awaited<ReturnType<typeof loadSonner>>) => void): void {
  if (!isToasterWanted) {
    isToasterWanted = true;
    toasterListeners.forEach((l) => l());
    toasterListeners.clear();
  }
  void loadSonner().then(show);
}

export const toast = {
  success: (...args: Parameters<Success>): void => request(({ toast }) => toast.success(...args)),
  error: (...args: Parameters<Failure>): void => request(({ toast }) => toast.error(...args)),
  /** Nothing went wrong, nothing was done either ("already clean"). */
  info: (...args: Parameters<Info>): void => request(({ toast }) => toast.info(...args)),
  warning: (...args: Parameters<Warning>): void => request(({ toast }) => toast.warning(...args)),
};
