import { TRPCClientError } from '@trpc/client';
import { toast } from './toast';
import { ERRNO_ACCOUNT_FROZEN, ERRNO_LOGIN_EXPIRED, SILENT_ERRNOS, type TAppErrorData } from '@console/shared';
import { i18next } from './i18n';
import { clearUserInfo } from './user-info';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: ApiErrorMeta;
    mutationMeta: ApiErrorMeta;
  }
}

export interface ApiErrorMeta extends Record<string, unknown> {
  /** Error codes the screen shows itself (for example VALIDATION next to the fields). */
  handledCodes?: TAppErrorData['code'][];
  /**
   * The screen shows every failure itself, network errors included (a form dialog's `FormError`,
   * a list's `LoadError`): no toast. An expired session and a frozen account are still handled here.
   */
  showsErrors?: boolean;
}

/** The server's description of a failed call, or null when the call never got an answer. */
export function appErrorOf(error: unknown): TAppErrorData | null {
  if (error instanceof TRPCClientError) {
    const data = (error.data ?? error.shape?.data) as { app?: TAppErrorData } | undefined;
    return data?.app ?? null;
  }
  return null;
}

export function isNetworkError(error: unknown): boolean {
  return error instanceof TRPCClientError ? !appErrorOf(error) : error instanceof TypeError;
}

type SessionExpiredListener = (isOpen: boolean) => void;
const sessionListeners = new Set<SessionExpiredListener>();
let isSessionDialogOpen = false;

export function onSessionExpired(listener: SessionExpiredListener): () => void {
  sessionListeners.add(listener);
  return () => sessionListeners.delete(listener);
}

export function setSessionDialogOpen(isOpen: boolean) {
  isSessionDialogOpen = isOpen;
  sessionListeners.forEach((l) => l(isOpen));
}

/**
 * Why the console signed its user out, kept for the sign-in page it reloads into (a toast goes with
 * the page: one that the reload, or the user's own, came before was never read).
 */
const SIGNED_OUT_REASON = 'signed-out-reason';
function keepSignedOutReason(message: string) {
  try {
    window.sessionStorage.setItem(SIGNED_OUT_REASON, message);
  } catch {
    // No storage (a private window's quota): the toast alone says it.
  }
}
/** The reason kept by `keepSignedOutReason`, if any, and forgotten once read with `forget`. */
export function signedOutReason(forget = false): string | null {
  try {
    const reason = window.sessionStorage.getItem(SIGNED_OUT_REASON);
    if (forget) window.sessionStorage.removeItem(SIGNED_OUT_REASON);
    return reason;
  } catch {
    return null;
  }
}

/** The reason of a refusal to a session whose password must be changed first. */
const PASSWORD_CHANGE_REQUIRED = 'changePassword.errors.required';

/** "Re-login clears the user info, reloads and goes to /login" (spec §8), keeping where the user was. */
export function signInAgain() {
  clearUserInfo();
  const here = window.location.pathname + window.location.search;
  window.location.assign(`/login?redirect=${encodeURIComponent(here)}`);
}

/**
 * Spec §8 for every API call:
 * - 100003 (login expired): a confirm box offers to sign in again or cancel;
 * - 9000005 (account frozen): the server's message, then the user info is cleared and the page reloads after 1 s;
 * - 9000003 and 9000020: rejected silently;
 * - any other errno: the server's (translated) message;
 * - no answer at all (network): a message shown for 1 s.
 */
/**
 * Reloads the page 1 s after the frozen account's message is on screen: the toaster loads on its
 * first toast, which on a slow machine took longer than the second the message is given, and the
 * page reloaded before anyone could read why (waits at most 5 s for it).
 */
function reloadOnceShown(startedAt = Date.now()): void {
  const shown = typeof document === 'undefined' || document.querySelector('[data-sonner-toast]') !== null;
  if (shown || Date.now() - startedAt > 5000) setTimeout(() => window.location.reload(), 1000);
  else setTimeout(() => reloadOnceShown(startedAt), 100);
}

export function handleApiError(error: unknown, meta?: ApiErrorMeta): void {
  const app = appErrorOf(error);
  if (!app) {
    if (meta?.showsErrors) return;
    if (error instanceof TRPCClientError || error instanceof TypeError || (error instanceof DOMException && error.name === 'TimeoutError')) {
      toast.error(i18next.t('errors.network'), { duration: 1000, id: 'network-error' });
    }
    return;
  }
  if (SILENT_ERRNOS.includes(app.errno)) return;
  if (app.errno === ERRNO_LOGIN_EXPIRED) {
    if (!isSessionDialogOpen) setSessionDialogOpen(true);
    return;
  }
  // A session that must change a password it did not choose (issue 39 §7): the sign-in page asks for it.
  if (app.reason === PASSWORD_CHANGE_REQUIRED) {
    keepSignedOutReason(app.message);
    signInAgain();
    return;
  }
  if (app.errno === ERRNO_ACCOUNT_FROZEN) {
    toast.error(app.message, { id: 'account-frozen' });
    keepSignedOutReason(app.message);
    clearUserInfo();
    reloadOnceShown();
    return;
  }
  if (meta?.showsErrors || meta?.handledCodes?.includes(app.code)) return;
  toast.error(app.message);
}
