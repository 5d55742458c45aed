import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, LOGIN_LIMITS } from '@console/shared';
import { createTestContext, testMeta, type TestContext } from '../../test/harness';
import { TEST_PASSWORD, createAccount, createHotel, uniqueMobile } from '../../test/factories';
import { sessionTokenFrom, trpcClient } from '../../test/trpc-client';
import { readDevOutbox } from '../../infra/sms';
import { startWorkers } from '../../jobs/workers';
import type { AuthedContext } from '../../context';
import { setStaffFrozen } from '../staff/staff.service';

/** The staff page's freeze, by account: the member of the actor's hotel (or of the hotel named). */
async function freeze(actor: AuthedContext, accountId: number, frozen: boolean) {
  const member = await ctx.deps.prisma.membership.findFirst({ where: { accountId, hotelId: actor.actor.hotelId } });
  const other = member ?? (await ctx.deps.prisma.membership.findFirstOrThrow({ where: { accountId } }));
  return setStaffFrozen(actor, { id: other.id, frozen });
}

let ctx: TestContext;
let workers: ReturnType<typeof startWorkers>;
let ipCounter = 0;
/** Each test signs in from its own address, so address limits of one test never touch another. */
const freshIp = () => `172.16.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

beforeAll(async () => {
  ctx = await createTestContext();
  workers = startWorkers(ctx.deps, { sweep: false });
});
afterAll(async () => {
  await workers.close();
  await ctx.close();
});

async function captchaAnswer(id: string) {
  const answer = await ctx.deps.redis.get(ctx.deps.key('captcha', id));
  if (!answer) throw new Error('captcha not in Redis');
  return answer;
}

async function newCaptcha(api: ReturnType<typeof trpcClient>, ip: string) {
  const res = await api.mutation('auth.captcha', undefined, { ip });
  return { id: res.data!.id, svg: res.data!.svg, code: await captchaAnswer(res.data!.id) };
}

async function webLogin(account: string, password: string, options: { ip?: string; lang?: string; code?: string } = {}) {
  const api = trpcClient(ctx.app);
  const ip = options.ip ?? freshIp();
  const captcha = await newCaptcha(api, ip);
  return api.mutation('auth.login', { account, password, captchaId: captcha.id, captchaCode: options.code ?? captcha.code }, { ip, lang: options.lang });
}

async function auditActions(accountId: number) {
  const rows = await ctx.deps.prisma.auditLog.findMany({ where: { actorAccountId: accountId }, orderBy: { id: 'asc' }, select: { action: true } });
  return rows.map((r) => r.action);
}

describe('graphic verification code', () => {
  it('is a 4-character SVG kept in Redis for 2 minutes', async () => {
    const api = trpcClient(ctx.app);
    const captcha = await newCaptcha(api, freshIp());
    expect(captcha.svg).toMatch(/^<svg[\s\S]*<\/svg>$/);
    expect(captcha.code).toHaveLength(LIMITS.captchaLength);
    const ttl = await ctx.deps.redis.ttl(ctx.deps.key('captcha', captcha.id));
    expect(ttl).toBeGreaterThan(LIMITS.captchaTtlSeconds - 5);
    expect(ttl).toBeLessThanOrEqual(LIMITS.captchaTtlSeconds);
  });

  it('is single use, and a wrong code is refused with a translated message', async () => {
    const hotel = await createHotel(ctx.deps);
    const account = await createAccount(ctx.deps, { hotelId: hotel.id });
    const api = trpcClient(ctx.app);
    const ip = freshIp();
    const captcha = await newCaptcha(api, ip);
    const wrong = await api.mutation('auth.login', { account: account.mobile!, password: TEST_PASSWORD, captchaId: captcha.id, captchaCode: 'zzzz' }, { ip });
    expect(wrong.error?.data.app).toMatchObject({ code: 'CAPTCHA_INVALID', errno: 100008, message: 'The verification code is incorrect or has expired.' });
    const reused = await api.mutation(
      'auth.login',
      { account: account.mobile!, password: TEST_PASSWORD, captchaId: captcha.id, captchaCode: captcha.code },
      { ip },
    );
    expect(reused.error?.data.app?.code).toBe('CAPTCHA_INVALID');
  });
});

describe('web sign-in', () => {
  it('signs in with mobile or e-mail, sets an HttpOnly SameSite session cookie and records it', async () => {
    const hotel = await createHotel(ctx.deps, 'Sign-in Hotel');
    const account = await createAccount(ctx.deps, { hotelId: hotel.id, apiKeyAuth: true, email: `mixed${Date.now()}@Case.Test`.toLowerCase() });
    const byMobile = await webLogin(account.mobile!, TEST_PASSWORD);
    expect(byMobile.status).toBe(200);
    expect(byMobile.data).toMatchObject({ id: account.id, apiKeyAuth: true, hotel: { id: hotel.id, name: 'Sign-in Hotel' } });
    const cookie = ([] as string[]).concat(byMobile.setCookie ?? []).join(';');
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const token = sessionTokenFrom(byMobile.setCookie)!;
    const me = await trpcClient(ctx.app).query('auth.me', undefined, { token });
    expect(me.data?.id).toBe(account.id);

    const byEmail = await webLogin(account.email!.toUpperCase(), TEST_PASSWORD);
    expect(byEmail.status).toBe(200);
    expect(await auditActions(account.id)).toEqual(['auth.login.success', 'auth.login.success']);
  });

  it('refuses a wrong password with the message in the request language, and records the failure', async () => {
    const hotel = await createHotel(ctx.deps);
    const account = await createAccount(ctx.deps, { hotelId: hotel.id });
    const en = await webLogin(account.mobile!, 'wrong-password', { lang: 'en' });
    expect(en.error?.data.app).toMatchObject({ code: 'INVALID_CREDENTIALS', message: 'Incorrect account or password.' });
    const zh = await webLogin(account.mobile!, 'wrong-password', { lang: 'zh-CN' });
    expect(zh.error?.message).toBe('账号或密码错误');
    const unknown = await webLogin(uniqueMobile(), 'wrong-password');
    expect(unknown.error?.data.app?.code).toBe('INVALID_CREDENTIALS');
    expect(await auditActions(account.id)).toEqual(['auth.login.failure', 'auth.login.failure']);
  });

  it('translates field errors of a bad form', async () => {
    const api = trpcClient(ctx.app);
    const res = await api.mutation('auth.login', { account: 'not-a-phone', password: '123', captchaId: '', captchaCode: '' }, { lang: 'zh-CN', ip: freshIp() });
    expect(res.status).toBe(400);
    expect(res.error?.data.app).toMatchObject({ code: 'VALIDATION', errno: 100001 });
    expect(res.error?.data.app?.fields).toMatchObject({
      account: '账号不正确，请输入手机号或邮箱',
      password: '密码长度需大于6位',
      captchaCode: '图形验证码不能为空',
    });
  });

  it('locks an account after repeated failures, before hashing or spending the code, and says when to retry', async () => {
    const hotel = await createHotel(ctx.deps);
    const account = await createAccount(ctx.deps, { hotelId: hotel.id });
    for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) {
      const res = await webLogin(account.mobile!, `wrong-${i}-password`);
      expect(res.error?.data.app?.code).toBe('INVALID_CREDENTIALS');
    }
    const api = trpcClient(ctx.app);
    const ip = freshIp();
    const captcha = await newCaptcha(api, ip);
    const blocked = await api.mutation(
      'auth.login',
      { account: account.mobile!, password: TEST_PASSWORD, captchaId: captcha.id, captchaCode: captcha.code },
      { ip },
    );
    expect(blocked.status).toBe(429);
    expect(blocked.error?.data.app).toMatchObject({ code: 'TOO_MANY_ATTEMPTS', errno: 100007 });
    expect(blocked.error?.data.app?.retryAfterSeconds).toBeGreaterThan(0);
    expect(blocked.error?.message).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
    // The limit was checked first: the graphic code is still unused.
    expect(await ctx.deps.redis.get(ctx.deps.key('captcha', captcha.id))).toBe(captcha.code);
    const actions = await auditActions(account.id);
    expect(actions.filter((a) => a === 'auth.lockout')).toHaveLength(1);
  });

  it('limits failures per client address across accounts', async () => {
    const ip = freshIp();
    for (let i = 0; i < LOGIN_LIMITS.perAddress; i++) {
      const res = await webLogin(uniqueMobile(), 'wrong-password', { ip });
      expect(res.error?.data.app?.code).toBe('INVALID_CREDENTIALS');
    }
    const hotel = await createHotel(ctx.deps);
    const account = await createAccount(ctx.deps, { hotelId: hotel.id });
    expect((await webLogin(account.mobile!, TEST_PASSWORD, { ip })).error?.data.app?.code).toBe('TOO_MANY_ATTEMPTS');
    expect((await webLogin(account.mobile!, TEST_PASSWORD)).status).toBe(200);
  }, 60_000);

  it('refuses a frozen account with errno 9000005 and ends its sessions', async () => {
    const hotel = await createHotel(ctx.deps);
    const owner = await createAccount(ctx.deps, { hotelId: hotel.id, role: 'owner' });
    const staff = await createAccount(ctx.deps, { hotelId: hotel.id, role: 'staff' });
    const ownerToken = sessionTokenFrom((await webLogin(owner.mobile!, TEST_PASSWORD)).setCookie)!;
    const staffToken = sessionTokenFrom((await webLogin(staff.mobile!, TEST_PASSWORD)).setCookie)!;
    const { actorContext } = await import('../../test/harness');
    await freeze(await actorContext(ctx.deps, ownerToken), staff.id, true);

    const me = await trpcClient(ctx.app).query('auth.me', undefined, { token: staffToken });
    expect(me.error?.data.app).toMatchObject({ code: 'ACCOUNT_FROZEN', errno: 9000005 });
    const login = await webLogin(staff.mobile!, TEST_PASSWORD);
    expect(login.error?.data.app?.errno).toBe(9000005);
    expect(await ctx.deps.prisma.session.count({ where: { accountId: staff.id, revokedAt: null } })).toBe(0);

    await freeze(await actorContext(ctx.deps, ownerToken), staff.id, false);
    expect((await webLogin(staff.mobile!, TEST_PASSWORD)).status).toBe(200);
    // The old session stays ended after unfreezing.
    expect((await trpcClient(ctx.app).query('auth.me', undefined, { token: staffToken })).error?.data.app?.errno).toBe(100003);
  });

  it('does not let a hotel freeze its owner, itself, or an account working for another hotel too', async () => {
    const hotel = await createHotel(ctx.deps);
    const other = await createHotel(ctx.deps);
    const owner = await createAccount(ctx.deps, { hotelId: hotel.id, role: 'owner' });
    const shared = await createAccount(ctx.deps, { hotelId: hotel.id, role: 'staff' });
    await ctx.deps.prisma.membership.create({ data: { accountId: shared.id, hotelId: other.id, role: 'owner' } });
    const token = sessionTokenFrom((await webLogin(owner.mobile!, TEST_PASSWORD)).setCookie)!;
    const { actorContext } = await import('../../test/harness');
    const actor = await actorContext(ctx.deps, token);
    await expect(freeze(actor, owner.id, true)).rejects.toMatchObject({ code: 'FORBIDDEN', message: 'staff.errors.self' });
    await expect(freeze(actor, shared.id, true)).rejects.toMatchObject({ code: 'FORBIDDEN', message: 'staff.errors.sharedAccount' });
    const stranger = await createAccount(ctx.deps, { hotelId: other.id, role: 'staff' });
    await expect(freeze(actor, stranger.id, true)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // A second owner may freeze the first one, the last owner is never frozen (staff.integration.test.ts).
  });

  it('refuses an account that belongs to no hotel', async () => {
    const loner = await createAccount(ctx.deps);
    expect((await webLogin(loner.mobile!, TEST_PASSWORD)).error?.data.app?.code).toBe('NO_HOTEL');
  });
});

describe('sessions', () => {
  it('end on logout, and the cookie is cleared', async () => {
    const hotel = await createHotel(ctx.deps);
    const account = await createAccount(ctx.deps, { hotelId: hotel.id });
    const token = sessionTokenFrom((await webLogin(account.mobile!, TEST_PASSWORD)).setCookie)!;
    const api = trpcClient(ctx.app);
    const out = await api.mutation('auth.logout', undefined, { token });
    expect(out.status).toBe(200);
    expect(String(out.setCookie)).toMatch(/sl_session=;/);
    expect((await api.query('auth.me', undefined, { token })).error?.data.app?.errno).toBe(100003);
    expect(await auditActions(account.id)).toContain('auth.logout');
  });

  it('expire after the idle time and after the absolute time', async () => {
    const hotel = await createHotel(ctx.deps);
    const account = await createAccount(ctx.deps, { hotelId: hotel.id });
    const api = trpcClient(ctx.app);
    const idle = sessionTokenFrom((await webLogin(account.mobile!, TEST_PASSWORD)).setCookie)!;
    await ctx.deps.prisma.session.updateMany({
      where: { accountId: account.id },
      data: { lastSeenAt: new Date(Date.now() - ctx.config.session.idleMs - 1000) },
    });
    expect((await api.query('auth.me', undefined, { token: idle })).error?.data.app?.errno).toBe(100003);

    const absolute = sessionTokenFrom((await webLogin(account.mobile!, TEST_PASSWORD)).setCookie)!;
    await ctx.deps.prisma.session.updateMany({ where: { accountId: account.id, revokedAt: null }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await api.query('auth.me', undefined, { token: absolute })).error?.data.app?.errno).toBe(100003);
  });

  it('reject garbage and missing tokens with errno 100003', async () => {
    const api = trpcClient(ctx.app);
    expect((await api.query('auth.me')).error?.data.app).toMatchObject({ errno: 100003, message: 'Your sign-in has expired. Please sign in again.' });
    expect((await api.query('auth.me', undefined, { token: 'garbage' })).error?.data.app?.errno).toBe(100003);
  });

  it('refuse a cookie-authenticated write from another origin', async () => {
    const hotel = await createHotel(ctx.deps);
    const account = await createAccount(ctx.deps, { hotelId: hotel.id });
    const token = sessionTokenFrom((await webLogin(account.mobile!, TEST_PASSWORD)).setCookie)!;
    const api = trpcClient(ctx.app);
    const foreign = await api.mutation('auth.logout', undefined, { token, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.error?.data.app?.code).toBe('ORIGIN_REJECTED');
    expect((await api.mutation('auth.logout', undefined, { token, origin: null })).error?.data.app?.code).toBe('ORIGIN_REJECTED');
    // The same host by another scheme or port is another origin (the deployment is http://localhost:3000).
    for (const origin of [
      'https://localhost:3000',
      'http://localhost:3001',
      'http://localhost',
      'https://localhost',
      'http://localhost:3000.evil.example',
      'null',
    ]) {
      const other = await api.mutation('auth.logout', undefined, { token, origin });
      expect({ origin, status: other.status, code: other.error?.data.app?.code }).toEqual({ origin, status: 403, code: 'ORIGIN_REJECTED' });
    }
    expect((await api.query('auth.me', undefined, { token })).status).toBe(200);
    expect((await api.mutation('auth.logout', undefined, { token, origin: 'http://localhost:3000/' })).status).toBe(200);
  });
});

describe('password change', () => {
  it('needs the current password, then ends every session so the user signs in again', async () => {
    const hotel = await createHotel(ctx.deps);
    const account = await createAccount(ctx.deps, { hotelId: hotel.id });
    const first = sessionTokenFrom((await webLogin(account.mobile!, TEST_PASSWORD)).setCookie)!;
    const second = sessionTokenFrom((await webLogin(account.mobile!, TEST_PASSWORD)).setCookie)!;
    const api = trpcClient(ctx.app);

    const wrong = await api.mutation(
      'auth.changePassword',
      { oldPassword: 'not-it-123', newPassword: 'brand-new-9', confirmPassword: 'brand-new-9' },
      { token: first },
    );
    expect(wrong.error?.data.app?.code).toBe('OLD_PASSWORD_WRONG');
    const mismatch = await api.mutation(
      'auth.changePassword',
      { oldPassword: TEST_PASSWORD, newPassword: 'brand-new-9', confirmPassword: 'brand-new-8' },
      { token: first },
    );
    expect(mismatch.error?.data.app?.fields).toEqual({ confirmPassword: 'The two passwords do not match' });

    const ok = await api.mutation(
      'auth.changePassword',
      { oldPassword: TEST_PASSWORD, newPassword: 'brand-new-9', confirmPassword: 'brand-new-9' },
      { token: first },
    );
    expect(ok.status).toBe(200);
    for (const token of [first, second]) expect((await api.query('auth.me', undefined, { token })).error?.data.app?.errno).toBe(100003);
    expect((await webLogin(account.mobile!, TEST_PASSWORD)).error?.data.app?.code).toBe('INVALID_CREDENTIALS');
    expect((await webLogin(account.mobile!, 'brand-new-9')).status).toBe(200);
    expect(await auditActions(account.id)).toContain('auth.password.change');
  });
});

/** Until the queue has nothing waiting, delayed or running. */
async function waitForDrainedQueue(queue: { getJobCounts(...types: string[]): Promise<Record<string, number>> }) {
  for (let i = 0; i < 200; i++) {
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'paused');
    if (Object.values(counts).every((n) => n === 0)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the queue did not drain in 10 s');
}

describe('password recovery by SMS', () => {
  const outbox = () => readDevOutbox(ctx.deps.redis, ctx.deps.key('dev', 'sms-outbox'));
  async function waitForSms(mobile: string, after: number) {
    for (let i = 0; i < 100; i++) {
      const message = (await outbox()).find((m) => m.to === mobile && Date.parse(m.at) >= after);
      if (message) return message;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no SMS to ${mobile}`);
  }

  it('sends a 6-digit code through the job queue, which resets the password once and ends all sessions', async () => {
    const hotel = await createHotel(ctx.deps);
    const account = await createAccount(ctx.deps, { hotelId: hotel.id });
    const token = sessionTokenFrom((await webLogin(account.mobile!, TEST_PASSWORD)).setCookie)!;
    const api = trpcClient(ctx.app);
    const ip = freshIp();
    const sentAt = Date.now();
    expect((await api.mutation('auth.sendResetCode', { mobile: account.mobile! }, { ip, lang: 'zh-CN' })).status).toBe(200);
    const sms = await waitForSms(account.mobile!, sentAt);
    expect(sms.text).toMatch(/验证码为 \d{6}，10 分钟内有效/);
    const code = sms.text.match(/\d{6}/)![0];
    expect(await ctx.deps.redis.ttl(ctx.deps.key('pwreset', account.mobile!))).toBeGreaterThan(LIMITS.smsCodeTtlSeconds - 10);

    const reset = await api.mutation(
      'auth.resetPassword',
      { mobile: account.mobile!, code, newPassword: 'recovered-1', confirmPassword: 'recovered-1' },
      { ip },
    );
    expect(reset.status).toBe(200);
    const again = await api.mutation(
      'auth.resetPassword',
      { mobile: account.mobile!, code, newPassword: 'recovered-2', confirmPassword: 'recovered-2' },
      { ip },
    );
    expect(again.error?.data.app?.code).toBe('SMS_CODE_INVALID');
    expect((await api.query('auth.me', undefined, { token })).error?.data.app?.errno).toBe(100003);
    expect((await webLogin(account.mobile!, 'recovered-1')).status).toBe(200);
    expect(await auditActions(account.id)).toEqual(expect.arrayContaining(['auth.reset.request', 'auth.password.reset']));
  });

  it('allows one code a minute per number, and burns a code after 5 wrong tries', async () => {
    const hotel = await createHotel(ctx.deps);
    const account = await createAccount(ctx.deps, { hotelId: hotel.id });
    const api = trpcClient(ctx.app);
    const ip = freshIp();
    const sentAt = Date.now();
    expect((await api.mutation('auth.sendResetCode', { mobile: account.mobile! }, { ip })).status).toBe(200);
    const second = await api.mutation('auth.sendResetCode', { mobile: account.mobile! }, { ip: freshIp() });
    expect(second.error?.data.app).toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
    expect(second.error?.data.app?.retryAfterSeconds).toBeGreaterThan(50);
    const code = (await waitForSms(account.mobile!, sentAt)).text.match(/\d{6}/)![0];
    const wrongCode = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < LIMITS.smsCodeMaxAttempts; i++) {
      const res = await api.mutation(
        'auth.resetPassword',
        { mobile: account.mobile!, code: wrongCode, newPassword: 'guessing-1', confirmPassword: 'guessing-1' },
        { ip },
      );
      expect(res.error?.data.app?.code).toBe('SMS_CODE_INVALID');
    }
    const late = await api.mutation('auth.resetPassword', { mobile: account.mobile!, code, newPassword: 'guessing-1', confirmPassword: 'guessing-1' }, { ip });
    expect(late.error?.data.app?.code).toBe('SMS_CODE_INVALID');
  });

  it('answers the same for a number without an account, and sends nothing', async () => {
    const api = trpcClient(ctx.app);
    const mobile = uniqueMobile();
    expect((await api.mutation('auth.sendResetCode', { mobile }, { ip: freshIp() })).status).toBe(200);
    // Had anything been queued, the worker would have sent it by the time the queue is empty.
    await waitForDrainedQueue(ctx.deps.queues.sms);
    expect((await outbox()).some((m) => m.to === mobile)).toBe(false);
    expect(await ctx.deps.queues.sms.getJobs(['completed', 'failed', 'waiting', 'active', 'delayed'])).not.toContainEqual(
      expect.objectContaining({ data: expect.objectContaining({ to: mobile }) }),
    );
  });

  it('validates the mobile number with the shared rule', async () => {
    const res = await trpcClient(ctx.app).mutation('auth.sendResetCode', { mobile: '12345' }, { ip: freshIp(), lang: 'en' });
    expect(res.error?.data.app?.fields).toEqual({ mobile: 'Incorrect mobile number format' });
  });
});

describe('audit trail', () => {
  it('stores who, from where and with which request', async () => {
    const hotel = await createHotel(ctx.deps);
    const account = await createAccount(ctx.deps, { hotelId: hotel.id });
    const meta = testMeta();
    await webLogin(account.mobile!, TEST_PASSWORD, { ip: meta.ip });
    const entry = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { actorAccountId: account.id, action: 'auth.login.success' } });
    expect(entry).toMatchObject({ hotelId: hotel.id, actorType: 'account', ip: meta.ip, entityType: 'Session' });
    expect(entry.requestId).toBeTruthy();
  });
});

describe('a service not available', () => {
  it('answers HTTP 503 with its code and a translated message, never a 500 (a client may try again later)', async () => {
    const none = await createTestContext({ env: { SMS_PROVIDER: 'none' } });
    try {
      const res = await trpcClient(none.app).mutation('auth.sendResetCode', { mobile: '13800138000' }, { ip: freshIp(), lang: 'en' });
      expect(res.status).toBe(503);
      expect(res.error?.data).toMatchObject({ code: 'SERVICE_UNAVAILABLE', httpStatus: 503, app: { code: 'SERVICE_UNAVAILABLE' } });
      expect(res.error?.message).toMatch(/not available here/);
    } finally {
      await none.close();
    }
  });
});
