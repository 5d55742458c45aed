import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { sanitizeExportFileName } from '@console/shared/export';
import { contentDisposition } from '../http/exports';
import { GATEWAY_ROUTES } from '../legacy/gateway/gateway';
import { LEGACY_ACTIONS } from '../legacy/manage/registry';
import { recordAudit } from '../modules/audit/audit.service';
import { appRouter } from '../trpc/router';
import { TEST_PASSWORD } from './factories';
import { buildWorld, LEGACY_EXAMPLES, TRPC_EXAMPLES, type World } from './examples';
import { gatewayClient } from './gateway-client';
import { createTestContext, testMeta, type TestContext } from './harness';
import { legacyClient } from './legacy-client';
import { trpcClient } from './trpc-client';

/**
 * The text the product accepts (decision 025, issue 18 §1): a lone UTF-16 surrogate or a NUL in
 * any text of any request, on every face, is a translated field error (errno 100001, tRPC 400,
 * gateway 400), never a server error (the audit log's JSON column refused a lone surrogate: 500 /
 * errno 100500). Every legacy action, tRPC procedure and gateway call gets the hostile text in
 * every string of its valid example at once (or in an extra field when it has none).
 */

const HOSTILE = [
  { label: 'a lone high surrogate', text: 'Lin \ud800 Wei', reason: 'validation.brokenCharacters' },
  { label: 'a lone low surrogate', text: '\udc00', reason: 'validation.brokenCharacters' },
  { label: 'a NUL', text: 'Lin\u0000Wei', reason: 'validation.controlCharacters' },
];

let ctx: TestContext;
let world: World;
let legacy: ReturnType<typeof legacyClient>;
let api: ReturnType<typeof trpcClient>;
let gateway: ReturnType<typeof gatewayClient>;
let gatewayToken: string;

beforeAll(async () => {
  ctx = await createTestContext();
  legacy = legacyClient(ctx.app, ctx.config);
  api = trpcClient(ctx.app);
  gateway = gatewayClient(ctx.app);
  world = await buildWorld(ctx);
  gatewayToken = await gateway.login(world.owner.mobile!, TEST_PASSWORD);
});
afterAll(() => ctx.close());

/** `value` with every string (keys aside) replaced by `text`; `extra` added when it holds none. */
function hostile(value: Record<string, unknown> | undefined, text: string): Record<string, unknown> {
  let strings = 0;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      strings++;
      return text;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const out = (walk(value ?? {}) as Record<string, unknown>) ?? {};
  return strings > 0 ? out : { ...out, note: text };
}

const procedures = Object.entries(
  (appRouter as unknown as { _def: { procedures: Record<string, { _def: { type: 'query' | 'mutation' | 'subscription'; inputs: z.ZodType[] } }> } })._def
    .procedures,
);

describe.each(HOSTILE)('$label', ({ text, reason }) => {
  it('is refused by every legacy action as a translated field error', async () => {
    const wrong: string[] = [];
    for (const action of LEGACY_ACTIONS) {
      const res = await legacy.call<{ fields?: Record<string, string> }>(action.path, hostile(LEGACY_EXAMPLES[action.path]!(world), text), {
        token: world.legacyToken,
        language: 'en',
      });
      const fields = Object.values(res.data?.fields ?? {});
      if (res.status !== 200 || res.errno !== 100001 || fields.length === 0 || res.errmsg.startsWith('validation.'))
        wrong.push(`${action.path}: ${res.status} ${res.errno} ${res.errmsg}`);
    }
    expect(wrong).toEqual([]);
  });

  it('is refused by every tRPC procedure as a translated field error', async () => {
    const wrong: string[] = [];
    for (const [path, procedure] of procedures) {
      if (path === 'auth.logout') continue;
      const input = hostile(TRPC_EXAMPLES[path]!(world), text);
      const options = { token: world.ownerToken };
      const res =
        // A subscription (the live feed) is opened as a GET, like a query, and answers with events.
        procedure._def.type !== 'mutation'
          ? await api.raw.query(path as 'room.get', input, options)
          : await api.raw.mutation(path as 'room.create', input, options);
      const app = res.error?.data.app;
      if (res.status !== 400 || app?.code !== 'VALIDATION' || app.reason !== reason || !app.fields || app.message.startsWith('validation.'))
        wrong.push(`${path}: ${res.status} ${JSON.stringify(res.error).slice(0, 200)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('is refused by every gateway call as a translated field error', async () => {
    const wrong: string[] = [];
    for (const route of GATEWAY_ROUTES) {
      const names = Object.keys((route.input as unknown as { shape?: Record<string, unknown> }).shape ?? {});
      const fields = Object.fromEntries((names.length ? names : ['note']).map((k) => [k, text]));
      // Signing out would end the token the other calls use. A URL cannot carry a lone surrogate
      // (percent-encoding UTF-8 replaces it): GET is tried with NUL, and with raw bad UTF-8 below.
      const methods = route.url === '/auth/logout' ? [] : route.method.filter((m) => m === 'POST' || reason === 'validation.controlCharacters');
      for (const method of methods) {
        const res = await gateway.call(method, route.url, fields, { token: gatewayToken });
        if (res.status !== 400 || (res.data as { errno?: number }).errno !== 100001 || res.msg.startsWith('validation.'))
          wrong.push(`${method} ${route.url}: ${res.status} ${res.text.slice(0, 200)}`);
      }
    }
    expect(wrong).toEqual([]);
    // The UTF-8 a surrogate would be, percent-encoded by hand: never a server error.
    const raw = await ctx.app.inject({
      method: 'GET',
      url: '/linQuan/getAuthorizationRecord?cardNo=%ED%A0%80',
      headers: { authorization: `Bearer ${gatewayToken}` },
    });
    expect(raw.statusCode).toBeLessThan(500);
  });

  it('in an export filter, key or file name is refused, and nothing is exported', async () => {
    for (const input of [
      { list: 'rooms', filters: { search: text } },
      { list: 'rooms', filters: { [`search${text}`]: 'B1' } },
      { list: 'rooms', filters: { status: [text] } },
      { list: 'rooms', fileName: text },
    ]) {
      const res = await api.raw.mutation('export.start', input, { token: world.ownerToken });
      expect(res.status, JSON.stringify(input)).toBe(400);
      expect(res.error?.data.app).toMatchObject({ code: 'VALIDATION', reason });
    }
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: world.hotel.id, action: 'export.start' } })).toBe(0);
  });
});

describe('text from elsewhere', () => {
  it('reaches the audit log made acceptable (the JSON column refuses NUL and lone surrogates)', async () => {
    const meta = testMeta();
    await recordAudit(
      ctx.deps.prisma,
      { deps: ctx.deps, meta },
      { action: 'hotel.update', hotelId: world.hotel.id, after: { name: 'Lin\u0000 \ud800', ['k\udc00']: ['\u{1F600}'] } },
    );
    const entry = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { hotelId: world.hotel.id, requestId: meta.requestId } });
    expect(entry.after).toEqual({ name: 'Lin \ufffd', 'k\ufffd': ['\u{1F600}'] });
  });

  it('names export files without broken characters, and the download header can always be written', () => {
    expect(sanitizeExportFileName('Rooms \ud800 \u0000 March')).toBe('Rooms March');
    expect(() => contentDisposition('Rooms \ud800.xlsx')).not.toThrow();
    expect(contentDisposition('Rooms \ud800.xlsx')).toContain("filename*=UTF-8''Rooms%20%EF%BF%BD.xlsx");
  });
});
