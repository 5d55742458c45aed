import { randomUUID } from 'node:crypto';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import Fastify from 'fastify';
import type { TPermission } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness';
import { createHotelWithStaff, createRooms, hours, insertStay } from '../../test/factories';
import { jsonApiClient } from '../../test/json-api-client';
import { insertKeptLock } from '../../test/lock-factories';
import { trpcClient } from '../../test/trpc-client';
import { API_KEY_PERMISSIONS } from '@console/shared';
import { registerJsonApi } from './api';
import { API_ROUTES as EVERY_ROUTE } from './routes';

/** The webhooks' operations have scope, tenancy and contract tests of their own (modules/webhooks/webhooks-api.integration.test.ts). */
const API_ROUTES = EVERY_ROUTE.filter((r) => r.tag !== 'Webhooks');

/**
 * The JSON API (issue 29 §1, docs/api.md) as an integrator uses it: every answer is held to the
 * OpenAPI document the server serves (test/json-api-client.ts), and every operation must be seen
 * answering 2xx (the contract test at the end). Tenancy across hotels, scopes, expired and revoked
 * keys, idempotency (replays, two at once), the rate limit, bad input.
 */
let ctx: TestContext;
let api: Awaited<ReturnType<typeof jsonApiClient>>;
let trpc: ReturnType<typeof trpcClient>;

beforeAll(async () => {
  ctx = await createTestContext({ locks: null });
  api = await jsonApiClient(ctx.app);
  trpc = trpcClient(ctx.app);
});
afterAll(async () => {
  await ctx?.close();
});

interface Problem {
  type: string;
  status: number;
  code: string;
  errno: number;
  detail: string;
  fields?: Record<string, string>;
}
interface Stay {
  id: number;
  roomId: number;
  state: string;
  checkInAt: string;
  expectedCheckOutAt: string;
  guests: { id: number; name: string; isPrimary: boolean }[];
}
interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

const ALL: TPermission[] = ['room.read', 'stay.manage', 'credential.manage', 'order.manage'];

/** A hotel whose owner may manage keys, its rooms, and a key with `permissions`. */
async function hotel(permissions: TPermission[] = ALL, roomCount = 3) {
  const h = await createHotelWithStaff(ctx.deps);
  await ctx.deps.prisma.membership.updateMany({ where: { hotelId: h.hotel.id, accountId: h.owner.id }, data: { apiKeyAuth: true } });
  const prefix = `A${randomUUID().slice(0, 5)}`;
  const { rooms, group } = await createRooms(
    ctx.deps,
    h.hotel.id,
    Array.from({ length: roomCount }, (_, i) => `${prefix}-${i + 1}`),
    { groupName: `${prefix} suites` },
  );
  const key = await makeKey(h.ownerToken, permissions);
  return { ...h, rooms, group: group!, prefix, key };
}

async function makeKey(token: string, permissions: TPermission[]) {
  const res = await trpc.mutation('apiKey.create', { name: 'PMS', permissions }, { token });
  expect(res.status).toBe(200);
  return (res.data as { key: string; apiKey: { id: number } }).key;
}

/** A stay of the hotel whose bill was charged, paid, settled at check-out and invoiced (through the console's own calls). */
async function invoicedStay(h: Awaited<ReturnType<typeof hotel>>, roomIndex: number) {
  const stay = await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: h.rooms[roomIndex]!.id, checkInAt: hours(-3), expectedCheckOutAt: hours(20) });
  for (const [path, input] of [
    ['order.recordCharge', { stayId: stay.id, amount: 12_000, note: 'Room', requestId: idem() }],
    ['order.settle', { stayId: stay.id, checkOut: true, payment: { amount: 12_000, method: 'cash' } }],
  ] as const) {
    const res = await trpc.mutation(path, input as never, { token: h.ownerToken });
    expect(res.error, JSON.stringify(res.error)).toBeUndefined();
  }
  const invoice = await trpc.mutation('invoice.issue', { stayId: stay.id, language: 'en', buyer: { name: 'Acme Travel Ltd' } }, { token: h.ownerToken });
  expect(invoice.error).toBeUndefined();
  return { stayId: stay.id, invoiceId: (invoice.data as { id: number }).id };
}

const idem = () => randomUUID();
const reservation = (roomId: number, extra: Record<string, unknown> = {}) => ({
  roomId,
  checkInAt: hours(2).toISOString(),
  expectedCheckOutAt: hours(26).toISOString(),
  guests: [{ name: 'Ana Souza', mobile: '13800138000' }],
  ...extra,
});

describe('the document', () => {
  it('is OpenAPI 3.1, served with every operation, each with a success schema, its scope and the problem shape', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    // A valid OpenAPI 3.1 document, by the specification's own schema.
    expect(await new Validator().validate(doc)).toEqual({ valid: true });
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    // Every route the server answers under /api/v1 is in the document, and nothing else is.
    const served: string[] = [];
    const probe = Fastify();
    probe.addHook('onRoute', (r) => {
      for (const m of [r.method].flat()) if (m !== 'HEAD') served.push(`${m} ${r.url}`);
    });
    await registerJsonApi(probe, ctx.deps);
    await probe.ready();
    await probe.close();
    const own = new Set(['GET /api/v1/openapi.json', 'GET /api/v1/docs', 'GET /api/v1/docs/init.js', 'GET /api/v1/docs/docs.css', 'GET /api/v1/docs/:file']);
    const operations = served.filter((s) => !own.has(s) && !s.endsWith('/api/v1/*'));
    const documented = Object.entries(
      doc.paths as Record<string, Record<string, { responses: Record<string, { content?: unknown }>; 'x-scope': string }>>,
    ).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => {
        const success = Object.entries(op.responses).find(([status]) => status.startsWith('2'));
        expect(success?.[1].content, `${method} ${path} documents its answer`).toBeDefined();
        // Its scope, or none where every key of the hotel may read it (the hotel itself).
        if (path !== '/api/v1/hotel') expect(op['x-scope']).toMatch(/^[a-z]+\.[a-z]+$/);
        expect(op.responses['401']).toBeDefined();
        return `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`;
      }),
    );
    expect(operations.sort()).toEqual(documented.sort());
  });

  it('says the format of instants, emails and links, and gives every body and answer an example that its own schema accepts (issue 39 §5)', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, { requestBody?: Media; responses: Record<string, Media> }>>;
    };
    type Media = { content?: Record<string, { schema: unknown; example?: unknown }> };
    const text = JSON.stringify(doc);
    // A stay's instants, a webhook's address, a face's photo link.
    expect(text).toMatch(/"checkInAt":\{[^}]*"format":"date-time"/);
    expect(text).toMatch(/"url":\{[^}]*"format":"uri"/);
    expect(text).toMatch(/"imageUrl":\{[^}]*"format":"uri-reference"/);
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats.default(ajv);
    ajv.addSchema(doc as object, 'openapi');
    const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
    let checked = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const media = [['requestBody', op.requestBody], ...Object.entries(op.responses).map(([status, r]) => [`responses/${status}`, r] as const)] as const;
        for (const [where, m] of media) {
          const json = m?.content?.['application/json'];
          if (!json) continue;
          expect(json.example, `${method} ${path} ${where} has an example`).toBeDefined();
          const at = `openapi#/paths/${pointer(path)}/${method}/${where}/content/application~1json/schema`;
          const validate = ajv.getSchema(at)!;
          expect(validate(json.example), `${method} ${path} ${where}: ${JSON.stringify(validate.errors)}`).toBe(true);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('has a reference page served by the console, its renderer bundled (no other origin)', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/api/v1/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('/api/v1/docs/swagger-ui-bundle.js');
    expect(page.body).not.toMatch(/https?:\/\//);
    const bundle = await ctx.app.inject({ method: 'GET', url: '/api/v1/docs/swagger-ui-bundle.js' });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.body.length).toBeGreaterThan(100_000);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/v1/docs/..%2f..%2fpackage.json' })).statusCode).toBe(404);
  });
});

describe('authentication', () => {
  it('refuses no key, a console session, an unknown, an expired and a revoked key (401 problems)', async () => {
    const h = await hotel(['room.read']);
    expect((await api.get('/rooms', {}, { key: h.key })).status).toBe(200);
    for (const key of [undefined, h.ownerToken, 'slk_unknown']) {
      const res = await api.get<Problem>('/rooms', {}, { key });
      expect(res).toMatchObject({ status: 401, body: { code: 'UNAUTHENTICATED', errno: 100003, status: 401 } });
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    }
    const expired = await makeKey(h.ownerToken, ['room.read']);
    await ctx.deps.prisma.apiKey.updateMany({ where: { hotelId: h.hotel.id, prefix: expired.slice(0, 12) }, data: { expiresAt: hours(-1) } });
    expect((await api.get<Problem>('/rooms', {}, { key: expired })).body.code).toBe('UNAUTHENTICATED');
    const revoked = await makeKey(h.ownerToken, ['room.read']);
    const row = await ctx.deps.prisma.apiKey.findFirstOrThrow({ where: { hotelId: h.hotel.id, prefix: revoked.slice(0, 12) } });
    expect((await trpc.mutation('apiKey.revoke', { id: row.id }, { token: h.ownerToken })).status).toBe(200);
    expect((await api.get<Problem>('/rooms', {}, { key: revoked })).status).toBe(401);
  });

  it("acts for the hotel's first owner once the member who made the key is gone, and for no one without an owner", async () => {
    const h = await hotel(['room.read']);
    await ctx.deps.prisma.apiKey.updateMany({ where: { hotelId: h.hotel.id }, data: { createdByAccountId: null } });
    expect((await api.get('/hotel', {}, { key: h.key })).status).toBe(200);
    await ctx.deps.prisma.membership.updateMany({ where: { hotelId: h.hotel.id, role: 'owner' }, data: { role: 'admin' } });
    expect((await api.get<Problem>('/hotel', {}, { key: h.key })).body.code).toBe('UNAUTHENTICATED');
  });

  it("keeps to the key's scopes: a read-only key cannot write (403), and its answer is translated", async () => {
    const h = await hotel(['room.read']);
    const res = await api.post<Problem>('/reservations', {}, reservation(h.rooms[0]!.id), { key: h.key, idempotencyKey: idem(), language: 'zh-CN' });
    expect(res).toMatchObject({ status: 403, body: { code: 'FORBIDDEN', type: 'urn:console:problem:forbidden' } });
    expect(res.body.detail).toMatch(/[\u4e00-\u9fff]/);
    expect(await ctx.deps.prisma.stay.count({ where: { hotelId: h.hotel.id } })).toBe(0);
    // A request that names no language is answered in English (a program's, issue 39 §5), a
    // console's in its source language.
    const unnamed = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/reservations',
      headers: { authorization: `Bearer ${h.key}`, 'idempotency-key': idem(), 'content-type': 'application/json' },
      payload: JSON.stringify(reservation(h.rooms[0]!.id)),
    });
    expect(unnamed.statusCode).toBe(403);
    expect((unnamed.json() as Problem).detail).toMatch(/^[\x20-\x7e]+$/);
  });
});

describe('rooms', () => {
  it("lists the rooms of the key's hotel by cursor, one room, the groups; another hotel's room is not found", async () => {
    const h = await hotel(['room.read']);
    const other = await hotel(['room.read']);
    const first = await api.get<Page<{ id: number; name: string }>>('/rooms', {}, { key: h.key, query: { limit: 2 } });
    expect(first.status).toBe(200);
    expect(first.headers['ratelimit-limit']).toBe('600');
    expect(first.body.items).toHaveLength(2);
    const second = await api.get<Page<{ id: number; name: string }>>('/rooms', {}, { key: h.key, query: { limit: 2, cursor: first.body.nextCursor! } });
    expect(second.body).toMatchObject({ nextCursor: null });
    expect([...first.body.items, ...second.body.items].map((r) => r.name)).toEqual([`${h.prefix}-1`, `${h.prefix}-2`, `${h.prefix}-3`]);

    const room = await api.get<{ id: number; name: string }>('/rooms/{roomId}', { roomId: h.rooms[1]!.id }, { key: h.key });
    expect(room.body).toMatchObject({ id: h.rooms[1]!.id, name: `${h.prefix}-2` });
    const groups = await api.get<{ items: { id: number; roomCount: number }[] }>('/room-groups', {}, { key: h.key });
    expect(groups.body.items).toEqual([expect.objectContaining({ id: h.group.id, roomCount: 3 })]);

    const theirs = await api.get<Problem>('/rooms/{roomId}', { roomId: other.rooms[0]!.id }, { key: h.key });
    expect(theirs).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    const bad = await api.get<Problem>('/rooms', {}, { key: h.key, query: { cursor: 'not-a-cursor' } });
    expect(bad).toMatchObject({ status: 400, body: { code: 'VALIDATION', fields: { cursor: expect.any(String) } } });
  });
});

describe('reservations and stays', () => {
  it('creates a reservation once per Idempotency-Key: a replay answers the first result, another body with the key is a conflict', async () => {
    const h = await hotel();
    const key = idem();
    const body = reservation(h.rooms[0]!.id);
    const made = await api.post<Stay>('/reservations', {}, body, { key: h.key, idempotencyKey: key });
    expect(made).toMatchObject({ status: 201, body: { roomId: h.rooms[0]!.id, state: 'reserved', guests: [expect.objectContaining({ name: 'Ana Souza' })] } });
    const again = await api.post<Stay>('/reservations', {}, body, { key: h.key, idempotencyKey: key });
    expect(again).toMatchObject({ status: 201, body: { id: made.body.id } });
    expect(again.headers['idempotent-replayed']).toBe('true');
    const otherBody = await api.post<Problem>('/reservations', {}, reservation(h.rooms[1]!.id), { key: h.key, idempotencyKey: key });
    expect(otherBody).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    expect(await ctx.deps.prisma.stay.count({ where: { hotelId: h.hotel.id } })).toBe(1);
    // Found again by that key, the caller's own booking id; not by another hotel's key.
    const byKey = await api.get<Stay>('/stays/by-external-id/{externalId}', { externalId: key }, { key: h.key });
    expect(byKey).toMatchObject({ status: 200, body: { id: made.body.id } });
    const other = await hotel();
    expect((await api.get<Problem>('/stays/by-external-id/{externalId}', { externalId: key }, { key: other.key })).status).toBe(404);
    // The same id in another hotel is that hotel's own reservation; each finds its own.
    const theirs = await api.post<Stay>('/reservations', {}, reservation(other.rooms[0]!.id), { key: other.key, idempotencyKey: key });
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(made.body.id);
    expect((await api.get<Stay>('/stays/by-external-id/{externalId}', { externalId: key }, { key: other.key })).body.id).toBe(theirs.body.id);
    expect((await api.get<Stay>('/stays/by-external-id/{externalId}', { externalId: key }, { key: h.key })).body.id).toBe(made.body.id);
    // Audited as the key, through the JSON API.
    const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { hotelId: h.hotel.id, action: 'stay.reserve' } });
    expect(audit).toMatchObject({ channel: 'api', entityId: String(made.body.id) });
    expect(audit).toMatchObject({ actorType: 'api_key', actorApiKeyId: expect.any(Number) });
  });

  it('makes one reservation of two identical requests at once, and both answer it', async () => {
    const h = await hotel();
    const key = idem();
    const body = reservation(h.rooms[0]!.id);
    const [a, b] = await Promise.all([
      api.post<Stay>('/reservations', {}, body, { key: h.key, idempotencyKey: key }),
      api.post<Stay>('/reservations', {}, body, { key: h.key, idempotencyKey: key }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.id).toBe(b.body.id);
    expect(await ctx.deps.prisma.stay.count({ where: { hotelId: h.hotel.id } })).toBe(1);
  });

  it('checks out once for two identical requests at once (the second answers the first result)', async () => {
    const h = await hotel();
    const stay = await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: h.rooms[0]!.id, checkInAt: hours(-3), expectedCheckOutAt: hours(20) });
    const key = idem();
    const [a, b] = await Promise.all([
      api.post<Stay>('/stays/{stayId}/check-out', { stayId: stay.id }, undefined, { key: h.key, idempotencyKey: key }),
      api.post<Stay>('/stays/{stayId}/check-out', { stayId: stay.id }, undefined, { key: h.key, idempotencyKey: key }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.text).toBe(b.text);
    expect(a.body.state).toBe('checked_out');
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: h.hotel.id, action: 'stay.checkOut' } })).toBe(1);
    // Without a key the write is refused before anything happens.
    const without = await api.post<Problem>('/stays/{stayId}/check-out', { stayId: stay.id }, undefined, { key: h.key });
    expect(without).toMatchObject({ status: 400, body: { code: 'VALIDATION', fields: { 'Idempotency-Key': expect.any(String) } } });
  });

  it("reads, checks in, changes dates and room, lists credentials, cancels; another hotel's stay is not found", async () => {
    const h = await hotel();
    const other = await hotel();
    const made = await api.post<Stay>('/reservations', {}, reservation(h.rooms[0]!.id, { checkInAt: new Date().toISOString() }), {
      key: h.key,
      idempotencyKey: idem(),
    });
    expect(made.status).toBe(201);
    const id = made.body.id;
    const got = await api.get<Stay>('/stays/{stayId}', { stayId: id }, { key: h.key });
    expect(got.body).toMatchObject({ id, state: 'reserved' });

    for (const [path, body] of [
      ['/stays/{stayId}', undefined],
      ['/stays/{stayId}/credentials', undefined],
    ] as const) {
      expect((await api.get<Problem>(path, { stayId: id }, { key: other.key })).status).toBe(404);
      void body;
    }
    const theirs = await api.post<Problem>('/stays/{stayId}/cancel', { stayId: id }, { reason: 'guest_request' }, { key: other.key, idempotencyKey: idem() });
    expect(theirs).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });

    const arrived = await api.post<Stay>('/stays/{stayId}/check-in', { stayId: id }, {}, { key: h.key, idempotencyKey: idem() });
    expect(arrived).toMatchObject({ status: 200, body: { id, state: 'in_house' } });
    const until = hours(50).toISOString();
    const longer = await api.post<Stay>('/stays/{stayId}/dates', { stayId: id }, { expectedCheckOutAt: until }, { key: h.key, idempotencyKey: idem() });
    expect(longer.status).toBe(200);
    expect(longer.body.expectedCheckOutAt).toBe(until);
    const moved = await api.post<Stay>('/stays/{stayId}/room', { stayId: id }, { targetRoomId: h.rooms[2]!.id }, { key: h.key, idempotencyKey: idem() });
    expect(moved.status).toBe(200);
    const after = await api.get<Stay>('/stays/{stayId}', { stayId: moved.body.id }, { key: h.key });
    expect(after.body.roomId).toBe(h.rooms[2]!.id);
    const keys = await api.get<{ stayId: number }>('/stays/{stayId}/credentials', { stayId: moved.body.id }, { key: h.key });
    expect(keys.status).toBe(200);
    const withGuest = await api.post<Stay>('/stays/{stayId}/guests', { stayId: moved.body.id }, { name: 'Bruno Lima' }, { key: h.key, idempotencyKey: idem() });
    expect(withGuest).toMatchObject({
      status: 201,
      body: { guests: [expect.objectContaining({ name: 'Ana Souza' }), expect.objectContaining({ name: 'Bruno Lima' })] },
    });
    const theirGuest = await api.post<Problem>(
      '/stays/{stayId}/guests',
      { stayId: moved.body.id },
      { name: 'Intruder' },
      { key: other.key, idempotencyKey: idem() },
    );
    expect(theirGuest.status).toBe(404);
    // The companion removed (their key cannot; the primary guest cannot be; a second time is not found).
    const bruno = withGuest.body.guests.find((g) => g.name === 'Bruno Lima')!;
    const primary = withGuest.body.guests.find((g) => g.isPrimary)!;
    const guestPath = '/stays/{stayId}/guests/{guestId}';
    const theirRemoval = await api.send<Problem>('DELETE', guestPath, { stayId: moved.body.id, guestId: bruno.id }, undefined, {
      key: other.key,
      idempotencyKey: idem(),
    });
    expect(theirRemoval).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    const primaryRemoval = await api.send<Problem>('DELETE', guestPath, { stayId: moved.body.id, guestId: primary.id }, undefined, {
      key: h.key,
      idempotencyKey: idem(),
    });
    expect(primaryRemoval).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    const removalKey = idem();
    const removed = await api.send<Stay>('DELETE', guestPath, { stayId: moved.body.id, guestId: bruno.id }, undefined, {
      key: h.key,
      idempotencyKey: removalKey,
    });
    expect(removed).toMatchObject({ status: 200, body: { id: moved.body.id, guests: [expect.objectContaining({ name: 'Ana Souza' })] } });
    expect(removed.body.guests).toHaveLength(1);
    // A replay answers the first result; the same removal under a new key finds no such guest.
    const replay = await api.send<Stay>('DELETE', guestPath, { stayId: moved.body.id, guestId: bruno.id }, undefined, {
      key: h.key,
      idempotencyKey: removalKey,
    });
    expect(replay).toMatchObject({ status: 200, headers: { 'idempotent-replayed': 'true' } });
    expect(replay.text).toBe(removed.text);
    const again = await api.send<Problem>('DELETE', guestPath, { stayId: moved.body.id, guestId: bruno.id }, undefined, { key: h.key, idempotencyKey: idem() });
    expect(again).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });

    // A second reservation, cancelled.
    const other2 = await api.post<Stay>('/reservations', {}, reservation(h.rooms[1]!.id), { key: h.key, idempotencyKey: idem() });
    const cancelled = await api.post<Stay>(
      '/stays/{stayId}/cancel',
      { stayId: other2.body.id },
      { reason: 'guest_request' },
      { key: h.key, idempotencyKey: idem() },
    );
    expect(cancelled).toMatchObject({ status: 200, body: { id: other2.body.id, state: 'ended' } });
  });

  it('lists stays newest first by cursor, rows written meanwhile never shift a page', async () => {
    const h = await hotel(ALL, 4);
    for (const [i, room] of h.rooms.entries()) {
      await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: room.id, checkInAt: hours(-10 - i), expectedCheckOutAt: hours(10) });
    }
    const first = await api.get<Page<Stay>>('/stays', {}, { key: h.key, query: { limit: 3 } });
    expect(first.body.items.map((s) => s.roomId)).toEqual(h.rooms.slice(0, 3).map((r) => r.id));
    // A newer stay written between the pages does not shift the next one.
    await api.post('/reservations', {}, reservation(h.rooms[0]!.id, { checkInAt: hours(30).toISOString(), expectedCheckOutAt: hours(40).toISOString() }), {
      key: h.key,
      idempotencyKey: idem(),
    });
    const second = await api.get<Page<Stay>>('/stays', {}, { key: h.key, query: { limit: 3, cursor: first.body.nextCursor! } });
    expect(second.body).toEqual({ items: [expect.objectContaining({ roomId: h.rooms[3]!.id })], nextCursor: null });
  });
});

describe("changing a reservation's dates or room", () => {
  it("PATCH moves a reservation to other dates and room, priced again; a room taken is a problem naming the booking; another hotel's is 404", async () => {
    const h = await hotel();
    const [a, b] = h.rooms as [(typeof h.rooms)[0], (typeof h.rooms)[0]];
    const made = await api.post<Stay & { priceAmount: number }>('/reservations', {}, reservation(a.id), { key: h.key, idempotencyKey: idem() });
    expect(made.status).toBe(201);
    const body = { roomId: b.id, checkInAt: hours(50).toISOString(), expectedCheckOutAt: hours(98).toISOString() };
    const moved = await api.send<Stay & { kind: string; movedFromStayId: number }>('PATCH', '/reservations/{stayId}', { stayId: made.body.id }, body, {
      key: h.key,
      idempotencyKey: idem(),
    });
    expect(moved).toMatchObject({
      status: 200,
      body: { kind: 'move', roomId: b.id, state: 'reserved', movedFromStayId: made.body.id, checkInAt: body.checkInAt },
    });
    // Another reservation in the way: refused naming its guest.
    await api.post(
      '/reservations',
      {},
      reservation(a.id, { checkInAt: hours(120).toISOString(), expectedCheckOutAt: hours(150).toISOString(), guests: [{ name: 'Rui Costa' }] }),
      {
        key: h.key,
        idempotencyKey: idem(),
      },
    );
    const taken = await api.send<Problem>(
      'PATCH',
      '/reservations/{stayId}',
      { stayId: moved.body.id },
      { roomId: a.id, checkInAt: hours(110).toISOString(), expectedCheckOutAt: hours(130).toISOString() },
      { key: h.key, idempotencyKey: idem() },
    );
    expect(taken).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    expect(taken.body.detail).toContain('Rui Costa');
    const other = await hotel();
    const theirs = await api.send<Problem>('PATCH', '/reservations/{stayId}', { stayId: moved.body.id }, body, { key: other.key, idempotencyKey: idem() });
    expect(theirs).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });

  it("PUT by the caller's own id makes the reservation once, then moves it to the dates sent", async () => {
    const h = await hotel();
    const [a, b] = h.rooms as [(typeof h.rooms)[0], (typeof h.rooms)[0]];
    const externalId = `pms-${randomUUID()}`;
    const first = await api.send<Stay>('PUT', '/reservations/by-external-id/{externalId}', { externalId }, reservation(a.id), {
      key: h.key,
      idempotencyKey: idem(),
    });
    expect(first).toMatchObject({ status: 200, body: { roomId: a.id, state: 'reserved' } });
    const later = reservation(a.id, { checkInAt: hours(30).toISOString(), expectedCheckOutAt: hours(54).toISOString() });
    const moved = await api.send<Stay>('PUT', '/reservations/by-external-id/{externalId}', { externalId }, later, { key: h.key, idempotencyKey: idem() });
    expect(moved).toMatchObject({ status: 200, body: { id: first.body.id, checkInAt: later.checkInAt, expectedCheckOutAt: later.expectedCheckOutAt } });
    // To another room, then again: the reservation is followed to the stay that carries it on.
    const toB = reservation(b.id, { checkInAt: hours(30).toISOString(), expectedCheckOutAt: hours(54).toISOString() });
    const inB = await api.send<Stay>('PUT', '/reservations/by-external-id/{externalId}', { externalId }, toB, { key: h.key, idempotencyKey: idem() });
    expect(inB.body).toMatchObject({ roomId: b.id });
    const again = await api.send<Stay>('PUT', '/reservations/by-external-id/{externalId}', { externalId }, toB, { key: h.key, idempotencyKey: idem() });
    expect(again.body).toMatchObject({ id: inB.body.id, roomId: b.id });
    expect(await ctx.deps.prisma.stay.count({ where: { hotelId: h.hotel.id, status: 'reserved' } })).toBe(1);
  });
});

describe('walk-in check-in', () => {
  it('checks a guest in without a reservation, once per Idempotency-Key, even for two requests at once', async () => {
    const h = await hotel();
    const body = { roomId: h.rooms[1]!.id, checkInAt: new Date().toISOString(), expectedCheckOutAt: hours(24).toISOString(), guests: [{ name: 'Chen Wei' }] };
    const key = idem();
    const [a, b] = await Promise.all([
      api.post<Stay>('/stays', {}, body, { key: h.key, idempotencyKey: key }),
      api.post<Stay>('/stays', {}, body, { key: h.key, idempotencyKey: key }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body).toMatchObject({ id: b.body.id, state: 'in_house', roomId: h.rooms[1]!.id });
    expect(await ctx.deps.prisma.stay.count({ where: { hotelId: h.hotel.id } })).toBe(1);
  });
});

describe('folio', () => {
  it("reads a stay's folio and records a payment once per Idempotency-Key; another hotel's stay is not found", async () => {
    const h = await hotel();
    const other = await hotel();
    const stay = await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: h.rooms[0]!.id, checkInAt: hours(-3), expectedCheckOutAt: hours(20) });
    const before = await api.get<{ stayId: number; entries: unknown[] }>('/stays/{stayId}/folio', { stayId: stay.id }, { key: h.key });
    expect(before).toMatchObject({ status: 200, body: { stayId: stay.id } });
    const key = idem();
    const paid = await api.post<{ entry: { id: number; amount: number } }>(
      '/stays/{stayId}/payments',
      { stayId: stay.id },
      { amount: 5000, method: 'cash' },
      { key: h.key, idempotencyKey: key },
    );
    expect(paid).toMatchObject({ status: 201, body: { entry: { amount: 5000 } } });
    const replay = await api.post<{ entry: { id: number } }>(
      '/stays/{stayId}/payments',
      { stayId: stay.id },
      { amount: 5000, method: 'cash' },
      { key: h.key, idempotencyKey: key },
    );
    expect(replay.body.entry.id).toBe(paid.body.entry.id);
    const after = await api.get<{ entries: { id: number }[] }>('/stays/{stayId}/folio', { stayId: stay.id }, { key: h.key });
    expect(after.body.entries.filter((e) => e.id === paid.body.entry.id)).toHaveLength(1);
    expect((await api.get<Problem>('/stays/{stayId}/folio', { stayId: stay.id }, { key: other.key })).status).toBe(404);
    const theirs = await api.post<Problem>(
      '/stays/{stayId}/payments',
      { stayId: stay.id },
      { amount: 100, method: 'cash' },
      { key: other.key, idempotencyKey: idem() },
    );
    expect(theirs).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });
});

describe('locks', () => {
  it("lists the hotel's locks and a room's lock with its state; a key without room.manage cannot list them", async () => {
    const h = await hotel([...ALL, 'room.manage']);
    const other = await hotel(['room.read']);
    await insertKeptLock(ctx.deps, h.hotel.id, h.rooms[0]!.id, String(800_000_000 + Math.floor(Math.random() * 99_999_999)));
    const locks = await api.get<Page<{ id: number }>>('/locks', {}, { key: h.key });
    expect(locks.body).toMatchObject({ items: [expect.objectContaining({ id: expect.any(Number) })], nextCursor: null });
    const lock = await api.get<Record<string, unknown>>('/rooms/{roomId}/lock', { roomId: h.rooms[0]!.id }, { key: h.key });
    expect(lock.status).toBe(200);
    expect((await api.get<Problem>('/rooms/{roomId}/lock', { roomId: h.rooms[0]!.id }, { key: other.key })).status).toBe(404);
    expect((await api.get<Problem>('/locks', {}, { key: other.key })).body.code).toBe('FORBIDDEN');
  });

  it("reads one lock by its id with its state and room; another hotel's lock is a 404 problem, a key without room.manage a 403", async () => {
    const h = await hotel([...ALL, 'room.manage']);
    const theirs = await hotel([...ALL, 'room.manage']);
    const reader = await makeKey(h.ownerToken, ['room.read']);
    const lockId = await insertKeptLock(ctx.deps, h.hotel.id, h.rooms[0]!.id, String(800_000_000 + Math.floor(Math.random() * 99_999_999)));
    const seenAt = new Date(Date.now() - 60_000);
    await ctx.deps.prisma.lock.update({ where: { id: lockId }, data: { online: true, battery: 12, lastSeenAt: seenAt } });
    const got = await api.get<Record<string, unknown>>('/locks/{lockId}', { lockId }, { key: h.key });
    expect(got).toMatchObject({
      status: 200,
      body: { id: lockId, online: true, battery: 12, lowBattery: true, lastSeenAt: seenAt.toISOString(), room: { id: h.rooms[0]!.id, name: h.rooms[0]!.name } },
    });
    // The same lock as the list shows it.
    const listed = await api.get<Page<Record<string, unknown>>>('/locks', {}, { key: h.key });
    const { lowBattery: _l, lastSeenAt: _s, statusCheckedAt: _c, statusError: _e, ...asListed } = got.body;
    expect(listed.body.items).toEqual([asListed]);
    const theirLock = await api.get<Problem>('/locks/{lockId}', { lockId }, { key: theirs.key });
    expect(theirLock).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(theirLock.text).not.toContain(h.rooms[0]!.name);
    expect((await api.get<Problem>('/locks/{lockId}', { lockId: 2_000_000_000 }, { key: h.key })).status).toBe(404);
    expect((await api.get<Problem>('/locks/{lockId}', { lockId }, { key: reader })).body.code).toBe('FORBIDDEN');
  });
});

describe('unlock records', () => {
  it("lists the hotel's records newest first by cursor, only its own", async () => {
    const h = await hotel(['room.read']);
    const other = await hotel(['room.read']);
    const at = (m: number) => new Date(Date.now() - m * 60_000);
    await ctx.deps.prisma.unlockRecord.createMany({
      data: [1, 2, 3].map((m) => ({ hotelId: h.hotel.id, roomId: h.rooms[0]!.id, occurredAt: at(m), style: 'password' as const, operator: `Guest ${m}` })),
    });
    await ctx.deps.prisma.unlockRecord.create({
      data: { hotelId: other.hotel.id, roomId: other.rooms[0]!.id, occurredAt: at(0), style: 'card', operator: 'Theirs' },
    });
    const first = await api.get<Page<{ operator: string }>>('/unlock-records', {}, { key: h.key, query: { limit: 2 } });
    const second = await api.get<Page<{ operator: string }>>('/unlock-records', {}, { key: h.key, query: { limit: 2, cursor: first.body.nextCursor! } });
    expect([...first.body.items, ...second.body.items].map((r) => r.operator)).toEqual(['Guest 1', 'Guest 2', 'Guest 3']);
    expect(second.body.nextCursor).toBeNull();
    const theirRoom = await api.get<Problem>('/unlock-records', {}, { key: h.key, query: { roomId: other.rooms[0]!.id } });
    expect(theirRoom.status).toBe(404);
  });
});

/** A face of the hotel's face database, as the face page's upload leaves it. */
async function insertFace(hotelId: number, faceId = `F${randomUUID().slice(0, 8)}`) {
  return ctx.deps.prisma.face.create({
    data: { hotelId, faceId, note: 'front desk', imageUrl: `/uploads/${hotelId}/${randomUUID()}.jpg`, imageSha256: 'a'.repeat(64) },
  });
}

describe('the hotel and its guests', () => {
  it("answers the key's own hotel, whatever its scopes", async () => {
    const h = await hotel(['order.manage']);
    const other = await hotel(['room.read']);
    const mine = await api.get<{ id: number; name: string; timeZone: string; currency: string }>('/hotel', {}, { key: h.key });
    expect(mine).toMatchObject({ status: 200, body: { id: h.hotel.id, timeZone: expect.any(String), currency: expect.any(String) } });
    expect((await api.get<{ id: number }>('/hotel', {}, { key: other.key })).body.id).toBe(other.hotel.id);
  });

  it("lists and searches the guests of the hotel's stays by cursor, one guest with their stay; another hotel's guest is not found", async () => {
    const h = await hotel();
    const other = await hotel();
    const made: number[] = [];
    for (const [i, name] of ['Ana Souza', 'Ana Lima', 'Bruno Costa'].entries()) {
      const res = await api.post<Stay>('/reservations', {}, reservation(h.rooms[i]!.id, { guests: [{ name }], checkInAt: hours(2 + i).toISOString() }), {
        key: h.key,
        idempotencyKey: idem(),
      });
      made.push(res.body.id);
    }
    // Bruno's reservation is cancelled: not a current guest any more.
    await api.post('/stays/{stayId}/cancel', { stayId: made[2]! }, { reason: 'guest_request' }, { key: h.key, idempotencyKey: idem() });
    await api.post('/reservations', {}, reservation(other.rooms[0]!.id, { guests: [{ name: 'Ana Theirs' }] }), { key: other.key, idempotencyKey: idem() });
    type Guest = { id: number; name: string; stayId: number; roomId: number; state: string };
    const first = await api.get<Page<Guest>>('/guests', {}, { key: h.key, query: { search: 'Ana', limit: 1 } });
    expect(first.body.items).toHaveLength(1);
    const second = await api.get<Page<Guest>>('/guests', {}, { key: h.key, query: { search: 'Ana', limit: 1, cursor: first.body.nextCursor! } });
    expect(second.body.nextCursor).toBeNull();
    // Newest check-in first, only the key's hotel.
    expect([...first.body.items, ...second.body.items].map((g) => g.name)).toEqual(['Ana Lima', 'Ana Souza']);
    const current = await api.get<Page<Guest>>('/guests', {}, { key: h.key, query: { currentOnly: 'true' } });
    expect(current.body.items.map((g) => g.name).sort()).toEqual(['Ana Lima', 'Ana Souza']);
    const everyone = await api.get<Page<Guest>>('/guests', {}, { key: h.key });
    expect(everyone.body.items.map((g) => g.name).sort()).toEqual(['Ana Lima', 'Ana Souza', 'Bruno Costa']);
    const one = await api.get<{ guest: { id: number; name: string }; stay: { id: number } }>(
      '/guests/{guestId}',
      { guestId: first.body.items[0]!.id },
      { key: h.key },
    );
    expect(one).toMatchObject({ status: 200, body: { guest: { name: 'Ana Lima' }, stay: { id: first.body.items[0]!.stayId } } });
    expect((await api.get<Problem>('/guests/{guestId}', { guestId: first.body.items[0]!.id }, { key: other.key })).body.code).toBe('NOT_FOUND');
    const badFlag = await api.get<Problem>('/guests', {}, { key: h.key, query: { currentOnly: 'yes' } });
    expect(badFlag).toMatchObject({ status: 400, body: { code: 'VALIDATION', fields: { currentOnly: expect.any(String) } } });
  });
});

describe('cards and faces of a stay', () => {
  interface Keys {
    cards: { id: number; state: string; cardNumber: string }[];
    faces: { id: number; deliveryState: string }[];
  }
  it('sends a card to the stay and withdraws it, once per Idempotency-Key; the stay lists it with its state', async () => {
    const h = await hotel();
    const other = await hotel();
    const stay = await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: h.rooms[0]!.id, checkInAt: hours(-3), expectedCheckOutAt: hours(20) });
    const cardNumber = String(1_000_000 + Math.floor(Math.random() * 8_000_000));
    const key = idem();
    const [a, b] = await Promise.all([
      api.post<{ id: number; state: string; stayId: number }>(
        '/stays/{stayId}/cards',
        { stayId: stay.id },
        { cardNumber },
        { key: h.key, idempotencyKey: key },
      ),
      api.post<{ id: number; state: string; stayId: number }>(
        '/stays/{stayId}/cards',
        { stayId: stay.id },
        { cardNumber },
        { key: h.key, idempotencyKey: key },
      ),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body).toMatchObject({ id: b.body.id, state: 'issued', stayId: stay.id });
    expect(await ctx.deps.prisma.cardIssue.count({ where: { hotelId: h.hotel.id } })).toBe(1);
    const keys = await api.get<Keys>('/stays/{stayId}/credentials', { stayId: stay.id }, { key: h.key });
    expect(keys.body.cards).toEqual([expect.objectContaining({ id: a.body.id, state: 'issued', cardNumber })]);
    // The same card to another stay while it is issued is a conflict; another hotel's key finds nothing.
    const second = await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: h.rooms[1]!.id, checkInAt: hours(-3), expectedCheckOutAt: hours(20) });
    const inUse = await api.post<Problem>('/stays/{stayId}/cards', { stayId: second.id }, { cardNumber }, { key: h.key, idempotencyKey: idem() });
    expect(inUse).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    expect((await api.post<Problem>('/cards/{cardId}/withdraw', { cardId: a.body.id }, undefined, { key: other.key, idempotencyKey: idem() })).status).toBe(
      404,
    );
    const withdrawn = await api.post<{ id: number; state: string }>('/cards/{cardId}/withdraw', { cardId: a.body.id }, undefined, {
      key: h.key,
      idempotencyKey: idem(),
    });
    expect(withdrawn).toMatchObject({ status: 200, body: { id: a.body.id, state: 'ended' } });
    const again = await api.post<Problem>('/cards/{cardId}/withdraw', { cardId: a.body.id }, undefined, { key: h.key, idempotencyKey: idem() });
    expect(again).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    const bad = await api.post<Problem>('/stays/{stayId}/cards', { stayId: stay.id }, { cardNumber: '12ab' }, { key: h.key, idempotencyKey: idem() });
    expect(bad).toMatchObject({ status: 400, body: { code: 'VALIDATION', fields: { cardNumber: expect.any(String) } } });
  });

  it("lists the face database, authorises a face on the stay's lock and withdraws it; another hotel's face is not found", async () => {
    const h = await hotel();
    const other = await hotel();
    const face = await insertFace(h.hotel.id);
    const theirFace = await insertFace(other.hotel.id);
    const faces = await api.get<Page<{ id: number; faceId: string }>>('/faces', {}, { key: h.key, query: { search: face.faceId } });
    expect(faces.body).toEqual({ items: [expect.objectContaining({ id: face.id, faceId: face.faceId })], nextCursor: null });
    const stay = await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: h.rooms[0]!.id, checkInAt: hours(-3), expectedCheckOutAt: hours(20) });
    const theirs = await api.post<Problem>('/stays/{stayId}/faces', { stayId: stay.id }, { faceId: theirFace.id }, { key: h.key, idempotencyKey: idem() });
    expect(theirs).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    const made = await api.post<{ id: number; deliveryState: string; stayId: number; validUntil: string }>(
      '/stays/{stayId}/faces',
      { stayId: stay.id },
      { faceId: face.id },
      { key: h.key, idempotencyKey: idem() },
    );
    expect(made).toMatchObject({ status: 201, body: { stayId: stay.id } });
    // Never beyond the stay's check-out (minute precision, as the lock keeps it).
    expect(new Date(made.body.validUntil).getTime()).toBeLessThanOrEqual(stay.expectedCheckOutAt.getTime());
    const twice = await api.post<Problem>('/stays/{stayId}/faces', { stayId: stay.id }, { faceId: face.id }, { key: h.key, idempotencyKey: idem() });
    expect(twice).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    const keys = await api.get<Keys>('/stays/{stayId}/credentials', { stayId: stay.id }, { key: h.key });
    expect(keys.body.faces).toEqual([expect.objectContaining({ id: made.body.id })]);
    const withdrawn = await api.post<{ id: number; revokeReason: string | null }>(
      '/face-authorizations/{authorizationId}/withdraw',
      { authorizationId: made.body.id },
      undefined,
      { key: h.key, idempotencyKey: idem() },
    );
    expect(withdrawn).toMatchObject({ status: 200, body: { id: made.body.id, revokeReason: 'manual' } });
    expect(await ctx.deps.prisma.faceAuthorization.findUniqueOrThrow({ where: { id: made.body.id } })).toMatchObject({ revokeReason: 'manual' });
  });
});

describe('bad input', () => {
  it('answers 400 problems naming the field: 1e308, NUL, a lone surrogate, a body that is not JSON, an unknown path', async () => {
    const h = await hotel();
    const huge = await api.post<Problem>('/reservations', {}, reservation(h.rooms[0]!.id, { depositAmount: 1e308 }), { key: h.key, idempotencyKey: idem() });
    expect(huge).toMatchObject({ status: 400, body: { code: 'VALIDATION', fields: { depositAmount: expect.any(String) } } });
    const nul = await api.post<Problem>('/reservations', {}, reservation(h.rooms[0]!.id, { remark: 'late\u0000arrival' }), {
      key: h.key,
      idempotencyKey: idem(),
    });
    expect(nul).toMatchObject({ status: 400, body: { code: 'VALIDATION', fields: { remark: expect.any(String) } } });
    const raw = JSON.stringify(reservation(h.rooms[0]!.id)).replace('Ana Souza', 'Ana \\ud800');
    const surrogate = await api.post<Problem>('/reservations', {}, undefined, { key: h.key, idempotencyKey: idem(), raw });
    expect(surrogate).toMatchObject({ status: 400, body: { code: 'VALIDATION', fields: { 'guests.0.name': expect.any(String) } } });
    const notJson = await api.post<Problem>('/reservations', {}, undefined, { key: h.key, idempotencyKey: idem(), raw: '{"roomId":' });
    expect(notJson).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
    const badId = await api.get<Problem>('/rooms/{roomId}', { roomId: '1e308' }, { key: h.key });
    expect(badId).toMatchObject({ status: 400, body: { code: 'VALIDATION', fields: { roomId: expect.any(String) } } });
    expect(await ctx.deps.prisma.stay.count({ where: { hotelId: h.hotel.id } })).toBe(0);
    const unknown = await ctx.app.inject({ method: 'GET', url: '/api/v1/nothing-here', headers: { authorization: `Bearer ${h.key}` } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'UNKNOWN_ACTION' });
  });
});

describe('rate limit', () => {
  it('answers 429 with RateLimit-* and Retry-After past the per-key limit; another key is not counted', async () => {
    const limited = await createTestContext({ locks: null, env: { API_RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      const client = await jsonApiClient(limited.app);
      const h = await createHotelWithStaff(limited.deps);
      await limited.deps.prisma.membership.updateMany({ where: { hotelId: h.hotel.id, accountId: h.owner.id }, data: { apiKeyAuth: true } });
      const keys = [];
      for (let i = 0; i < 2; i++) {
        const res = await trpcClient(limited.app).mutation('apiKey.create', { name: `k${i}`, permissions: ['room.read'] }, { token: h.ownerToken });
        keys.push((res.data as { key: string }).key);
      }
      const remaining = [];
      for (let i = 0; i < 3; i++) {
        const res = await client.get('/room-groups', {}, { key: keys[0] });
        expect(res.status).toBe(200);
        remaining.push(res.headers['ratelimit-remaining']);
      }
      expect(remaining).toEqual(['2', '1', '0']);
      const refused = await client.get<Problem>('/room-groups', {}, { key: keys[0] });
      expect(refused).toMatchObject({ status: 429, body: { code: 'TOO_MANY_ATTEMPTS', retryAfterSeconds: expect.any(Number) } });
      expect(refused.headers).toMatchObject({ 'ratelimit-limit': '3', 'ratelimit-remaining': '0', 'retry-after': expect.stringMatching(/^\d+$/) });
      expect(Number(refused.headers['ratelimit-reset'])).toBeGreaterThan(0);
      expect((await client.get('/room-groups', {}, { key: keys[1] })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('scopes of every operation', () => {
  it('refuses each operation to a key with every scope but the one the document names (403)', async () => {
    const h = await hotel();
    const stay = await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: h.rooms[0]!.id, checkInAt: hours(-3), expectedCheckOutAt: hours(20) });
    const ids = {
      roomId: h.rooms[0]!.id,
      stayId: stay.id,
      externalId: 'booking-none',
      codeId: 2_000_000_000,
      guestId: 2_000_000_000,
      cardId: 2_000_000_000,
      authorizationId: 2_000_000_000,
      lockId: 2_000_000_000,
      invoiceId: 2_000_000_000,
    };
    // A valid request of each operation (by operationId): a new operation needs one here.
    const bodies: Record<string, unknown> = {
      createReservation: reservation(h.rooms[1]!.id),
      checkInWalkIn: {
        roomId: h.rooms[2]!.id,
        checkInAt: new Date().toISOString(),
        expectedCheckOutAt: hours(24).toISOString(),
        guests: [{ name: 'Chen Wei' }],
      },
      addGuest: { name: 'Bruno Lima' },
      cancelReservation: { reason: 'guest_request' },
      checkInReservation: {},
      changeStayDates: { expectedCheckOutAt: hours(30).toISOString() },
      changeStayRoom: { targetRoomId: h.rooms[2]!.id },
      recordPayment: { amount: 100, method: 'cash' },
      issueStayCode: { kind: 'custom', code: '135790' },
      upsertReservationByExternalId: reservation(h.rooms[1]!.id),
      rescheduleReservation: { expectedCheckOutAt: hours(30).toISOString() },
      issueStayCard: { cardNumber: '24681357' },
      issueStayFace: { faceId: 2_000_000_000 },
      issueInvoice: { language: 'en', buyer: { name: 'Acme Travel Ltd' } },
      creditInvoice: { reason: 'Wrong buyer' },
    };
    const refused: string[] = [];
    // The hotel itself is every key's to read (as every member's): no scope to take away.
    const scoped = API_ROUTES.filter((r) => r.permission);
    expect(API_ROUTES.filter((r) => !r.permission).map((r) => r.operationId)).toEqual(['getHotel']);
    for (const route of scoped) {
      if (route.body) expect(bodies[route.operationId], `an example body of ${route.operationId}`).toBeDefined();
      const key = await makeKey(
        h.ownerToken,
        API_KEY_PERMISSIONS.filter((p) => p !== route.permission),
      );
      const options = { key, ...(route.write ? { idempotencyKey: idem() } : {}) };
      const res =
        route.method === 'GET'
          ? await api.get<Problem>(route.path, ids, options)
          : await api.send<Problem>(route.method, route.path, ids, bodies[route.operationId], options);
      if (res.status === 403 && res.body.code === 'FORBIDDEN') refused.push(route.operationId);
    }
    expect(refused).toEqual(scoped.map((r) => r.operationId));
    expect(await ctx.deps.prisma.stay.count({ where: { hotelId: h.hotel.id } })).toBe(1);
  });
});

describe('tenancy of every operation', () => {
  it('answers 404 to every id of another hotel, in the path, the query or the body, and changes nothing there', async () => {
    const h = await hotel([...ALL, 'room.manage']);
    const theirs = await hotel();
    const stay = await insertStay(ctx.deps, { hotelId: theirs.hotel.id, roomId: theirs.rooms[0]!.id, checkInAt: hours(-3), expectedCheckOutAt: hours(20) });
    const externalId = `their-${randomUUID()}`;
    await ctx.deps.prisma.stay.update({ where: { id: stay.id }, data: { idempotencyKey: externalId } });
    const code = await api.post<{ id: number }>(
      '/stays/{stayId}/codes',
      { stayId: stay.id },
      { kind: 'custom', code: '246801' },
      { key: theirs.key, idempotencyKey: idem() },
    );
    expect(code.status).toBe(201);
    const card = await api.post<{ id: number }>(
      '/stays/{stayId}/cards',
      { stayId: stay.id },
      { cardNumber: '97531' },
      { key: theirs.key, idempotencyKey: idem() },
    );
    expect(card.status).toBe(201);
    const face = await insertFace(theirs.hotel.id);
    const faceAuth = await api.post<{ id: number }>(
      '/stays/{stayId}/faces',
      { stayId: stay.id },
      { faceId: face.id },
      { key: theirs.key, idempotencyKey: idem() },
    );
    expect(faceAuth.status).toBe(201);
    const guest = await ctx.deps.prisma.stayGuest.findFirstOrThrow({ where: { stayId: stay.id } });
    const lockId = await insertKeptLock(ctx.deps, theirs.hotel.id, theirs.rooms[1]!.id, String(700_000_000 + Math.floor(Math.random() * 99_999_999)));
    const invoiced = await invoicedStay(theirs, 2);
    const ids = {
      lockId,
      invoiceId: invoiced.invoiceId,
      roomId: theirs.rooms[0]!.id,
      stayId: stay.id,
      externalId,
      codeId: code.body.id,
      guestId: guest.id,
      cardId: card.body.id,
      authorizationId: faceAuth.body.id,
    };
    const mine = await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: h.rooms[0]!.id, checkInAt: hours(-3), expectedCheckOutAt: hours(20) });
    const bodies: Record<string, unknown> = {
      createReservation: reservation(theirs.rooms[1]!.id),
      checkInWalkIn: {
        roomId: theirs.rooms[2]!.id,
        checkInAt: new Date().toISOString(),
        expectedCheckOutAt: hours(24).toISOString(),
        guests: [{ name: 'Chen Wei' }],
      },
      addGuest: { name: 'Bruno Lima' },
      cancelReservation: { reason: 'guest_request' },
      checkInReservation: {},
      changeStayDates: { expectedCheckOutAt: hours(30).toISOString() },
      changeStayRoom: { targetRoomId: theirs.rooms[2]!.id },
      recordPayment: { amount: 100, method: 'cash' },
      issueStayCode: { kind: 'custom', code: '135792' },
      upsertReservationByExternalId: reservation(theirs.rooms[1]!.id),
      rescheduleReservation: { expectedCheckOutAt: hours(30).toISOString() },
      issueStayCard: { cardNumber: '97532' },
      issueStayFace: { faceId: face.id },
      issueInvoice: { language: 'en', buyer: { name: 'Acme Travel Ltd' } },
      creditInvoice: { reason: 'Wrong buyer' },
    };
    const queries: Record<string, Record<string, number>> = { listStays: { roomId: ids.roomId }, listUnlockRecords: { roomId: ids.roomId } };
    const found: string[] = [];
    for (const route of API_ROUTES) {
      const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      if (!names.length && !route.body && !queries[route.operationId]) continue;
      // An id of theirs in the path; else in the body (with my own stay in the path where it takes one).
      const params = { ...ids, ...(route.operationId === 'changeStayRoom' ? { stayId: mine.id } : {}) };
      const options = { key: h.key, query: queries[route.operationId], ...(route.write ? { idempotencyKey: idem() } : {}) };
      const res =
        route.method === 'GET'
          ? await api.get<Problem>(route.path, params, options)
          : await api.send<Problem>(route.method, route.path, params, bodies[route.operationId], options);
      if (res.status !== 404 || res.body.code !== 'NOT_FOUND') found.push(`${route.operationId}: ${res.status}`);
    }
    expect(found).toEqual([]);
    // Their two stays only (the one in house, the one invoiced), and their invoice standing, not credited.
    expect(await ctx.deps.prisma.stay.count({ where: { hotelId: theirs.hotel.id } })).toBe(2);
    expect(await ctx.deps.prisma.invoice.count({ where: { hotelId: theirs.hotel.id } })).toBe(1);
    expect((await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: stay.id } })).status).toBe('in_house');
    expect(await ctx.deps.prisma.stayGuest.count({ where: { stayId: stay.id } })).toBe(1);
    expect((await ctx.deps.prisma.lockPassword.findMany({ where: { stayId: stay.id } })).map((p) => p.code)).toEqual(['246801']);
    expect(await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: ids.codeId } })).toMatchObject({ removedAt: null, revokeReason: null });
    expect(await ctx.deps.prisma.cardIssue.findUniqueOrThrow({ where: { id: ids.cardId } })).toMatchObject({ state: 'issued' });
    expect(await ctx.deps.prisma.faceAuthorization.findUniqueOrThrow({ where: { id: ids.authorizationId } })).toMatchObject({ revokeReason: null });
    expect(await ctx.deps.prisma.cardIssue.count({ where: { stayId: stay.id } })).toBe(1);
    // Their own key withdraws it.
    const withdrawn = await api.post<{ id: number }>('/codes/{codeId}/withdraw', { codeId: ids.codeId }, undefined, {
      key: theirs.key,
      idempotencyKey: idem(),
    });
    expect(withdrawn).toMatchObject({ status: 200, body: { id: ids.codeId } });
  });
});

describe('invoices', () => {
  it("issues the invoice of a final bill once per Idempotency-Key, lists and reads it, cancels it by a credit note; another hotel's are not found", async () => {
    const h = await hotel();
    const other = await hotel();
    const stay = await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: h.rooms[1]!.id, checkInAt: hours(-3), expectedCheckOutAt: hours(20) });
    const buyer = { name: 'Acme Travel Ltd', taxId: '91310000MA1FL0001X' };
    // Not final yet: refused, nothing issued.
    const early = await api.post<Problem>('/stays/{stayId}/invoices', { stayId: stay.id }, { language: 'en', buyer }, { key: h.key, idempotencyKey: idem() });
    expect(early).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    const charged = await trpc.mutation('order.recordCharge', { stayId: stay.id, amount: 12_000, note: 'Room', requestId: idem() }, { token: h.ownerToken });
    expect(charged.error).toBeUndefined();
    const settled = await trpc.mutation(
      'order.settle',
      { stayId: stay.id, checkOut: true, payment: { amount: 12_000, method: 'cash' } },
      { token: h.ownerToken },
    );
    expect(settled.error).toBeUndefined();

    const key = idem();
    const issued = await api.post<{ id: number; number: number; kind: string; total: number }>(
      '/stays/{stayId}/invoices',
      { stayId: stay.id },
      { language: 'en', buyer },
      { key: h.key, idempotencyKey: key },
    );
    expect(issued).toMatchObject({ status: 201, body: { number: 1, kind: 'invoice', total: 12_000 } });
    const again = await api.post<{ id: number }>(
      '/stays/{stayId}/invoices',
      { stayId: stay.id },
      { language: 'en', buyer },
      { key: h.key, idempotencyKey: key },
    );
    expect(again.body.id).toBe(issued.body.id);
    const listed = await api.get<{ items: { id: number }[] }>('/stays/{stayId}/invoices', { stayId: stay.id }, { key: h.key });
    expect(listed.body.items.map((i) => i.id)).toEqual([issued.body.id]);
    expect(await api.get('/invoices/{invoiceId}', { invoiceId: issued.body.id }, { key: h.key })).toMatchObject({ status: 200, body: { id: issued.body.id } });
    // The document as a PDF, named by its number; another hotel's key does not find it.
    const pdf = await api.get<Buffer>('/invoices/{invoiceId}/pdf', { invoiceId: issued.body.id }, { key: h.key });
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-disposition']).toContain('Invoice-000001.pdf');
    expect(pdf.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect((await api.get<Problem>('/invoices/{invoiceId}/pdf', { invoiceId: issued.body.id }, { key: other.key })).status).toBe(404);
    const credit = await api.post<{ kind: string; number: number; credits: number }>(
      '/invoices/{invoiceId}/credit-note',
      { invoiceId: issued.body.id },
      { reason: 'Wrong buyer' },
      { key: h.key, idempotencyKey: idem() },
    );
    expect(credit).toMatchObject({ status: 201, body: { kind: 'credit_note', number: 2 } });
    // Another hotel's key: its ids are not found, and nothing of this hotel is issued.
    expect((await api.get<Problem>('/invoices/{invoiceId}', { invoiceId: issued.body.id }, { key: other.key })).status).toBe(404);
    const theirs = await api.post<Problem>(
      '/invoices/{invoiceId}/credit-note',
      { invoiceId: issued.body.id },
      { reason: 'x' },
      { key: other.key, idempotencyKey: idem() },
    );
    expect(theirs.status).toBe(404);
    expect((await api.get<{ items: unknown[] }>('/stays/{stayId}/invoices', { stayId: stay.id }, { key: other.key })).status).toBe(404);
  });
});

describe('contract', () => {
  it('saw every documented operation answer a success that matches the document', () => {
    const operations = Object.entries(api.document.paths)
      .filter(([path]) => !path.startsWith('/api/v1/webhooks'))
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/^\/api\/v1/, '')}`));
    const succeeded = new Set([...api.covered].filter((c) => / 2\d\d$/.test(c)).map((c) => c.replace(/ \d+$/, '')));
    expect(operations.filter((o) => !succeeded.has(o))).toEqual([]);
  });
});
