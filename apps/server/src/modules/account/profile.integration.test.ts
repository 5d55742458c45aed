import { COOKIES } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD, createAccount, createHotelWithStaff, uniqueMobile } from '../../test/factories';
import { gatewayClient } from '../../test/gateway-client';
import { createTestContext, testMeta, type TestContext } from '../../test/harness';
import { legacyClient } from '../../test/legacy-client';
import { pngPhoto } from '../../test/photos';
import { trpcClient } from '../../test/trpc-client';
import { createSession } from '../auth/session.service';

/**
 * The personal centre's server side (issue 9 §4): nickname, avatar (uploaded with
 * `purpose=avatar`, by any member), e-mail and mobile (the current password first: a wrong one is
 * refused and audited; another account's address or number is refused), and the account's sessions
 * on every face with "sign out everywhere else" (web, legacy and gateway sessions end, the
 * current one stays) and one by one (another account's session is not found).
 */
let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;
let ip = 0;
const nextIp = () => `10.94.${Math.floor(++ip / 250)}.${ip % 250}`;

beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
});
afterAll(async () => {
  await ctx?.close();
});

function multipart(bytes: Buffer) {
  const boundary = '----avatar-boundary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="me.png"\r\nContent-Type: image/png\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('the profile', () => {
  it('changes the nickname (audited) and the user info follows', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const profile = await api.query('account.profile', undefined, { token: h.staffToken });
    expect(profile.data).toMatchObject({ id: h.staff.id, nickname: h.staff.nickname, mobile: h.staff.mobile, email: h.staff.email });
    const changed = await api.mutation('account.updateNickname', { nickname: '  Front desk Ana ' }, { token: h.staffToken });
    expect(changed.data?.nickname).toBe('Front desk Ana');
    expect((await api.query('auth.me', undefined, { token: h.staffToken })).data?.nickname).toBe('Front desk Ana');
    const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { actorAccountId: h.staff.id, action: 'account.nickname' } });
    expect(audit).toMatchObject({ before: { nickname: h.staff.nickname }, after: { nickname: 'Front desk Ana' }, hotelId: h.hotel.id });
    const blank = await api.raw.mutation('account.updateNickname', { nickname: '   ' }, { token: h.staffToken });
    expect(blank.error?.data.app?.fields?.nickname).toBeTruthy();
    const long = await api.raw.mutation('account.updateNickname', { nickname: 'x'.repeat(31) }, { token: h.staffToken });
    expect(long.error?.data.app?.code).toBe('VALIDATION');
  });

  it('sets an avatar any member uploaded, refuses a path that is not its upload, and removes it', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const file = multipart(pngPhoto(2_000));
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/uploads?purpose=avatar',
      headers: {
        'content-type': file.contentType,
        host: 'localhost:3000',
        language: 'en',
        cookie: `${COOKIES.session}=${h.staffToken}`,
        origin: 'http://localhost:3000',
      },
      payload: file.body,
    });
    expect(res.statusCode).toBe(200);
    const { url } = res.json() as { url: string };
    expect(url).toMatch(new RegExp(`^/uploads/${h.hotel.id}/`));
    const set = await api.mutation('account.setAvatar', { avatar: url }, { token: h.staffToken });
    expect(set.data?.avatar).toBe(url);
    expect((await api.query('auth.me', undefined, { token: h.staffToken })).data?.avatar).toBe(url);

    // A well-formed path that names no upload of this hotel, and another hotel's picture.
    const missing = await api.mutation(
      'account.setAvatar',
      { avatar: `/uploads/${h.hotel.id}/00000000-0000-4000-8000-000000000000.png` },
      { token: h.staffToken },
    );
    expect(missing.error?.data.app?.fields?.avatar).toBeTruthy();
    const b = await createHotelWithStaff(ctx.deps);
    const foreign = await api.mutation('account.setAvatar', { avatar: url }, { token: b.ownerToken });
    expect(foreign.error?.data.app?.fields?.avatar).toBeTruthy();

    const removed = await api.mutation('account.setAvatar', { avatar: null }, { token: h.staffToken });
    expect(removed.data?.avatar).toBeNull();
    expect(await ctx.deps.prisma.auditLog.count({ where: { actorAccountId: h.staff.id, action: 'account.avatar' } })).toBe(2);
  });
});

describe('e-mail and mobile', () => {
  it('change only with the current password: a wrong one is refused, audited and changes nothing', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const email = `new-${Date.now()}@Example.COM`;
    const wrong = await api.mutation('account.changeEmail', { email, password: 'not-my-password' }, { token: h.ownerToken, ip: nextIp() });
    expect(wrong.error?.data.app?.code).toBe('OLD_PASSWORD_WRONG');
    expect(wrong.error?.data.app?.fields?.password).toMatch(/password/i);
    const wrongMobile = await api.mutation(
      'account.changeMobile',
      { mobile: uniqueMobile(), password: 'not-my-password' },
      { token: h.ownerToken, ip: nextIp(), lang: 'zh-CN' },
    );
    expect(wrongMobile.error?.data.app?.message).toMatch(/密码/);
    const account = await ctx.deps.prisma.account.findUniqueOrThrow({ where: { id: h.owner.id } });
    expect(account).toMatchObject({ email: h.owner.email, mobile: h.owner.mobile });
    const refused = await ctx.deps.prisma.auditLog.findMany({
      where: { actorAccountId: h.owner.id, action: { in: ['account.email.refused', 'account.mobile.refused'] } },
    });
    expect(refused.map((r) => r.action).sort()).toEqual(['account.email.refused', 'account.mobile.refused']);

    const ok = await api.mutation('account.changeEmail', { email, password: TEST_PASSWORD }, { token: h.ownerToken, ip: nextIp() });
    expect(ok.data?.email).toBe(email.toLowerCase());
    const mobile = uniqueMobile();
    const okMobile = await api.mutation('account.changeMobile', { mobile, password: TEST_PASSWORD }, { token: h.ownerToken, ip: nextIp() });
    expect(okMobile.data?.mobile).toBe(mobile);
    const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { actorAccountId: h.owner.id, action: 'account.mobile' } });
    expect(audit).toMatchObject({ before: { mobile: h.owner.mobile }, after: { mobile } });

    // The new mobile signs in; the old one does not.
    const legacy = legacyClient(ctx.app, ctx.config, { ip: nextIp() });
    expect((await legacy.call('login', { mobile, password: TEST_PASSWORD })).errno).toBe(0);
    expect((await legacy.call('login', { mobile: h.owner.mobile, password: TEST_PASSWORD })).errno).not.toBe(0);
  });

  it("refuse another account's e-mail or mobile, whatever its hotel", async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const other = await createAccount(ctx.deps);
    const email = await api.mutation(
      'account.changeEmail',
      { email: other.email!.toUpperCase(), password: TEST_PASSWORD },
      { token: h.staffToken, ip: nextIp() },
    );
    expect(email.error?.data.app?.code).toBe('CONFLICT');
    expect(email.error?.data.app?.fields?.email).toMatch(/e-mail|email/i);
    const mobile = await api.mutation('account.changeMobile', { mobile: other.mobile!, password: TEST_PASSWORD }, { token: h.staffToken, ip: nextIp() });
    expect(mobile.error?.data.app?.fields?.mobile).toMatch(/mobile|number/i);
    const bad = await api.raw.mutation('account.changeEmail', { email: 'not-an-email', password: TEST_PASSWORD }, { token: h.staffToken, ip: nextIp() });
    expect(bad.error?.data.app?.fields?.email).toBeTruthy();
  });
});

describe('sessions', () => {
  it('lists the live sessions of every face with the current one marked', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    await createSession(ctx.deps, { accountId: h.staff.id, hotelId: h.hotel.id, kind: 'legacy', meta: testMeta({ userAgent: 'OldDesk/2.1' }) });
    const dead = await createSession(ctx.deps, { accountId: h.staff.id, hotelId: h.hotel.id, kind: 'gateway', meta: testMeta() });
    await ctx.deps.prisma.session.update({ where: { id: dead.sessionId }, data: { revokedAt: new Date() } });
    const list = await api.query('account.sessions', undefined, { token: h.staffToken });
    expect(list.data?.items.map((s) => s.kind)).toEqual(['web', 'legacy']);
    expect(list.data?.items[0]).toMatchObject({ isCurrent: true, hotelName: h.hotel.name });
    expect(list.data?.items[1]).toMatchObject({ isCurrent: false, userAgent: 'OldDesk/2.1', device: { browser: null, browserVersion: null, os: null } });
    // The browser and system a user agent names (issue 17 §5), nulls when it names none.
    await createSession(ctx.deps, {
      accountId: h.staff.id,
      hotelId: h.hotel.id,
      kind: 'web',
      meta: testMeta({ userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36' }),
    });
    await createSession(ctx.deps, { accountId: h.staff.id, hotelId: h.hotel.id, kind: 'legacy', meta: testMeta({ userAgent: 'okhttp/4.9.0' }) });
    const devices = (await api.query('account.sessions', undefined, { token: h.staffToken })).data!.items.map((s) => s.device);
    expect(devices).toEqual(
      expect.arrayContaining([
        { browser: 'Chrome', browserVersion: '156', os: 'Windows' },
        { browser: null, browserVersion: null, os: null },
      ]),
    );
    // A session that ended is not listed.
    expect(list.data?.items.every((s) => s.id !== dead.sessionId)).toBe(true);
  });

  it('"sign out everywhere else" ends the web, legacy and gateway sessions and keeps the current one', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const login = async (kind: 'web' | 'legacy' | 'gateway') =>
      (await createSession(ctx.deps, { accountId: h.owner.id, hotelId: h.hotel.id, kind, meta: testMeta() })).token;
    const [otherWeb, legacyToken, gatewayToken] = [await login('web'), await login('legacy'), await login('gateway')];
    const legacy = legacyClient(ctx.app, ctx.config, { ip: nextIp() });
    const gw = gatewayClient(ctx.app, { ip: nextIp() });
    expect((await legacy.call('room/hotelInfo', {}, { token: legacyToken })).errno).toBe(0);
    expect(await gw.get('/linQuan/getRoomListByHotelId', {}, { token: gatewayToken })).toMatchObject({ code: 200 });
    // The staff member's session is not the owner's to end.
    const staffSession = await ctx.deps.prisma.session.findFirstOrThrow({ where: { accountId: h.staff.id } });

    const result = await api.mutation('account.revokeOtherSessions', undefined, { token: h.ownerToken });
    expect(result.data?.revoked).toBe(3);
    expect((await api.query('auth.me', undefined, { token: h.ownerToken })).data?.id).toBe(h.owner.id);
    expect((await api.query('auth.me', undefined, { token: otherWeb })).error?.data.app?.code).toBe('UNAUTHENTICATED');
    expect((await legacy.call('room/hotelInfo', {}, { token: legacyToken })).errno).toBe(100003);
    expect((await gw.get('/linQuan/getRoomListByHotelId', {}, { token: gatewayToken })).code).not.toBe(200);
    expect((await ctx.deps.prisma.session.findUniqueOrThrow({ where: { id: staffSession.id } })).revokedAt).toBeNull();
    expect((await api.query('account.sessions', undefined, { token: h.ownerToken })).data?.items).toHaveLength(1);
    const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { actorAccountId: h.owner.id, action: 'auth.session.revokeOthers' } });
    expect(audit.after).toEqual({ revokedSessions: 3 });
  });

  it("ends one session at a time; the current one and another account's are refused", async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const other = await createSession(ctx.deps, { accountId: h.owner.id, hotelId: h.hotel.id, kind: 'legacy', meta: testMeta() });
    const current = (await api.query('account.sessions', undefined, { token: h.ownerToken })).data!.items.find((s) => s.isCurrent)!;
    const self = await api.mutation('account.revokeSession', { sessionId: current.id }, { token: h.ownerToken });
    expect(self.error?.data.app?.code).toBe('CONFLICT');
    const staffSession = await ctx.deps.prisma.session.findFirstOrThrow({ where: { accountId: h.staff.id } });
    const foreign = await api.mutation('account.revokeSession', { sessionId: staffSession.id }, { token: h.ownerToken });
    expect(foreign.error?.data.app?.code).toBe('NOT_FOUND');
    expect((await ctx.deps.prisma.session.findUniqueOrThrow({ where: { id: staffSession.id } })).revokedAt).toBeNull();

    const ok = await api.mutation('account.revokeSession', { sessionId: other.sessionId }, { token: h.ownerToken });
    expect(ok.data?.revoked).toBe(1);
    expect((await legacyClient(ctx.app, ctx.config, { ip: nextIp() }).call('room/hotelInfo', {}, { token: other.token })).errno).toBe(100003);
    expect((await api.mutation('account.revokeSession', { sessionId: other.sessionId }, { token: h.ownerToken })).error?.data.app?.code).toBe('NOT_FOUND');
    expect(
      await ctx.deps.prisma.auditLog.count({ where: { actorAccountId: h.owner.id, action: 'auth.session.revoke', entityId: String(other.sessionId) } }),
    ).toBe(1);
  });
});
