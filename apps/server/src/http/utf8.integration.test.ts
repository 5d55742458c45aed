import crypto, { randomUUID } from 'node:crypto';
import { COOKIES, type TAppErrorData } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../modules/auth/session.service';
import { createHotelWithStaff, createRooms, hours, insertStay } from '../test/factories';
import { createTestContext, testMeta, type TestContext } from '../test/harness';
import { legacyClient } from '../test/legacy-client';

/**
 * Bytes that are not UTF-8 (an older system's Latin-1 "Jos\xe9") on the console's faces other
 * than the JSON API (http/api/api-body.integration.test.ts), refused naming the field where a
 * plain decoding would have stored U+FFFD (issue 39 §1, http/utf8.ts). tRPC reads an input from
 * the URL (`?input=`, percent-encoded) or from a JSON body: every procedure refuses them
 * (trpc/utf8-input.ts), in a batch only the calls that hold them. The legacy envelope's payload,
 * once decrypted, the same.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ locks: null });
});
afterAll(async () => {
  await ctx?.close();
});

interface TrpcError {
  error: { message: string; data: { code: string; httpStatus: number; app: TAppErrorData } };
}

/** `{"text":"Jos\xe9"}` as a careless client percent-encodes it: é as its one Latin-1 byte. */
const latin1Param = (json: string) => encodeURIComponent(json).replace(/%C3%A9/g, '%E9');

async function session() {
  const h = await createHotelWithStaff(ctx.deps);
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, [`U${randomUUID().slice(0, 5)}`]);
  const stay = await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: rooms[0]!.id, checkInAt: hours(-3), expectedCheckOutAt: hours(20) });
  const headers = { cookie: `${COOKIES.session}=${h.ownerToken}`, host: 'localhost:3000', origin: 'http://localhost:3000', language: 'en' };
  return { ...h, stay, headers };
}

describe('tRPC', () => {
  it("refuse search.query's text read from the URL (400, the field named), where UTF-8 is searched", async () => {
    const s = await session();
    const res = await ctx.app.inject({ method: 'GET', url: `/trpc/search.query?input=${latin1Param('{"text":"José"}')}`, headers: s.headers });
    expect(res.statusCode).toBe(400);
    const { error } = res.json() as TrpcError;
    expect(error.data.app).toMatchObject({ code: 'VALIDATION', errno: 100001, fields: { text: expect.stringContaining('UTF-8') } });
    expect(error.message).toBe('The field "text" holds bytes that are not UTF-8 (another encoding, such as Latin-1): send the text in UTF-8');
    const utf8 = await ctx.app.inject({ method: 'GET', url: `/trpc/search.query?input=${encodeURIComponent('{"text":"José"}')}`, headers: s.headers });
    expect(utf8.statusCode).toBe(200);
  });

  it('in a batch, refuse only the calls that hold them', async () => {
    const s = await session();
    const input = latin1Param(JSON.stringify({ 0: { text: 'José' }, 1: {} }));
    const res = await ctx.app.inject({ method: 'GET', url: `/trpc/search.query,auth.me?batch=1&input=${input}`, headers: s.headers });
    const [search, me] = res.json() as [TrpcError, { result: { data: unknown } }];
    expect(search.error.data.app).toMatchObject({ code: 'VALIDATION', fields: { text: expect.any(String) } });
    expect(me.result.data).toBeDefined();
  });

  it("refuse a mutation's JSON body, in the language asked, and nothing is stored", async () => {
    const s = await session();
    const body = Buffer.from(JSON.stringify({ stayId: s.stay.id, guest: { name: 'José' } }), 'latin1');
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/trpc/stay.addGuest',
      headers: { ...s.headers, 'content-type': 'application/json', language: 'zh-CN' },
      payload: body,
    });
    expect(res.statusCode).toBe(400);
    const { error } = res.json() as TrpcError;
    expect(error.data.app).toMatchObject({ code: 'VALIDATION', fields: { 'guest.name': expect.any(String) } });
    expect(error.message).toBe('字段“guest.name”含有非 UTF-8 的字节（其他编码，例如 Latin-1），请以 UTF-8 发送文字');
    expect(await ctx.deps.prisma.stayGuest.count({ where: { stayId: s.stay.id } })).toBe(1);
    // The same in UTF-8 is taken.
    const utf8 = await ctx.app.inject({
      method: 'POST',
      url: '/trpc/stay.addGuest',
      headers: { ...s.headers, 'content-type': 'application/json' },
      payload: Buffer.from(JSON.stringify({ stayId: s.stay.id, guest: { name: 'José' } }), 'utf8'),
    });
    expect(utf8.statusCode).toBe(200);
    expect((await ctx.deps.prisma.stayGuest.findMany({ where: { stayId: s.stay.id } })).map((g) => g.name)).toContain('José');
  });
});

describe('the legacy envelope', () => {
  it('refuses a payload field that is not UTF-8 naming it (errno 100001), and nothing is stored', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const legacySession = await createSession(ctx.deps, { accountId: h.owner.id, hotelId: h.hotel.id, kind: 'legacy', meta: testMeta() });
    const legacy = legacyClient(ctx.app, ctx.config, { language: 'en' });
    // The payload as an older client sends it: JSON in Latin-1, encrypted as the protocol says.
    const cipher = crypto.createCipheriv('des-cbc', Buffer.from(ctx.config.compat.desKey), Buffer.from(ctx.config.compat.desIv));
    const plain = Buffer.from(JSON.stringify({ name: 'Étage 1', sort: 1, action: 'manage' }), 'latin1');
    const data = Buffer.concat([cipher.update(plain), cipher.final()]).toString('base64');
    const res = await legacy.raw('room/addCategory', new URLSearchParams({ data, language: 'en' }).toString(), {
      'x-token': legacySession.token,
      language: 'en',
    });
    expect(res.decoded()).toMatchObject({
      errno: 100001,
      errmsg: 'The field "name" holds bytes that are not UTF-8 (another encoding, such as Latin-1): send the text in UTF-8',
      data: { fields: { name: expect.stringContaining('UTF-8') } },
    });
    expect(await ctx.deps.prisma.roomGroup.count({ where: { hotelId: h.hotel.id } })).toBe(0);
  });
});
