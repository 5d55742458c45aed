import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_LIMITS } from '@console/shared';
import { createTestContext, type TestContext } from '../../test/harness';
import { TEST_PASSWORD, createAccount, createCustomers, createHotel, createHotelWithStaff, uniqueMobile } from '../../test/factories';
import { legacyClient } from '../../test/legacy-client';
import { readDevOutbox } from '../../infra/sms';
import { startWorkers } from '../../jobs/workers';

let ctx: TestContext;
let workers: ReturnType<typeof startWorkers>;
let ipCounter = 0;
const client = (language = 'zh-CN') => legacyClient(ctx.app, ctx.config, { language, ip: `192.168.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });

interface LoginData {
  token: string;
  userInfo: { id: number; nickname: string; mobile: string; email: string; avatar: string | null; apiKeyAuth: boolean };
}
interface ClientList {
  list: {
    id: number;
    nickname: string;
    mobile: string;
    email: string;
    avatar: string | null;
    create_time: string;
    status: number;
    frozen_time: string | null;
  }[];
  total: number;
  page: number;
  limit: number;
}

beforeAll(async () => {
  ctx = await createTestContext();
  workers = startWorkers(ctx.deps, { sweep: false });
});
afterAll(async () => {
  await workers.close();
  await ctx.close();
});

async function legacyLogin(mobile: string, password = TEST_PASSWORD) {
  const res = await client().call<LoginData>('login', { mobile, password });
  if (res.errno !== 0) throw new Error(`login failed: ${res.errno} ${res.errmsg}`);
  return res.data.token;
}

describe('the envelope', () => {
  it('answers HTTP 200, text/plain, DES-CBC Base64 of {errno, errmsg, data}', async () => {
    const hotel = await createHotel(ctx.deps);
    const account = await createAccount(ctx.deps, { hotelId: hotel.id, apiKeyAuth: true });
    const res = await client().call<LoginData>('login', { mobile: account.mobile, password: TEST_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^text\/plain/);
    expect(res).toMatchObject({ errno: 0, errmsg: '操作成功' });
    expect(res.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.data.userInfo).toMatchObject({
      id: account.id,
      nickname: account.nickname,
      mobile: account.mobile,
      email: account.email,
      avatar: null,
      apiKeyAuth: true,
    });
  });

  it('accepts a JSON body as well as a form', async () => {
    const hotel = await createHotel(ctx.deps);
    const account = await createAccount(ctx.deps, { hotelId: hotel.id });
    const c = client();
    const data = c.encrypt(JSON.stringify({ mobile: account.email, password: TEST_PASSWORD, action: 'manage' }));
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/manage/login',
      headers: { 'content-type': 'application/json', language: 'en' },
      payload: { data, language: 'en' },
    });
    expect(JSON.parse(c.decrypt(res.body))).toMatchObject({ errno: 0, errmsg: 'Operation succeeded' });
  });

  it('answers an undecryptable body, bad JSON, a missing data field or an unknown action with an encrypted error', async () => {
    const c = client('en');
    const garbage = await c.raw('login', new URLSearchParams({ data: 'bm90IHJlYWxseSBlbmNyeXB0ZWQ=', language: 'en' }).toString(), { language: 'en' });
    expect(garbage.status).toBe(200);
    expect(garbage.decoded()).toEqual({
      errno: 100002,
      errmsg: 'The request could not be read: its data is not encrypted correctly or is malformed.',
      data: null,
    });
    const zh = await c.raw('login', 'data=%%%', { language: 'zh-CN' });
    expect(zh.decoded()).toMatchObject({ errno: 100002, errmsg: '请求无法解析：数据未正确加密或格式错误' });
    const badJson = await c.raw('login', new URLSearchParams({ data: c.encrypt('{not json'), language: 'en' }).toString());
    expect(badJson.decoded().errno).toBe(100002);
    const missing = await c.raw('login', 'language=en');
    expect(missing.decoded().errno).toBe(100002);
    const unknown = await c.call('room/noSuchAction', {});
    expect(unknown).toMatchObject({ errno: 100014, errmsg: 'This interface does not exist.' });
    expect(garbage.body).not.toMatch(/stack|Error|at /);
  });

  it('refuses a body over the size limit with an encrypted error', async () => {
    const c = client('en');
    const res = await c.raw('login', `data=${'A'.repeat(ctx.config.bodyLimit + 10)}`, { language: 'en' });
    expect(res.status).toBe(200);
    expect(res.decoded()).toMatchObject({ errno: 100016, errmsg: 'The data sent is too large.' });
  });

  it('answers invalid fields with errno 100001 and a translated message naming the problem', async () => {
    const res = await client('en').call('login', { mobile: '123', password: 'x' });
    expect(res).toMatchObject({ errno: 100001, errmsg: 'Enter a valid mobile number or e-mail address' });
    expect(res.data).toEqual({ fields: { mobile: 'Enter a valid mobile number or e-mail address' } });
    const zh = await client('zh-CN').call('login', { mobile: 'someone@', password: 'x' });
    expect(zh.errmsg).toBe('邮箱格式不正确');
  });
});

describe('/manage/login', () => {
  it('translates a wrong password into the request language', async () => {
    const hotel = await createHotel(ctx.deps);
    const account = await createAccount(ctx.deps, { hotelId: hotel.id });
    expect(await client('zh-CN').call('login', { mobile: account.mobile, password: 'wrong-pass' })).toMatchObject({
      errno: 100010,
      errmsg: '账号或密码错误',
      data: null,
    });
    expect(await client('en').call('login', { mobile: account.mobile, password: 'wrong-pass' })).toMatchObject({
      errno: 100010,
      errmsg: 'Incorrect account or password.',
    });
  });

  it('asks for a graphic code after 3 failures, and accepts one from /manage/captcha', async () => {
    const hotel = await createHotel(ctx.deps);
    const account = await createAccount(ctx.deps, { hotelId: hotel.id });
    const c = client('en');
    for (let i = 0; i < LOGIN_LIMITS.codeRequiredAfterFailures; i++) {
      expect((await c.call('login', { mobile: account.mobile, password: 'wrong-pass' })).errno).toBe(100010);
    }
    expect(await c.call('login', { mobile: account.mobile, password: TEST_PASSWORD })).toMatchObject({
      errno: 100009,
      errmsg: 'Too many failed attempts: enter the verification code.',
    });
    const captcha = await c.call<{ codeKey: string; image: string }>('captcha');
    expect(captcha.data.image).toMatch(/^data:image\/svg\+xml;base64,/);
    const answer = (await ctx.deps.redis.get(ctx.deps.key('captcha', captcha.data.codeKey)))!;
    expect((await c.call('login', { mobile: account.mobile, password: TEST_PASSWORD, code: 'zzzz', codeKey: captcha.data.codeKey })).errno).toBe(100008);
    const again = await c.call<{ codeKey: string }>('captcha');
    const answer2 = (await ctx.deps.redis.get(ctx.deps.key('captcha', again.data.codeKey)))!;
    expect(answer).toHaveLength(4);
    expect((await c.call('login', { mobile: account.mobile, password: TEST_PASSWORD, code: answer2, codeKey: again.data.codeKey })).errno).toBe(0);
  });

  it('applies the stricter address limit to logins without a code', async () => {
    const c = client('en');
    for (let i = 0; i < LOGIN_LIMITS.perAddressWithoutCode; i++) {
      expect((await c.call('login', { mobile: uniqueMobile(), password: 'wrong-pass' })).errno).toBe(100010);
    }
    const blocked = await c.call('login', { mobile: uniqueMobile(), password: 'wrong-pass' });
    expect(blocked.errno).toBe(100007);
    expect(blocked.errmsg).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
    // With a graphic code the same address still has room (the web limit is higher).
    const captcha = await c.call<{ codeKey: string }>('captcha');
    const code = (await ctx.deps.redis.get(ctx.deps.key('captcha', captcha.data.codeKey)))!;
    expect((await c.call('login', { mobile: uniqueMobile(), password: 'wrong-pass', code, codeKey: captcha.data.codeKey })).errno).toBe(100010);
  }, 60_000);

  it('answers a frozen account with 9000005, at login and on every call of its sessions', async () => {
    const hotel = await createHotel(ctx.deps);
    const account = await createAccount(ctx.deps, { hotelId: hotel.id, role: 'staff' });
    const token = await legacyLogin(account.mobile!);
    await ctx.deps.prisma.account.update({ where: { id: account.id }, data: { frozenAt: new Date() } });
    expect(await client('en').call('room/clientList', {}, { token })).toMatchObject({
      errno: 9000005,
      errmsg: 'This account has been frozen. Please contact your administrator.',
    });
    expect((await client('zh-CN').call('login', { mobile: account.mobile, password: TEST_PASSWORD })).errmsg).toBe('账号已被冻结，请联系管理员');
  });
});

describe('X-Token', () => {
  it('is required: missing, garbage, a web session token or a revoked token get 100003', async () => {
    const { ownerToken: webToken } = await createHotelWithStaff(ctx.deps);
    const c = client('zh-CN');
    expect(await c.call('room/clientList', {})).toMatchObject({ errno: 100003, errmsg: '登录信息已过期，请重新登录' });
    expect((await c.call('room/clientList', {}, { token: 'garbage-token' })).errno).toBe(100003);
    expect((await c.call('room/clientList', {}, { token: webToken })).errno).toBe(100003);

    const hotel = await createHotel(ctx.deps);
    const account = await createAccount(ctx.deps, { hotelId: hotel.id });
    const token = await legacyLogin(account.mobile!);
    expect((await c.call('logout', {}, { token })).errno).toBe(0);
    expect((await c.call('room/clientList', {}, { token })).errno).toBe(100003);
  });
});

describe('/manage/setting/updatePassword', () => {
  it('changes the password and ends every session', async () => {
    const hotel = await createHotel(ctx.deps);
    const account = await createAccount(ctx.deps, { hotelId: hotel.id });
    const token = await legacyLogin(account.mobile!);
    const c = client('en');
    expect(
      await c.call('setting/updatePassword', { oldPassword: 'wrong-one', newPassword: 'legacy-new-1', confirmPassword: 'legacy-new-1' }, { token }),
    ).toMatchObject({ errno: 100012, errmsg: 'The current password is incorrect.' });
    expect(
      (await c.call('setting/updatePassword', { oldPassword: TEST_PASSWORD, newPassword: 'legacy-new-1', confirmPassword: 'legacy-new-1' }, { token })).errno,
    ).toBe(0);
    expect((await c.call('room/clientList', {}, { token })).errno).toBe(100003);
    expect(await legacyLogin(account.mobile!, 'legacy-new-1')).toBeTruthy();
  });
});

describe('/manage/getBack', () => {
  it('sends an SMS code and resets the password with it', async () => {
    const hotel = await createHotel(ctx.deps);
    const account = await createAccount(ctx.deps, { hotelId: hotel.id });
    const c = client('en');
    const sentAt = Date.now();
    expect((await c.call('getBack/sendMsg', { mobile: account.mobile })).errno).toBe(0);
    let code: string | undefined;
    for (let i = 0; i < 100 && !code; i++) {
      const sms = (await readDevOutbox(ctx.deps.redis, ctx.deps.key('dev', 'sms-outbox'))).find((m) => m.to === account.mobile && Date.parse(m.at) >= sentAt);
      code = sms?.text.match(/\d{6}/)?.[0];
      if (!code) await new Promise((r) => setTimeout(r, 50));
    }
    expect(code).toMatch(/^\d{6}$/);
    expect((await c.call('getBack/reset', { mobile: account.mobile, code: '', newPassword: 'by-sms-123', confirmPassword: 'by-sms-123' })).errmsg).toBe(
      'The SMS code cannot be empty',
    );
    expect((await c.call('getBack/reset', { mobile: account.mobile, code, newPassword: 'by-sms-123', confirmPassword: 'by-sms-123' })).errno).toBe(0);
    expect(await legacyLogin(account.mobile!, 'by-sms-123')).toBeTruthy();
  });
});

describe('customers over the legacy protocol', () => {
  it('lists with paging defaults, keyword and status, in the hotel time zone', async () => {
    const hotel = await createHotel(ctx.deps);
    const account = await createAccount(ctx.deps, { hotelId: hotel.id });
    const customers = await createCustomers(ctx.deps, hotel.id, 23, 'Legacy');
    await ctx.deps.prisma.customer.update({ where: { id: customers[0]!.id }, data: { registeredAt: new Date('2026-03-01T16:30:00Z') } });
    const token = await legacyLogin(account.mobile!);
    const c = client();
    const page = await c.call<ClientList>('room/clientList', {}, { token });
    expect(page).toMatchObject({ errno: 0, data: { total: 23, page: 1, limit: 20 } });
    expect(page.data.list).toHaveLength(20);
    const second = await c.call<ClientList>('room/clientList', { page: 2, limit: 20 }, { token });
    expect(second.data.list).toHaveLength(3);
    const oldest = second.data.list.at(-1)!;
    expect(oldest).toEqual({
      id: customers[0]!.id,
      nickname: 'Legacy 1',
      mobile: customers[0]!.mobile,
      email: customers[0]!.email,
      avatar: null,
      create_time: '2026-03-02 00:30:00',
      status: 0,
      frozen_time: null,
    });
    const found = await c.call<ClientList>('room/clientList', { keyword: customers[5]!.mobile }, { token });
    expect(found.data.list.map((x) => x.id)).toEqual([customers[5]!.id]);
    expect((await c.call('room/clientList', { limit: 1000 }, { token })).errno).toBe(100001);
  });

  it('freezes and unfreezes with freezeUser, and deletes with clientDelete', async () => {
    const hotel = await createHotel(ctx.deps);
    const account = await createAccount(ctx.deps, { hotelId: hotel.id });
    const [customer, other] = await createCustomers(ctx.deps, hotel.id, 2, 'Freezable');
    const token = await legacyLogin(account.mobile!);
    const c = client('en');
    const frozen = await c.call<ClientList['list'][number]>('user/freezeUser', { id: customer!.id, status: 1 }, { token });
    expect(frozen).toMatchObject({ errno: 0, errmsg: 'Operation succeeded', data: { id: customer!.id, status: 1 } });
    expect(frozen.data.frozen_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect((await c.call<ClientList>('room/clientList', { status: 1 }, { token })).data.list.map((x) => x.id)).toEqual([customer!.id]);
    expect((await c.call('user/freezeUser', { id: customer!.id, status: 0 }, { token })).errno).toBe(0);
    expect((await c.call('user/freezeUser', { id: customer!.id, status: 7 }, { token })).errno).toBe(100001);
    expect((await c.call('room/clientDelete', { id: other!.id }, { token })).errno).toBe(0);
    expect((await c.call<ClientList>('room/clientList', {}, { token })).data.total).toBe(1);
  });

  it('gives staff the list but not freezing', async () => {
    const { hotel, staff } = await createHotelWithStaff(ctx.deps);
    const [customer] = await createCustomers(ctx.deps, hotel.id, 1);
    const token = await legacyLogin(staff.mobile!);
    expect((await client().call<ClientList>('room/clientList', {}, { token })).data.total).toBe(1);
    expect(await client('en').call('user/freezeUser', { id: customer!.id, status: 1 }, { token })).toMatchObject({
      errno: 100004,
      errmsg: 'You do not have permission to do this.',
    });
  });

  it('shows an account of hotel B none of hotel A customers', async () => {
    const a = await createHotelWithStaff(ctx.deps);
    const b = await createHotelWithStaff(ctx.deps);
    const [customerOfA] = await createCustomers(ctx.deps, a.hotel.id, 4, 'HotelA');
    const tokenB = await legacyLogin(b.owner.mobile!);
    const c = client('en');
    const list = await c.call<ClientList>('room/clientList', { limit: 100 }, { token: tokenB });
    expect(list.data.total).toBe(0);
    expect((await c.call<ClientList>('room/clientList', { keyword: 'HotelA' }, { token: tokenB })).data.list).toEqual([]);
    expect(await c.call('user/freezeUser', { id: customerOfA!.id, status: 1 }, { token: tokenB })).toMatchObject({
      errno: 100005,
      errmsg: 'The record does not exist or has been deleted.',
    });
    expect((await c.call('room/clientDelete', { id: customerOfA!.id }, { token: tokenB })).errno).toBe(100005);
    expect(await ctx.deps.prisma.customer.findUniqueOrThrow({ where: { id: customerOfA!.id } })).toMatchObject({ frozenAt: null });
  });
});
