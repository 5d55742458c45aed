import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COOKIES } from '@console/shared';
import { readDevOutbox } from '../../infra/sms';
import { startWorkers } from '../../jobs/workers';
import { createHotelWithStaff, uniqueMobile } from '../../test/factories';
import { gatewayClient } from '../../test/gateway-client';
import { createTestContext, type TestContext } from '../../test/harness';
import { legacyClient } from '../../test/legacy-client';
import { sessionTokenFrom, trpcClient } from '../../test/trpc-client';

/**
 * A first password sent by SMS (a member added from the staff page) must be changed at the first
 * sign-in, on every face (issue 39 §7): the session may change it or sign out, and every other call
 * of the console (tRPC, the live feed, downloads) and of the legacy protocol is refused until then;
 * the card-service gateway, which cannot change a password, refuses the sign-in.
 */

let ctx: TestContext;
let workers: ReturnType<typeof startWorkers>;
let ipCounter = 0;
const freshIp = () => `172.17.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
const REQUIRED = 'changePassword.errors.required';

beforeAll(async () => {
  ctx = await createTestContext();
  workers = startWorkers(ctx.deps, { sweep: false });
});
afterAll(async () => {
  await workers?.close();
  await ctx?.close();
});

/** A member added from the staff page with a new mobile, and the first password the SMS gave it. */
async function memberAddedBySms() {
  const h = await createHotelWithStaff(ctx.deps);
  const mobile = uniqueMobile();
  const sentAt = Date.now();
  const added = await trpcClient(ctx.app).mutation('staff.add', { account: mobile, name: 'Wang Fang', role: 'staff' }, { token: h.ownerToken, lang: 'en' });
  expect(added.data?.created).toBe(true);
  for (let i = 0; i < 200; i++) {
    const sms = (await readDevOutbox(ctx.deps.redis, ctx.deps.key('dev', 'sms-outbox'))).find((m) => m.to === mobile && Date.parse(m.at) >= sentAt);
    if (sms) return { h, mobile, password: /first password: (\S+)\./.exec(sms.text)![1]! };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no first-password SMS');
}

async function webSignIn(account: string, password: string) {
  const api = trpcClient(ctx.app);
  const ip = freshIp();
  const captcha = await api.mutation('auth.captcha', undefined, { ip });
  const code = (await ctx.deps.redis.get(ctx.deps.key('captcha', captcha.data!.id)))!;
  const res = await api.mutation('auth.login', { account, password, captchaId: captcha.data!.id, captchaCode: code }, { ip, lang: 'en' });
  return { ...res, token: sessionTokenFrom(res.setCookie) };
}

describe('a first password sent by SMS', () => {
  it('signs in to the console, which may only change it or sign out until it is changed', async () => {
    const { h, mobile, password } = await memberAddedBySms();
    const signedIn = await webSignIn(mobile, password);
    expect(signedIn.data).toMatchObject({ mustChangePassword: true });
    const token = signedIn.token!;
    const api = trpcClient(ctx.app);

    // Every other call is refused, saying why: tRPC, the live feed, a download.
    for (const answer of [await api.query('auth.me', undefined, { token }), await api.query('room.list', {}, { token })]) {
      expect(answer.status).toBe(403);
      expect(answer.error?.data.app).toMatchObject({ code: 'FORBIDDEN', reason: REQUIRED, message: ctx.deps.i18n.t('en', REQUIRED) });
    }
    const feed = await ctx.app.inject({ method: 'GET', url: '/trpc/event.feed?input=%7B%7D', headers: { cookie: `${COOKIES.session}=${token}` } });
    expect(feed.statusCode).toBe(403);
    expect(feed.json()).toMatchObject({ error: { data: { app: { reason: REQUIRED } } } });
    const download = await ctx.app.inject({ method: 'GET', url: '/api/exports/123', headers: { cookie: `${COOKIES.session}=${token}` } });
    expect(download.statusCode).toBe(403);

    // Signing out is allowed.
    const other = await webSignIn(mobile, password);
    expect((await api.mutation('auth.logout', undefined, { token: other.token! })).status).toBe(200);

    // The same password again is not a change.
    const same = await api.mutation('auth.changePassword', { oldPassword: password, newPassword: password, confirmPassword: password }, { token, lang: 'en' });
    expect(same.error?.data.app).toMatchObject({ code: 'VALIDATION', fields: { newPassword: expect.any(String) } });

    const mine = 'my-own-password-1';
    expect((await api.mutation('auth.changePassword', { oldPassword: password, newPassword: mine, confirmPassword: mine }, { token })).status).toBe(200);
    expect(await ctx.deps.prisma.account.findUniqueOrThrow({ where: { mobile }, select: { mustChangePassword: true } })).toEqual({ mustChangePassword: false });
    // The change ended the session; signed in again with the new password, everything is allowed.
    expect((await api.query('auth.me', undefined, { token })).status).toBe(401);
    const again = await webSignIn(mobile, mine);
    expect(again.data).toMatchObject({ mustChangePassword: false });
    expect((await api.query('room.list', {}, { token: again.token! })).status).toBe(200);
    // Nothing changed for the owner who added it.
    expect((await api.query('auth.me', undefined, { token: h.ownerToken })).data).toMatchObject({ mustChangePassword: false });
  });

  it('signs in to the legacy protocol, which answers every action but the change and sign-out with why', async () => {
    const { mobile, password } = await memberAddedBySms();
    const legacy = legacyClient(ctx.app, ctx.config, { ip: freshIp(), language: 'en' });
    const login = await legacy.call<{ token: string; userInfo: { mustChangePassword: boolean } }>('login', { mobile, password });
    expect(login).toMatchObject({ errno: 0, data: { userInfo: { mustChangePassword: true } } });
    const token = login.data.token;
    const refused = await legacy.call('room/category/list', {}, { token });
    expect(refused).toMatchObject({ errno: 100004, errmsg: ctx.deps.i18n.t('en', REQUIRED) });
    const mine = 'my-own-password-2';
    expect(await legacy.call('setting/updatePassword', { oldPassword: password, newPassword: mine, confirmPassword: mine }, { token })).toMatchObject({
      errno: 0,
    });
    const again = await legacy.call<{ token: string }>('login', { mobile, password: mine });
    expect((await legacy.call('room/category/list', {}, { token: again.data.token })).errno).toBe(0);
  });

  it('is refused by the card-service gateway, which cannot change it, until it is changed', async () => {
    const { mobile, password } = await memberAddedBySms();
    const gw = gatewayClient(ctx.app);
    const refused = await gw.post('/auth/login', { mobile, password }, { ip: freshIp(), language: 'en' });
    expect(refused).toMatchObject({ code: 403, msg: ctx.deps.i18n.t('en', REQUIRED) });
    expect(await ctx.deps.prisma.session.count({ where: { account: { mobile }, kind: 'gateway' } })).toBe(0);
    const signedIn = await webSignIn(mobile, password);
    const mine = 'my-own-password-3';
    await trpcClient(ctx.app).mutation('auth.changePassword', { oldPassword: password, newPassword: mine, confirmPassword: mine }, { token: signedIn.token! });
    expect((await gw.post('/auth/login', { mobile, password: mine }, { ip: freshIp() })).code).toBe(200);
  });
});
