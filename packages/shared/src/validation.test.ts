import { describe, expect, it } from 'vitest';
import {
  LIMITS,
  ZAccount,
  ZCaptchaCode,
  ZChangePasswordInput,
  ZCheckInInput,
  ZCustomerListInput,
  ZQuoteInput,
  isLongEnoughStay,
  ZLoginInput,
  ZResetPasswordInput,
  describeZodError,
  isExternalLink,
  isMobile,
  resolveLanguageHeader,
} from './index';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

describe('mainland mobile rule (spec §5)', () => {
  it.each(['13800000000', '19912345678', '15000000001'])('accepts %s', (m) => expect(isMobile(m)).toBe(true));
  it.each(['12800000000', '1380000000', '138000000000', '23800000000', '1380000000a', ''])('rejects %s', (m) => expect(isMobile(m)).toBe(false));
});

describe('account: a mobile number or an e-mail', () => {
  it('normalises e-mail to lower case and trims', () => {
    expect(ZAccount.parse('  Owner@Demo.Hotel ')).toBe('owner@demo.hotel');
    expect(ZAccount.parse(' 13800000000 ')).toBe('13800000000');
  });
  it('says "incorrect email format" for a bad address and "account incorrect" for a bad number', () => {
    expect(firstMessage(ZAccount.safeParse('owner@'))).toBe('validation.emailFormat');
    expect(firstMessage(ZAccount.safeParse('12345'))).toBe('validation.accountInvalid');
    expect(firstMessage(ZAccount.safeParse(''))).toBe('validation.accountRequired');
  });
});

describe('login form', () => {
  const valid = { account: '13800000000', password: 'demo1234', captchaId: 'x'.repeat(32), captchaCode: 'ab3d' };
  it('accepts a complete form', () => expect(ZLoginInput.safeParse(valid).success).toBe(true));
  it('needs a password of more than 6 characters', () => {
    expect(firstMessage(ZLoginInput.safeParse({ ...valid, password: '123456' }))).toBe('validation.passwordLength');
    expect(ZLoginInput.safeParse({ ...valid, password: '1234567' }).success).toBe(true);
    expect(LIMITS.passwordMinLength).toBe(7);
  });
  it('needs a 4-character graphic code', () => {
    expect(firstMessage(ZCaptchaCode.safeParse(''))).toBe('validation.captchaRequired');
    expect(firstMessage(ZCaptchaCode.safeParse('abc'))).toBe('validation.captchaLength');
    expect(firstMessage(ZCaptchaCode.safeParse('abcde'))).toBe('validation.captchaLength');
  });
});

describe('password change and reset', () => {
  it('requires the confirmation to match', () => {
    const result = ZChangePasswordInput.safeParse({ oldPassword: 'old-pass-1', newPassword: 'new-pass-1', confirmPassword: 'new-pass-2' });
    expect(result.success).toBe(false);
    expect(describeZodError(result.error!).fields).toEqual({ confirmPassword: 'validation.passwordMismatch' });
  });
  it('requires a new password of more than 6 characters and a confirmation', () => {
    const result = ZChangePasswordInput.safeParse({ oldPassword: 'old-pass-1', newPassword: 'short', confirmPassword: '' });
    expect(describeZodError(result.error!).fields).toMatchObject({
      newPassword: 'validation.newPasswordLength',
      confirmPassword: 'validation.confirmPasswordRequired',
    });
  });
  it('takes a 6-digit SMS code', () => {
    const base = { mobile: '13800000000', newPassword: 'new-pass-1', confirmPassword: 'new-pass-1' };
    expect(ZResetPasswordInput.safeParse({ ...base, code: '123456' }).success).toBe(true);
    expect(firstMessage(ZResetPasswordInput.safeParse({ ...base, code: '' }))).toBe('validation.smsCodeRequired');
    expect(firstMessage(ZResetPasswordInput.safeParse({ ...base, code: '12345' }))).toBe('validation.smsCodeFormat');
  });
});

describe('customer list input', () => {
  it('has paging defaults and bounds', () => {
    expect(ZCustomerListInput.parse({})).toEqual({ page: 1, pageSize: LIMITS.pageSizeDefault, state: 'all', sort: 'newest' });
    expect(ZCustomerListInput.safeParse({ pageSize: LIMITS.pageSizeMax + 1 }).success).toBe(false);
    expect(ZCustomerListInput.safeParse({ page: 0 }).success).toBe(false);
  });
});

describe('languages and links', () => {
  it('maps codes, headers and browser tags to the 12 request headers of spec §9', () => {
    expect(resolveLanguageHeader('Russian')).toBe('ru-RU');
    expect(resolveLanguageHeader('ru')).toBe('ru-RU');
    expect(resolveLanguageHeader('zh-Hant-TW')).toBe('zh-TW');
    expect(resolveLanguageHeader('zh')).toBe('zh-CN');
    expect(resolveLanguageHeader('pt-BR,pt;q=0.9')).toBe('pt');
    expect(resolveLanguageHeader('xx')).toBeUndefined();
  });
  it('recognises external links by scheme (spec §5)', () => {
    expect(['http://a', 'https://a', 'mailto:a@b', 'tel:123'].every(isExternalLink)).toBe(true);
    expect(['/room', 'javascript:alert(1)', 'ftp://a'].some(isExternalLink)).toBe(false);
  });
});

describe('the shortest stay (spec §5: one hour)', () => {
  const from = new Date('2026-11-23T06:00:00.000Z');
  const at = (ms: number) => new Date(from.getTime() + ms);
  const hour = LIMITS.minStayHours * 3_600_000;
  const checkIn = (to: Date) => ({
    roomId: 1,
    checkInAt: from.toISOString(),
    expectedCheckOutAt: to.toISOString(),
    guests: [{ name: 'Guest' }],
    idempotencyKey: 'boundary-1',
  });

  it('takes a stay of exactly one hour, and refuses one a millisecond shorter, on every stay input', () => {
    expect(isLongEnoughStay(from, at(hour))).toBe(true);
    expect(isLongEnoughStay(from, at(hour - 1))).toBe(false);
    expect(ZCheckInInput.safeParse(checkIn(at(hour))).success).toBe(true);
    const short = ZCheckInInput.safeParse(checkIn(at(hour - 1)));
    expect(short.success).toBe(false);
    expect(short.error?.issues[0]).toMatchObject({ path: ['expectedCheckOutAt'], message: 'validation.checkOutAfterCheckIn' });
    expect(ZQuoteInput.safeParse({ roomId: 1, checkInAt: from.toISOString(), expectedCheckOutAt: at(hour).toISOString() }).success).toBe(true);
    expect(ZQuoteInput.safeParse({ roomId: 1, checkInAt: from.toISOString(), expectedCheckOutAt: at(hour - 1).toISOString() }).success).toBe(false);
  });
});
