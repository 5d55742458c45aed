// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';

const mutate = vi.fn();
vi.mock('./trpc', () => ({ trpcClient: { auth: { captcha: { mutate } } } }));

const fromServer = { id: 'c2', svg: '<svg/>' };

describe('the graphic code asked for early (issue 18 §4)', () => {
  beforeEach(() => {
    vi.resetModules();
    mutate.mockReset().mockResolvedValue(fromServer);
    window.__signInCaptcha = undefined;
  });

  it('takes the code the page asked for as it started, once, without asking again', async () => {
    const { requestCaptchaEarly, takeEarlyCaptcha } = await import('./early-captcha');
    window.__signInCaptcha = { at: Date.now(), answer: Promise.resolve({ id: 'c1', svg: '<svg/>' }) };
    requestCaptchaEarly();
    requestCaptchaEarly();
    await expect(takeEarlyCaptcha()).resolves.toEqual({ id: 'c1', svg: '<svg/>' });
    expect(takeEarlyCaptcha()).toBeUndefined();
    expect(mutate).not.toHaveBeenCalled();
  });

  it("asks through the console's client when the page's own request failed, or there was none", async () => {
    const { requestCaptchaEarly, takeEarlyCaptcha } = await import('./early-captcha');
    window.__signInCaptcha = { at: Date.now(), answer: Promise.reject(new Error('auth.captcha answered 500')) };
    requestCaptchaEarly();
    await expect(takeEarlyCaptcha()).resolves.toEqual(fromServer);
    expect(mutate).toHaveBeenCalledTimes(1);
    requestCaptchaEarly();
    await expect(takeEarlyCaptcha()).resolves.toEqual(fromServer);
    expect(mutate).toHaveBeenCalledTimes(2);
  });

  it('does not show a code asked for more than a minute ago (it lives 2 minutes)', async () => {
    const { requestCaptchaEarly, takeEarlyCaptcha } = await import('./early-captcha');
    window.__signInCaptcha = { at: Date.now() - 61_000, answer: Promise.resolve({ id: 'old', svg: '<svg/>' }) };
    requestCaptchaEarly();
    expect(takeEarlyCaptcha()).toBeUndefined();
  });
});
