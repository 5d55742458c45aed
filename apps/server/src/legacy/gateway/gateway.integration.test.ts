import { randomBytes, randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { z } from 'zod';
import { LOGIN_LIMITS } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness';
import { insertKeptLock } from '../../test/lock-factories';
import { TEST_PASSWORD, createAccount, createHotelWithStaff, createRooms, hours, insertStay } from '../../test/factories';
import { gatewayClient } from '../../test/gateway-client';
import { trpcClient } from '../../test/trpc-client';
import { hashToken } from '../../modules/auth/session.service';
import type { GatewayCard } from './convert';
import { registerCardGateway } from './gateway';
import type { gatewayRecords } from './records';
import type { gatewayRoom } from './rooms';
import { publicRoute } from './route';

/**
 * Contract tests of the card-service gateway (docs/card-service-gateway.md): every call, as a
 * third-party desk program sends it, with good and bad input, absent, wrong, expired and revoked
 * tokens, translated messages and our codes. The whole card flow at a simulated lock, and the
 * cross-hotel checks, are in gateway-cards.integration.test.ts.
 */
let ctx: TestContext;
let gw: ReturnType<typeof gatewayClient>;
let ipCounter = 0;
/** Each sign-in comes from its own address, so address limits of one test never touch another. */
const freshIp = () => `172.31.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
const newUid = () => randomBytes(4).toString('hex').toUpperCase();

/** The `data` of the gateway's answers, as the tests read them. */
interface Login {
  token: string;
}
interface RoomPage {
  hotelId: number;
  items: ReturnType<typeof gatewayRoom>[];
}
interface Written {
  issueId: number;
  card: GatewayCard;
  blocks: { block: number; data: string }[];
}
interface Records {
  cards: { items: GatewayCard[]; total: number };
  unlocks: ReturnType<typeof gatewayRecords>;
}

beforeAll(async () => {
  ctx = await createTestContext({ locks: null });
  gw = gatewayClient(ctx.app);
});
afterAll(async () => {
  await ctx?.close();
});

/** A hotel with two rooms (one with a lock id), a guest in the first, and a gateway token of its staff member. */
async function hotelWithToken() {
  const h = await createHotelWithStaff(ctx.deps);
  const prefix = `G${randomUUID().slice(0, 6)}`;
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, [`${prefix}-1`, `${prefix}-2`]);
  await insertKeptLock(ctx.deps, h.hotel.id, rooms[0]!.id, String(900_000_000 + Math.floor(Math.random() * 99_999_999)));
  const stay = await insertStay(ctx.deps, {
    hotelId: h.hotel.id,
    roomId: rooms[0]!.id,
    checkInAt: hours(-1),
    expectedCheckOutAt: hours(25),
    guestName: 'Mei Lin',
  });
  const token = await gw.login(h.staff.mobile!, TEST_PASSWORD, { ip: freshIp() });
  return { ...h, rooms, stay, token };
}

describe('POST /auth/login', () => {
  it('gives a bearer token of a gateway session, with its expiry and hotel; the message in the request language', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const res = await gw.post<Login>('/auth/login', { mobile: h.staff.mobile, password: TEST_PASSWORD }, { ip: freshIp(), language: 'zh-CN' });
    expect(res).toMatchObject({ status: 200, code: 200, msg: '登录成功' });
    expect(res.data).toMatchObject({
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      tokenType: 'Bearer',
      expiresIn: ctx.config.session.absoluteMs / 1000,
      idleTimeout: ctx.config.session.idleMs / 1000,
      hotel: { id: h.hotel.id, name: h.hotel.name, timeZone: 'Asia/Shanghai' },
      user: { id: h.staff.id, role: 'staff', permissions: expect.arrayContaining(['credential.manage']) },
    });
    const session = await ctx.deps.prisma.session.findUniqueOrThrow({ where: { tokenHash: hashToken(res.data.token) } });
    expect(session).toMatchObject({ kind: 'gateway', accountId: h.staff.id, hotelId: h.hotel.id, revokedAt: null });
    const audit = await ctx.deps.prisma.auditLog.findFirst({ where: { actorAccountId: h.staff.id, action: 'auth.login.success' }, orderBy: { id: 'desc' } });
    expect(audit?.after).toEqual({ kind: 'gateway' });
  });

  it('takes a form-encoded body too, and an e-mail address as the account', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const res = await gw.post('/auth/login', { mobile: h.owner.email!.toUpperCase(), password: TEST_PASSWORD }, { ip: freshIp(), form: true });
    expect(res.code).toBe(200);
  });

  it('refuses wrong credentials with 401 and a translated message (Accept-Language), and bad input with field messages', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const wrong = await gw.post(
      '/auth/login',
      { mobile: h.staff.mobile, password: 'not-the-password' },
      { ip: freshIp(), acceptLanguage: 'de-DE,de;q=0.9,en;q=0.5' },
    );
    expect(wrong).toMatchObject({ status: 401, code: 401, data: { error: 'INVALID_CREDENTIALS', errno: 100010 } });
    expect(wrong.msg).toMatch(/Passwort/);
    const unknown = await gw.post('/auth/login', { mobile: '13912345678', password: 'whatever-1' }, { ip: freshIp() });
    expect(unknown).toMatchObject({ code: 401, msg: 'Incorrect account or password.' });

    const bad = await gw.post('/auth/login', { mobile: '12345', code: 'ab' }, { ip: freshIp(), language: 'en' });
    expect(bad).toMatchObject({ status: 400, code: 400, data: { error: 'VALIDATION' } });
    expect(Object.keys(bad.data.fields as object).sort()).toEqual(['code', 'mobile', 'password']);
    expect((bad.data.fields as Record<string, string>).password).toMatch(/password/i);
    const zh = await gw.post('/auth/login', {}, { ip: freshIp(), language: 'zh-CN' });
    expect((zh.data.fields as Record<string, string>).mobile).toMatch(/[\u4e00-\u9fff]/);
  });

  it('asks for the graphic code after repeated failures, takes one from /auth/captcha, and locks the account out with 429', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const ip = freshIp();
    for (let i = 0; i < LOGIN_LIMITS.codeRequiredAfterFailures; i += 1) {
      expect((await gw.post('/auth/login', { mobile: h.staff.mobile, password: 'wrong-password' }, { ip })).code).toBe(401);
    }
    const needsCode = await gw.post('/auth/login', { mobile: h.staff.mobile, password: TEST_PASSWORD }, { ip });
    expect(needsCode).toMatchObject({ code: 400, data: { error: 'CAPTCHA_REQUIRED' } });

    const captcha = await gw.get<{ codeKey: string; image: string }>('/auth/captcha', undefined, { ip });
    expect(captcha.data.image).toMatch(/^data:image\/svg\+xml;base64,/);
    const answer = (await ctx.deps.redis.get(ctx.deps.key('captcha', captcha.data.codeKey)))!;
    const wrongCode = await gw.post(
      '/auth/login',
      { mobile: h.staff.mobile, password: TEST_PASSWORD, code: answer === 'abcd' ? 'abce' : 'abcd', codeKey: captcha.data.codeKey },
      { ip },
    );
    expect(wrongCode).toMatchObject({ code: 400, data: { error: 'CAPTCHA_INVALID' } });
    const second = await gw.get<{ codeKey: string }>('/auth/captcha', undefined, { ip });
    const ok = await gw.post(
      '/auth/login',
      {
        mobile: h.staff.mobile,
        password: TEST_PASSWORD,
        code: await ctx.deps.redis.get(ctx.deps.key('captcha', second.data.codeKey)),
        codeKey: second.data.codeKey,
      },
      { ip },
    );
    expect(ok.code).toBe(200);

    // Wrong passwords (with good codes) until the account is locked out: then even the right one is refused.
    const other = await createAccount(ctx.deps, { hotelId: h.hotel.id, role: 'staff' });
    const attempt = async (password: string) => {
      const ip = freshIp();
      const c = await gw.get<{ codeKey: string }>('/auth/captcha', undefined, { ip });
      const code = await ctx.deps.redis.get(ctx.deps.key('captcha', c.data.codeKey));
      return gw.post('/auth/login', { mobile: other.mobile, password, code, codeKey: c.data.codeKey }, { ip, language: 'en' });
    };
    for (let i = 0; i < LOGIN_LIMITS.perAccount; i += 1) expect((await attempt('wrong-password')).code).toBe(401);
    const locked = await attempt(TEST_PASSWORD);
    expect(locked).toMatchObject({ status: 429, code: 429, data: { error: 'TOO_MANY_ATTEMPTS', retryAfterSeconds: expect.any(Number) } });
    expect(locked.msg).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
    expect(Number(locked.headers['retry-after'])).toBe(locked.data.retryAfterSeconds);
    expect(await ctx.deps.prisma.auditLog.count({ where: { actorAccountId: other.id, action: 'auth.lockout' } })).toBe(1);
  });

  it('refuses a frozen account (403) and a body that is not JSON (400), never with a stack trace', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    await ctx.deps.prisma.account.update({ where: { id: h.staff.id }, data: { frozenAt: new Date() } });
    expect(await gw.post('/auth/login', { mobile: h.staff.mobile, password: TEST_PASSWORD }, { ip: freshIp() })).toMatchObject({
      status: 403,
      code: 403,
      data: { error: 'ACCOUNT_FROZEN' },
    });

    const res = await ctx.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json', language: 'en' },
      payload: '{"mobile": ',
      remoteAddress: freshIp(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 400, msg: 'The request could not be read: send JSON or a form', data: { error: 'VALIDATION' } });
    expect(res.body).not.toMatch(/at .*\.(ts|js):\d+|SyntaxError|FST_/);
    const array = await gw.call('POST', '/auth/login', undefined, { ip: freshIp(), headers: { 'content-type': 'text/plain' } });
    expect(array.code).toBe(400);
  });
});

describe('bearer tokens', () => {
  it('absent, malformed, unknown, of another kind, expired, idle or signed out: 401 with a translated message', async () => {
    const h = await hotelWithToken();
    const rooms = (options: Parameters<typeof gw.get>[2]) => gw.get('/linQuan/getRoomListByHotelId', undefined, options);
    expect((await rooms({ token: h.token })).code).toBe(200);

    const absent = await rooms({ language: 'en' });
    expect(absent).toMatchObject({ status: 401, code: 401, data: { error: 'UNAUTHENTICATED', errno: 100003 } });
    expect(absent.msg).toMatch(/Authorization: Bearer/);
    expect(absent.headers['www-authenticate']).toMatch(/^Bearer/);
    expect((await rooms({ headers: { authorization: `Basic ${h.token}` } })).code).toBe(401);
    expect((await rooms({ headers: { authorization: h.token } })).code).toBe(401);
    const unknown = await rooms({ token: 'x'.repeat(43), language: 'zh-CN' });
    expect(unknown).toMatchObject({ code: 401, msg: '登录信息已过期，请重新登录' });
    // The console's web session is not a gateway token.
    expect((await rooms({ token: h.staffToken })).code).toBe(401);
    // Nor does a gateway token open the console's own API.
    const trpc = await ctx.app.inject({
      method: 'GET',
      url: '/trpc/auth.me',
      headers: { cookie: `sl_session=${h.token}`, authorization: `Bearer ${h.token}` },
    });
    expect(trpc.statusCode).toBe(401);

    const hash = hashToken(h.token);
    await ctx.deps.prisma.session.update({ where: { tokenHash: hash }, data: { lastSeenAt: new Date(Date.now() - ctx.config.session.idleMs - 1000) } });
    expect((await rooms({ token: h.token })).code).toBe(401);
    await ctx.deps.prisma.session.update({ where: { tokenHash: hash }, data: { lastSeenAt: new Date(), expiresAt: new Date(Date.now() - 1000) } });
    expect((await rooms({ token: h.token })).code).toBe(401);

    const second = await gw.login(h.staff.mobile!, TEST_PASSWORD, { ip: freshIp() });
    const out = await gw.post('/auth/logout', {}, { token: second, language: 'en' });
    expect(out).toMatchObject({ code: 200, msg: 'Signed out', data: null });
    expect((await rooms({ token: second })).code).toBe(401);
    expect((await gw.post('/auth/logout', {}, { token: second })).code).toBe(401);
  });

  it('ends with the account: a frozen account gets 403, and a password change ends the token', async () => {
    const h = await hotelWithToken();
    await ctx.deps.prisma.account.update({ where: { id: h.staff.id }, data: { frozenAt: new Date() } });
    expect(await gw.get('/linQuan/getRoomListByHotelId', undefined, { token: h.token })).toMatchObject({ code: 403, data: { error: 'ACCOUNT_FROZEN' } });

    const other = await hotelWithToken();
    const changed = await trpcClient(ctx.app).mutation(
      'auth.changePassword',
      { oldPassword: TEST_PASSWORD, newPassword: 'another-horse-8', confirmPassword: 'another-horse-8' },
      { token: other.staffToken },
    );
    expect(changed.status).toBe(200);
    expect((await gw.get('/linQuan/getRoomListByHotelId', undefined, { token: other.token })).code).toBe(401);
  });
});

describe('GET /linQuan/getRoomListByHotelId', () => {
  it("lists the hotel's rooms with their lock and card fields and the current stay, a page at a time", async () => {
    const h = await hotelWithToken();
    const res = await gw.get<RoomPage>('/linQuan/getRoomListByHotelId', { hotelId: h.hotel.id, pageSize: 1, sort: 'name_asc' }, { token: h.token });
    expect(res).toMatchObject({ status: 200, code: 200, msg: 'Operation succeeded' });
    expect(res.data).toMatchObject({ hotelId: h.hotel.id, timeZone: 'Asia/Shanghai', total: 2, page: 1, pageSize: 1 });
    expect(res.data.items).toEqual([
      expect.objectContaining({
        roomId: h.rooms[0]!.id,
        roomName: h.rooms[0]!.name,
        lockId: expect.any(String),
        lockNumber: null,
        cardGeneration: 0,
        issuedRoomCards: 0,
        status: 'checked_in',
        currentStay: expect.objectContaining({ stayId: h.stay.id, guestName: 'Mei Lin', expectedCheckOutAt: h.stay.expectedCheckOutAt.toISOString() }),
      }),
    ]);
    const second = await gw.post<RoomPage>('/linQuan/getRoomListByHotelId', { page: 2, pageSize: 1, sort: 'name_asc' }, { token: h.token });
    expect(second.data.items).toEqual([expect.objectContaining({ roomId: h.rooms[1]!.id, lockId: null, currentStay: null })]);
  });

  it('refuses bad paging with field messages and another hotel with 404', async () => {
    const h = await hotelWithToken();
    const bad = await gw.get('/linQuan/getRoomListByHotelId', { pageSize: 0, page: 'x', status: 'nope' }, { token: h.token });
    expect(bad).toMatchObject({ status: 400, code: 400, data: { error: 'VALIDATION' } });
    expect(Object.keys(bad.data.fields as object).sort()).toEqual(['page', 'pageSize', 'status']);
    const other = await createHotelWithStaff(ctx.deps);
    expect(await gw.get('/linQuan/getRoomListByHotelId', { hotelId: other.hotel.id }, { token: h.token })).toMatchObject({
      status: 404,
      code: 404,
      data: { error: 'NOT_FOUND' },
    });
  });
});

describe('POST /linQuan/writeRoomCard', () => {
  it("reserves the data of a room card for the room's stay, confirms it with the read-back, and records it (audited)", async () => {
    const h = await hotelWithToken();
    const uid = newUid();
    const reserved = await gw.post<Written>('/linQuan/writeRoomCard', { uid, roomId: h.rooms[0]!.id }, { token: h.token, language: 'en' });
    expect(reserved).toMatchObject({ code: 200, msg: 'Card data ready: write it to the card, read it back and confirm' });
    expect(reserved.data).toMatchObject({
      step: 'reserve',
      issueId: expect.any(Number),
      sector: 1,
      openKeys: expect.arrayContaining(['FFFFFFFFFFFF']),
      blocks: [
        { block: 4, data: expect.stringMatching(/^[0-9A-F]{32}$/) },
        { block: 5, data: expect.any(String) },
        { block: 6, data: expect.any(String) },
      ],
      trailer: { block: 7, data: expect.stringMatching(/^[0-9A-F]{32}$/) },
      card: {
        state: 'reserved',
        cardType: 'room',
        uid,
        stayId: h.stay.id,
        roomId: h.rooms[0]!.id,
        holderName: 'Mei Lin',
        generation: 1,
        duplicate: false,
        validUntil: h.stay.expectedCheckOutAt.toISOString(),
      },
    });
    expect(JSON.stringify(reserved.data)).not.toMatch(/desKey|macKey|sectorKeyB/);

    const confirmed = await gw.post<Written>(
      '/linQuan/writeRoomCard',
      { step: 'confirm', issueId: reserved.data.issueId, uid, blocks: reserved.data.blocks },
      { token: h.token, language: 'zh-CN' },
    );
    expect(confirmed).toMatchObject({
      code: 200,
      msg: '写卡成功',
      data: { step: 'confirm', issueId: reserved.data.issueId, card: { state: 'issued', cardNumber: BigInt(`0x${uid}`).toString(10) } },
    });
    const actions = (
      await ctx.deps.prisma.auditLog.findMany({
        where: { actorAccountId: h.staff.id, entityType: 'CardIssue', entityId: String(reserved.data.issueId) },
        orderBy: { id: 'asc' },
      })
    ).map((a) => [a.action, a.channel]);
    expect(actions).toEqual([
      ['card.reserve', 'gateway'],
      ['card.issue', 'gateway'],
    ]);

    // The room list now shows the card.
    const rooms = await gw.get<RoomPage>('/linQuan/getRoomListByHotelId', { search: h.rooms[0]!.name }, { token: h.token });
    expect(rooms.data.items[0]).toMatchObject({ issuedRoomCards: 1, cardGeneration: 1, lockNumber: expect.any(Number) });

    // The card is in use: writing it again is a conflict until it is taken back.
    const again = await gw.post('/linQuan/writeRoomCard', { uid, stayId: h.stay.id }, { token: h.token });
    expect(again).toMatchObject({ status: 409, code: 409, data: { error: 'CONFLICT' } });
  });

  it('issues nothing when the read-back differs, and gives a reservation up on void', async () => {
    const h = await hotelWithToken();
    const uid = newUid();
    const reserved = await gw.post<Written>('/linQuan/writeRoomCard', { uid, stayId: h.stay.id, mode: 'duplicate' }, { token: h.token });
    const blocks = reserved.data.blocks.map((b, i) => (i === 2 ? { ...b, data: '0'.repeat(32) } : b));
    const mismatch = await gw.post('/linQuan/writeRoomCard', { step: 'confirm', issueId: reserved.data.issueId, uid, blocks }, { token: h.token });
    expect(mismatch).toMatchObject({
      code: 400,
      data: { error: 'VALIDATION' },
      msg: 'The card did not read back what was written: no card was issued. Write it again',
    });
    const list = await gw.post<Records>('/linQuan/getAuthorizationRecord', { issueId: reserved.data.issueId }, { token: h.token });
    expect(list.data.cards.items[0]).toMatchObject({ state: 'voided', endReason: 'write_failed' });

    const next = await gw.post<Written>('/linQuan/writeRoomCard', { uid, stayId: h.stay.id }, { token: h.token });
    const voided = await gw.post<Written>('/linQuan/writeRoomCard', { step: 'void', issueId: next.data.issueId }, { token: h.token });
    expect(voided).toMatchObject({ code: 200, data: { step: 'void', card: { state: 'voided' } } });
    expect(
      await gw.post('/linQuan/writeRoomCard', { step: 'confirm', issueId: next.data.issueId, uid, blocks: next.data.blocks }, { token: h.token }),
    ).toMatchObject({ code: 409 });
  });

  it('writes a management card for rooms and a period given in the hotel time zone', async () => {
    const h = await hotelWithToken();
    const res = await gw.post<Written>(
      '/linQuan/writeRoomCard',
      {
        uid: newUid(),
        cardType: 'management',
        roomIds: [h.rooms[0]!.id, h.rooms[1]!.id],
        startTime: '2026-01-01T00:00:00Z',
        endTime: '2099-01-01 12:00',
        note: 'Housekeeping',
      },
      { token: h.token },
    );
    expect(res).toMatchObject({
      code: 200,
      data: {
        card: {
          cardType: 'management',
          validFrom: expect.any(String),
          validUntil: '2099-01-01T04:00:00.000Z',
          note: 'Housekeeping',
          holderName: 'Housekeeping',
        },
      },
    });
  });

  it('refuses bad input with field messages in the gateway names, a room without a stay (409), and what the account may not do (403)', async () => {
    const h = await hotelWithToken();
    const bad = await gw.post('/linQuan/writeRoomCard', { uid: 'XYZ' }, { token: h.token, language: 'en' });
    expect(bad).toMatchObject({ status: 400, code: 400, data: { error: 'VALIDATION' } });
    expect(Object.keys(bad.data.fields as object)).toEqual(['uid']);
    const noRoom = await gw.post('/linQuan/writeRoomCard', { uid: newUid() }, { token: h.token, language: 'zh-CN' });
    expect(noRoom).toMatchObject({ code: 400, data: { fields: { roomId: expect.stringMatching(/[\u4e00-\u9fff]/) } } });
    const period = await gw.post('/linQuan/writeRoomCard', { uid: newUid(), roomId: h.rooms[0]!.id, endTime: 'tomorrow' }, { token: h.token, language: 'en' });
    expect(period.data.fields).toEqual({ endTime: expect.any(String) });
    const both = await gw.post(
      '/linQuan/writeRoomCard',
      { uid: newUid(), roomId: h.rooms[0]!.id, stayId: h.stay.id, startTime: '2099-01-01 00:00' },
      { token: h.token, language: 'en' },
    );
    expect(both.data.fields).toEqual({
      stayId: 'Give either the room or the stay, not both',
      startTime: "A room card is valid for its stay: change the stay's times instead",
    });
    expect((await gw.post('/linQuan/writeRoomCard', { step: 'rewind' }, { token: h.token })).data.fields).toEqual({ step: expect.any(String) });
    const confirm = await gw.post(
      '/linQuan/writeRoomCard',
      { step: 'confirm', issueId: 1, uid: newUid(), blocks: [{ block: 4, data: 'short' }] },
      { token: h.token },
    );
    expect(confirm.data.fields).toEqual({ 'blocks.0.data': expect.any(String) });
    const management = await gw.post(
      '/linQuan/writeRoomCard',
      { uid: newUid(), cardType: 'management', roomIds: [h.rooms[0]!.id], startTime: '2099-01-02T00:00:00Z', endTime: '2099-01-01T00:00:00Z' },
      { token: h.token, language: 'en' },
    );
    expect(management.data.fields).toEqual({ endTime: expect.any(String) });
    const control = await gw.post('/linQuan/writeRoomCard', { uid: newUid(), roomId: h.rooms[0]!.id, note: 'a\u0000b' }, { token: h.token });
    expect(control.data.fields).toEqual({ note: expect.any(String) });

    const empty = await gw.post('/linQuan/writeRoomCard', { uid: newUid(), roomId: h.rooms[1]!.id }, { token: h.token, language: 'en' });
    expect(empty).toMatchObject({ status: 409, code: 409, msg: `Room ${h.rooms[1]!.name} has no guest staying or reserved: check a guest in first` });

    // A member who manages only some rooms may not write a card for all rooms.
    await ctx.deps.prisma.membership.update({ where: { accountId_hotelId: { accountId: h.staff.id, hotelId: h.hotel.id } }, data: { allRooms: false } });
    await ctx.deps.prisma.membershipRoom.create({
      data: {
        hotelId: h.hotel.id,
        membershipId: (await ctx.deps.prisma.membership.findUniqueOrThrow({ where: { accountId_hotelId: { accountId: h.staff.id, hotelId: h.hotel.id } } })).id,
        roomId: h.rooms[0]!.id,
      },
    });
    const all = await gw.post('/linQuan/writeRoomCard', { uid: newUid(), cardType: 'universal', allRooms: 1, endTime: '2099-01-01 00:00' }, { token: h.token });
    expect(all).toMatchObject({ status: 403, code: 403, data: { error: 'FORBIDDEN' } });
    // ... and does not see the others.
    expect(await gw.post('/linQuan/writeRoomCard', { uid: newUid(), roomId: h.rooms[1]!.id }, { token: h.token })).toMatchObject({ status: 404, code: 404 });
    expect((await gw.get<RoomPage>('/linQuan/getRoomListByHotelId', undefined, { token: h.token })).data.items.map((r) => r.roomId)).toEqual([h.rooms[0]!.id]);
  });
});

describe('POST /linQuan/deleteRoomCard', () => {
  async function issued(h: Awaited<ReturnType<typeof hotelWithToken>>) {
    const uid = newUid();
    const reserved = await gw.post<Written>('/linQuan/writeRoomCard', { uid, stayId: h.stay.id, mode: 'duplicate' }, { token: h.token });
    const confirmed = await gw.post<Written>(
      '/linQuan/writeRoomCard',
      { step: 'confirm', issueId: reserved.data.issueId, uid, blocks: reserved.data.blocks },
      { token: h.token },
    );
    return { uid, issueId: confirmed.data.issueId as number, cardNumber: confirmed.data.card.cardNumber as string };
  }

  it('takes a card back by its UID (the blocks to clear), reports one lost by number, revokes one by issue id', async () => {
    const h = await hotelWithToken();
    const a = await issued(h);
    const back = await gw.post<Written>('/linQuan/deleteRoomCard', { uid: a.uid }, { token: h.token, language: 'en' });
    expect(back).toMatchObject({
      code: 200,
      msg: 'Card taken back: clear its data',
      data: {
        type: 'return',
        issueId: a.issueId,
        card: { state: 'returned', endReason: 'returned' },
        clear: [{ block: 4, data: '0'.repeat(32) }, { block: 5 }, { block: 6 }],
      },
    });
    expect(await gw.post('/linQuan/deleteRoomCard', { uid: a.uid }, { token: h.token })).toMatchObject({ status: 404, code: 404 });

    const b = await issued(h);
    expect(await gw.post('/linQuan/deleteRoomCard', { cardNumber: b.cardNumber, type: 'lost' }, { token: h.token })).toMatchObject({
      code: 200,
      data: { type: 'lost', card: { state: 'lost' } },
    });
    expect(await gw.post('/linQuan/writeRoomCard', { uid: b.uid, stayId: h.stay.id }, { token: h.token })).toMatchObject({ code: 409 });

    const c = await issued(h);
    expect(await gw.post('/linQuan/deleteRoomCard', { issueId: c.issueId, type: 'revoke' }, { token: h.token })).toMatchObject({
      code: 200,
      data: { type: 'revoke', card: { state: 'ended', endReason: 'manual' } },
    });
    expect(await gw.post('/linQuan/deleteRoomCard', { issueId: c.issueId, type: 'revoke' }, { token: h.token })).toMatchObject({ code: 409 });
  });

  it('refuses a call that names no card, a bad type or number, with field messages', async () => {
    const h = await hotelWithToken();
    const none = await gw.post('/linQuan/deleteRoomCard', {}, { token: h.token, language: 'en' });
    expect(none).toMatchObject({ code: 400, data: { fields: { cardNumber: "Give the card number, the card UID or the card's issue id" } } });
    const bad = await gw.post('/linQuan/deleteRoomCard', { type: 'burn', cardNumber: '12ab', uid: 'Q' }, { token: h.token });
    expect(Object.keys(bad.data.fields as object).sort()).toEqual(['cardNumber', 'type', 'uid']);
    expect(await gw.post('/linQuan/deleteRoomCard', { cardNumber: '1234567' }, { token: h.token })).toMatchObject({ code: 404 });
  });
});

describe('POST /linQuan/getAuthorizationRecord', () => {
  it("lists a room's cards with their states, and its unlock records, paged", async () => {
    const h = await hotelWithToken();
    const uid = newUid();
    const reserved = await gw.post<Written>('/linQuan/writeRoomCard', { uid, stayId: h.stay.id }, { token: h.token });
    await gw.post('/linQuan/writeRoomCard', { step: 'confirm', issueId: reserved.data.issueId, uid, blocks: reserved.data.blocks }, { token: h.token });
    await ctx.deps.prisma.unlockRecord.create({
      data: {
        hotelId: h.hotel.id,
        roomId: h.rooms[0]!.id,
        occurredAt: new Date(),
        event: 'opened',
        source: 'lock',
        style: 'card',
        success: true,
        operator: 'Mei Lin',
        credential: `card:${reserved.data.issueId}`,
        providerRecordId: randomUUID(),
      },
    });
    const res = await gw.post<Records>('/linQuan/getAuthorizationRecord', { type: 'all', roomId: h.rooms[0]!.id, pageSize: 5 }, { token: h.token });
    expect(res.code).toBe(200);
    expect(res.data.cards).toMatchObject({
      total: 1,
      page: 1,
      pageSize: 5,
      items: [{ issueId: reserved.data.issueId, state: 'issued', holderName: 'Mei Lin', rooms: [{ roomId: h.rooms[0]!.id }] }],
    });
    expect(res.data.unlocks).toMatchObject({
      total: 1,
      items: [{ roomId: h.rooms[0]!.id, success: true, style: 'card', operator: 'Mei Lin', issueId: reserved.data.issueId }],
    });
    const byCard = await gw.get<Records>('/linQuan/getAuthorizationRecord', { type: 'unlocks', issueId: reserved.data.issueId }, { token: h.token });
    expect(byCard.data.unlocks.total).toBe(1);
    const history = await gw.post<Records>('/linQuan/getAuthorizationRecord', { roomId: h.rooms[0]!.id, scope: 'history' }, { token: h.token });
    expect(history.data).toEqual({ type: 'cards', cards: { items: [], total: 0, page: 1, pageSize: 20 } });
  });

  it('refuses bad dates and types with field messages', async () => {
    const h = await hotelWithToken();
    const bad = await gw.post('/linQuan/getAuthorizationRecord', { type: 'x', startDate: '2026-02-30', roomId: 'a' }, { token: h.token });
    expect(Object.keys(bad.data.fields as object).sort()).toEqual(['roomId', 'startDate', 'type']);
    const order = await gw.post('/linQuan/getAuthorizationRecord', { type: 'unlocks', startDate: '2026-03-02', endDate: '2026-03-01' }, { token: h.token });
    expect(order.data.fields).toEqual({ endDate: expect.any(String) });
  });
});

describe('the gateway as a whole', () => {
  it('answers unknown paths and methods with 404 in JSON', async () => {
    const h = await hotelWithToken();
    expect(await gw.post('/linQuan/nothingHere', {}, { token: h.token })).toMatchObject({ status: 404, code: 404, data: { error: 'UNKNOWN_ACTION' } });
    expect(await gw.get('/linQuan/writeRoomCard', undefined, { token: h.token })).toMatchObject({ status: 404, code: 404 });
    expect(await gw.get('/auth/login')).toMatchObject({ status: 404, code: 404 });
  });

  it('refuses a body over the size limit with 413 in JSON', async () => {
    const res = await gw.post('/auth/login', { mobile: '13912345678', password: 'x'.repeat(ctx.config.bodyLimit) }, { ip: freshIp(), language: 'en' });
    expect(res).toMatchObject({ status: 413, code: 413, msg: 'The data sent is too large.', data: { error: 'PAYLOAD_TOO_LARGE' } });
  });

  it("lets the console's own origin read answers across origins (preflight), and no other", async () => {
    const preflight = await ctx.app.inject({
      method: 'OPTIONS',
      url: '/linQuan/writeRoomCard',
      headers: {
        host: 'localhost:3000',
        origin: 'http://localhost:3000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': 'http://localhost:3000',
      'access-control-allow-methods': expect.stringContaining('POST'),
    });
    expect(preflight.headers['access-control-allow-headers']).toMatch(/authorization/);
    const evil = await ctx.app.inject({
      method: 'OPTIONS',
      url: '/auth/login',
      headers: { host: 'localhost:3000', origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(evil.statusCode).toBe(403);
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
    const h = await createHotelWithStaff(ctx.deps);
    const login = await gw.post('/auth/login', { mobile: h.staff.mobile, password: TEST_PASSWORD }, { ip: freshIp(), origin: 'http://localhost:3000' });
    expect(login.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    const foreign = await gw.post('/auth/login', { mobile: h.staff.mobile, password: TEST_PASSWORD }, { ip: freshIp(), origin: 'https://evil.example' });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers an unexpected failure with 500 and the generic message, never the error or a stack trace', async () => {
    const app = Fastify();
    await registerCardGateway(app, ctx.deps, [
      publicRoute({
        method: ['POST'],
        url: '/linQuan/explode',
        input: z.object({}),
        services: [],
        async handle() {
          throw new Error('secret detail at /srv/app/db.ts:12');
        },
      }),
    ]);
    const res = await gatewayClient(app).post('/linQuan/explode', {}, { language: 'en' });
    expect(res).toMatchObject({ status: 500, code: 500, msg: 'Something went wrong on the server. Please try again later.', data: { error: 'INTERNAL' } });
    expect(res.text).not.toMatch(/secret|db\.ts|stack/);
    await app.close();
  });
});
