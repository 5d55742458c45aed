// @vitest-environment jsdom
import { TRPCClientError } from '@trpc/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TAppErrorData } from '@console/shared';

const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn() }));
vi.mock('./toast', () => ({ toast }));
vi.mock('./i18n', () => ({ i18next: { t: (key: string) => `t:${key}` } }));
const clearUserInfo = vi.hoisted(() => vi.fn());
vi.mock('./user-info', () => ({ clearUserInfo }));

const { handleApiError, onSessionExpired, setSessionDialogOpen } = await import('./api-errors');

function serverError(app: Partial<TAppErrorData>) {
  return TRPCClientError.from({ error: { message: app.message ?? '', code: -32600, data: { app: { code: 'INTERNAL', errno: 0, message: '', ...app } } } });
}

describe('API error handling (spec §8)', () => {
  const reload = vi.fn();
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('location', { ...window.location, reload });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.clearAllMocks();
    setSessionDialogOpen(false);
  });

  it('100003: opens one "login expired" confirm box, however many calls fail', () => {
    const listener = vi.fn();
    const stop = onSessionExpired(listener);
    handleApiError(serverError({ errno: 100003, code: 'UNAUTHENTICATED', message: 'expired' }));
    handleApiError(serverError({ errno: 100003, code: 'UNAUTHENTICATED', message: 'expired' }));
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener).toHaveBeenCalledWith(true);
    expect(toast.error).not.toHaveBeenCalled();
    stop();
  });

  it('9000005: shows the server message, clears the user info and reloads 1 s after the message is on screen', () => {
    handleApiError(serverError({ errno: 9000005, code: 'ACCOUNT_FROZEN', message: '账号已被冻结' }));
    expect(toast.error).toHaveBeenCalledWith('账号已被冻结', expect.anything());
    expect(clearUserInfo).toHaveBeenCalled();
    // The toaster loads on its first toast: no reload while the message is not shown yet.
    vi.advanceTimersByTime(1500);
    expect(reload).not.toHaveBeenCalled();
    const shown = document.createElement('li');
    shown.setAttribute('data-sonner-toast', '');
    document.body.append(shown);
    vi.advanceTimersByTime(100);
    vi.advanceTimersByTime(999);
    expect(reload).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(reload).toHaveBeenCalledTimes(1);
    shown.remove();
  });

  it('a session that must change its first password goes back to sign-in, saying why (issue 39 §7)', () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, pathname: '/room', search: '', assign });
    handleApiError(serverError({ errno: 100004, code: 'FORBIDDEN', reason: 'changePassword.errors.required', message: 'choose your own' }));
    expect(clearUserInfo).toHaveBeenCalled();
    expect(assign).toHaveBeenCalledWith('/login?redirect=%2Froom');
    expect(window.sessionStorage.getItem('signed-out-reason')).toBe('choose your own');
    expect(toast.error).not.toHaveBeenCalled();
    window.sessionStorage.clear();
  });

  it('9000003 and 9000020 are rejected silently', () => {
    handleApiError(serverError({ errno: 9000003, code: 'DUPLICATE_REQUEST', message: 'x' }));
    handleApiError(serverError({ errno: 9000020, code: 'SUPERSEDED', message: 'y' }));
    expect(toast.error).not.toHaveBeenCalled();
  });

  it("any other errno shows the server's message, unless the screen shows it itself", () => {
    handleApiError(serverError({ errno: 100010, code: 'INVALID_CREDENTIALS', message: 'Incorrect account or password.' }));
    expect(toast.error).toHaveBeenCalledWith('Incorrect account or password.');
    toast.error.mockClear();
    handleApiError(serverError({ errno: 100001, code: 'VALIDATION', message: 'bad' }), { handledCodes: ['VALIDATION'] });
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('a network error is shown for 1 s', () => {
    handleApiError(TRPCClientError.from(new TypeError('Failed to fetch')));
    expect(toast.error).toHaveBeenCalledWith('t:errors.network', expect.objectContaining({ duration: 1000 }));
  });
});
