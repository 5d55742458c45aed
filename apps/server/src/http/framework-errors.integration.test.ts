import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COOKIES, type TAppErrorData } from '@console/shared';
import { createHotelWithStaff } from '../test/factories';
import { createTestContext, type TestContext } from '../test/harness';

/**
 * Every error in the product's own shape, with the right status (issue 39 §6): the live feed
 * refuses a tab that may not have it before any stream; Fastify's own refusals (a path segment too
 * long or not UTF-8, a body too large, of a type not read, not as long as it says, an address that
 * is nothing) are answered as the face asked answers its errors, never with Fastify's `FST_ERR_*` body.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

interface TrpcShape {
  error: { message: string; code: number; data: { code: string; httpStatus: number; app: TAppErrorData } };
}

const headers = (more: Record<string, string> = {}) => ({ language: 'en', host: 'localhost:3000', origin: 'http://localhost:3000', ...more });
const long = 'x'.repeat(300);

describe('the live feed', () => {
  it('refuses a request with no session, a garbage cookie or a frozen account before opening the stream', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    await ctx.deps.prisma.account.update({ where: { id: h.staff.id }, data: { frozenAt: new Date() } });
    const cases = [
      { cookie: undefined, status: 401, code: 'UNAUTHENTICATED' },
      { cookie: 'garbage', status: 401, code: 'UNAUTHENTICATED' },
      { cookie: 'x'.repeat(400), status: 401, code: 'UNAUTHENTICATED' },
      { cookie: h.staffToken, status: 403, code: 'ACCOUNT_FROZEN' },
    ];
    for (const c of cases) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/trpc/event.feed?input=%7B%7D',
        headers: headers({ accept: 'text/event-stream', ...(c.cookie ? { cookie: `${COOKIES.session}=${c.cookie}` } : {}) }),
      });
      expect({ status: res.statusCode, type: res.headers['content-type'] }).toEqual({ status: c.status, type: 'application/json; charset=utf-8' });
      const body = res.json() as TrpcShape;
      expect(body.error.data).toMatchObject({ httpStatus: c.status, app: { code: c.code } });
      expect(body.error.message).toBe(ctx.deps.i18n.t('en', `errors.${c.code}`));
    }
  });

  it('refuses a bad input of a live session with 400, not a stream', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    for (const input of ['%7Bnope', encodeURIComponent(JSON.stringify({ lastEventId: { no: 1 } }))]) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/trpc/event.feed?input=${input}`,
        headers: headers({ accept: 'text/event-stream', cookie: `${COOKIES.session}=${h.ownerToken}` }),
      });
      expect(res.statusCode).toBe(400);
      expect((res.json() as TrpcShape).error.data.httpStatus).toBe(400);
    }
  });
});

describe("Fastify's own refusals", () => {
  const cases: {
    label: string;
    method: 'GET' | 'POST';
    url: string;
    headers?: Record<string, string>;
    payload?: string;
    status: number;
    code: string;
    reason?: string;
  }[] = [
    { label: 'a tRPC path segment too long', method: 'GET', url: `/trpc/${long}`, status: 414, code: 'BAD_REQUEST', reason: 'request.urlTooLong' },
    { label: "the key page's token too long", method: 'GET', url: `/k/${long}`, status: 414, code: 'BAD_REQUEST', reason: 'request.urlTooLong' },
    { label: 'a photo path too long', method: 'GET', url: `/api/faces/photo/1/${long}`, status: 414, code: 'BAD_REQUEST', reason: 'request.urlTooLong' },
    { label: 'a path that is not UTF-8', method: 'GET', url: '/room/%E0%A4%A', status: 400, code: 'BAD_REQUEST', reason: 'request.urlInvalid' },
    { label: 'a tRPC path that is not UTF-8', method: 'GET', url: '/trpc/%E0%A4%A', status: 400, code: 'BAD_REQUEST', reason: 'request.urlInvalid' },
    {
      label: 'a body too large',
      method: 'POST',
      url: '/trpc/auth.login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ a: 'x'.repeat(2_000_000) }),
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
    },
    {
      label: 'a body shorter than its Content-Length',
      method: 'POST',
      url: '/trpc/auth.login',
      headers: { 'content-type': 'application/json', 'content-length': '5' },
      payload: '{"account":1}',
      status: 400,
      code: 'BAD_REQUEST',
      reason: 'request.contentLengthMismatch',
    },
    {
      label: 'a body of a type not read',
      method: 'POST',
      url: '/trpc/auth.login',
      headers: { 'content-type': 'text/xml' },
      payload: '<login/>',
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
    },
    { label: 'an address that is nothing', method: 'GET', url: '/nothing/here.png', status: 404, code: 'UNKNOWN_ACTION' },
    { label: "a wrong lock callback's secret", method: 'POST', url: '/api/locks/callback/wrong', payload: '', status: 404, code: 'UNKNOWN_ACTION' },
  ];

  it('answers each in the product shape of its face, translated, with its status', async () => {
    expect(ctx.config.bodyLimit).toBeLessThan(2_000_000);
    for (const c of cases) {
      for (const language of ['en', 'zh-CN']) {
        const res = await ctx.app.inject({ method: c.method, url: c.url, headers: headers({ ...c.headers, language }), payload: c.payload });
        expect(res.body, c.label).not.toContain('FST_');
        const isTrpc = c.url.startsWith('/trpc/');
        const app = isTrpc ? (res.json() as TrpcShape).error.data.app : (res.json() as { error: TAppErrorData }).error;
        expect({ label: c.label, status: res.statusCode, code: app.code, reason: app.reason }).toEqual({
          label: c.label,
          status: c.status,
          code: c.code,
          reason: c.reason,
        });
        expect(app.message, c.label).toBe(ctx.deps.i18n.t(language as 'en', c.reason ?? `errors.${c.code}`));
        if (isTrpc) expect((res.json() as TrpcShape).error.data.httpStatus, c.label).toBe(c.status);
      }
    }
  });

  it('answers them on the gateway and the legacy envelope in their own shapes', async () => {
    const gateway = await ctx.app.inject({ method: 'GET', url: '/linQuan/%E0%A4%A', headers: headers() });
    expect(gateway.statusCode).toBe(400);
    expect(gateway.json()).toMatchObject({ code: 400, msg: ctx.deps.i18n.t('en', 'request.urlInvalid'), data: { error: 'BAD_REQUEST' } });
    const legacy = await ctx.app.inject({ method: 'POST', url: '/manage/%E0%A4%A', headers: headers({ 'content-type': 'application/json' }), payload: '{}' });
    expect(legacy.statusCode).toBe(200);
    expect(JSON.parse(ctx.deps.des.decrypt(legacy.body))).toMatchObject({ errno: 100002 });
  });
});
