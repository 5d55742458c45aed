import { randomUUID } from 'node:crypto';
import { API_KEY_PERMISSIONS } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHotelWithStaff, createRooms, hours, insertStay } from '../../test/factories';
import { createTestContext, type TestContext } from '../../test/harness';
import { jsonApiClient } from '../../test/json-api-client';
import { trpcClient } from '../../test/trpc-client';
import { API_ROUTES } from './routes';

/**
 * What the JSON API reads of a body (issue 39 §1, §2), sent as bytes: a field holding bytes that
 * are not UTF-8 (an older property system's Latin-1) is refused naming it, on every route that
 * takes text, and nothing is stored; a body of a type the document does not declare is a 415 and
 * nothing is done; an empty body with `Content-Type: application/json` is no body, on every write
 * that takes none. Every answer is held to the OpenAPI document (test/json-api-client.ts).
 */
let ctx: TestContext;
let api: Awaited<ReturnType<typeof jsonApiClient>>;

beforeAll(async () => {
  ctx = await createTestContext({ locks: null });
  api = await jsonApiClient(ctx.app);
});
afterAll(async () => {
  await ctx?.close();
});

interface Problem {
  status: number;
  code: string;
  errno: number;
  detail: string;
  fields?: Record<string, string>;
}

const idem = () => randomUUID();
/** The body as an older system sends it: JSON whose text is Latin-1 (`é` as the one byte 0xE9). */
const latin1 = (body: unknown) => Buffer.from(JSON.stringify(body), 'latin1');

/** A hotel with rooms, a stay in the house and a key with every scope. */
async function hotel() {
  const h = await createHotelWithStaff(ctx.deps);
  await ctx.deps.prisma.membership.updateMany({ where: { hotelId: h.hotel.id, accountId: h.owner.id }, data: { apiKeyAuth: true } });
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, [`B${randomUUID().slice(0, 5)}-1`, `B${randomUUID().slice(0, 5)}-2`]);
  const made = await trpcClient(ctx.app).mutation('apiKey.create', { name: 'PMS', permissions: [...API_KEY_PERMISSIONS] }, { token: h.ownerToken });
  expect(made.status).toBe(200);
  const key = (made.data as { key: string }).key;
  const stay = await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: rooms[0]!.id, checkInAt: hours(-3), expectedCheckOutAt: hours(20) });
  return { ...h, rooms, key, stay };
}

const reservation = (roomId: number, name: string) => ({
  roomId,
  checkInAt: hours(30).toISOString(),
  expectedCheckOutAt: hours(54).toISOString(),
  guests: [{ name, mobile: '13800138000' }],
});

describe('bytes that are not UTF-8', () => {
  it('are refused with 400 naming the field, on every route that takes text, in the language asked, and nothing is stored', async () => {
    const h = await hotel();
    const webhook = await api.post<{ id: number }>(
      '/webhooks',
      {},
      { url: 'https://pms.example.com/hooks', events: ['payment.recorded'], description: 'PMS' },
      { key: h.key, idempotencyKey: idem() },
    );
    expect(webhook.status).toBe(201);
    const externalId = `booking-${randomUUID()}`;
    const cases = [
      { method: 'POST', path: '/reservations', params: {}, body: reservation(h.rooms[1]!.id, 'José'), field: 'guests.0.name' },
      {
        method: 'PUT',
        path: '/reservations/by-external-id/{externalId}',
        params: { externalId },
        body: reservation(h.rooms[1]!.id, 'José'),
        field: 'guests.0.name',
      },
      { method: 'POST', path: '/stays/{stayId}/guests', params: { stayId: h.stay.id }, body: { name: 'José' }, field: 'name' },
      { method: 'POST', path: '/stays/{stayId}/payments', params: { stayId: h.stay.id }, body: { amount: 5000, method: 'cash', note: 'Café' }, field: 'note' },
      {
        method: 'POST',
        path: '/webhooks',
        params: {},
        body: { url: 'https://pms.example.com/other', events: ['payment.recorded'], description: 'Réception' },
        field: 'description',
      },
      { method: 'POST', path: '/webhooks/{webhookId}', params: { webhookId: webhook.body.id }, body: { description: 'Réception' }, field: 'description' },
    ] as const;
    for (const c of cases) {
      const res = await api.send<Problem>(c.method, c.path, c.params, undefined, { key: h.key, idempotencyKey: idem(), raw: latin1(c.body) });
      expect(res, `${c.method} ${c.path}`).toMatchObject({
        status: 400,
        body: { code: 'VALIDATION', errno: 100001, fields: { [c.field]: expect.any(String) } },
      });
      expect(res.body.detail).toContain(`"${c.field}"`);
      expect(res.body.detail).toContain('UTF-8');
      expect(res.body.fields![c.field]).toMatch(/UTF-8/);
    }
    // In the request's language, as every problem.
    const german = await api.post<Problem>('/stays/{stayId}/guests', { stayId: h.stay.id }, undefined, {
      key: h.key,
      idempotencyKey: idem(),
      raw: latin1({ name: 'José' }),
      language: 'de',
    });
    expect(german.body.detail).toMatch(/^Das Feld „name“ enthält Bytes, die kein UTF-8 sind/);
    // Nothing was stored: no reservation, guest, payment or endpoint, the endpoint unchanged.
    expect(await ctx.deps.prisma.stay.count({ where: { hotelId: h.hotel.id } })).toBe(1);
    expect(await ctx.deps.prisma.stayGuest.count({ where: { stayId: h.stay.id } })).toBe(1);
    expect(await ctx.deps.prisma.orderEntry.count({ where: { stayId: h.stay.id } })).toBe(0);
    const webhooks = await api.get<{ items: { id: number; description: string }[] }>('/webhooks', {}, { key: h.key });
    expect(webhooks.body.items).toEqual([expect.objectContaining({ id: webhook.body.id, description: 'PMS' })]);
  });

  it('in UTF-8 are text like any other, U+FFFD sent as UTF-8 included', async () => {
    const h = await hotel();
    const added = await api.post<{ guests: { name: string }[] }>('/stays/{stayId}/guests', { stayId: h.stay.id }, undefined, {
      key: h.key,
      idempotencyKey: idem(),
      raw: Buffer.from(JSON.stringify({ name: 'José \uFFFD 李' }), 'utf8'),
    });
    expect(added.status).toBe(201);
    expect(added.body.guests.map((g) => g.name)).toContain('José \uFFFD 李');
  });

  it('percent-encoded in a query are refused naming the parameter', async () => {
    const h = await hotel();
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/guests?search=Jos%E9&limit=10',
      headers: { authorization: `Bearer ${h.key}`, 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION', fields: { search: expect.stringContaining('UTF-8') }, detail: expect.stringContaining('"search"') });
  });
});

describe('content types', () => {
  it('answers 415 to a form-encoded payment (translated) and records nothing', async () => {
    const h = await hotel();
    const form = await api.post<Problem>('/stays/{stayId}/payments', { stayId: h.stay.id }, undefined, {
      key: h.key,
      idempotencyKey: idem(),
      raw: Buffer.from('amount=5000&method=cash'),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      language: 'fr',
    });
    expect(form).toMatchObject({ status: 415, body: { code: 'UNSUPPORTED_MEDIA_TYPE', errno: 100023 } });
    expect(form.body.detail).toBe("Cette interface n'accepte que du JSON en UTF-8 (Content-Type: application/json).");
    expect(await ctx.deps.prisma.orderEntry.count({ where: { stayId: h.stay.id } })).toBe(0);
  });

  it('answers 415 on every write that takes a body, to a form, text, or JSON said to be in another charset', async () => {
    const h = await hotel();
    const json = JSON.stringify({ amount: 5000, method: 'cash' });
    const sends = [
      { type: 'application/x-www-form-urlencoded', raw: 'amount=5000&method=cash' },
      { type: 'text/plain', raw: json },
      { type: 'application/json; charset=iso-8859-1', raw: json },
      { type: 'multipart/form-data; boundary=x', raw: '--x\r\nContent-Disposition: form-data; name="amount"\r\n\r\n5000\r\n--x--\r\n' },
    ];
    const routes = API_ROUTES.filter((r) => r.body);
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes)
      for (const send of sends) {
        const res = await api.send<Problem>(route.method, route.path, { stayId: h.stay.id, webhookId: 1, externalId: idem() }, undefined, {
          key: h.key,
          idempotencyKey: idem(),
          raw: Buffer.from(send.raw),
          headers: { 'content-type': send.type },
        });
        expect(res, `${route.method} ${route.path} as ${send.type}`).toMatchObject({ status: 415, body: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
      }
    expect(await ctx.deps.prisma.stay.count({ where: { hotelId: h.hotel.id } })).toBe(1);
    expect(await ctx.deps.prisma.orderEntry.count({ where: { stayId: h.stay.id } })).toBe(0);
    // Written `application/json; charset=utf-8`, it is read.
    const paid = await api.post('/stays/{stayId}/payments', { stayId: h.stay.id }, undefined, {
      key: h.key,
      idempotencyKey: idem(),
      raw: Buffer.from(json),
      headers: { 'content-type': 'application/json; charset=UTF-8' },
    });
    expect(paid.status).toBe(201);
  });

  it('takes an empty body sent as application/json on every write that takes none: check-out, a code withdrawn, an endpoint deleted', async () => {
    const h = await hotel();
    const empty = { key: h.key, raw: Buffer.alloc(0), headers: { 'content-type': 'application/json' } };
    const code = await api.post<{ id: number }>(
      '/stays/{stayId}/codes',
      { stayId: h.stay.id },
      { kind: 'custom', code: '135790' },
      { key: h.key, idempotencyKey: idem() },
    );
    expect(code.status).toBe(201);
    const withdrawn = await api.post<{ id: number }>('/codes/{codeId}/withdraw', { codeId: code.body.id }, undefined, { ...empty, idempotencyKey: idem() });
    expect(withdrawn).toMatchObject({ status: 200, body: { id: code.body.id } });
    const checkedOut = await api.post<{ state: string }>('/stays/{stayId}/check-out', { stayId: h.stay.id }, undefined, { ...empty, idempotencyKey: idem() });
    expect(checkedOut).toMatchObject({ status: 200, body: { state: 'checked_out' } });
    const webhook = await api.post<{ id: number }>(
      '/webhooks',
      {},
      { url: 'https://pms.example.com/hooks', events: ['payment.recorded'] },
      { key: h.key, idempotencyKey: idem() },
    );
    const deleted = await api.post('/webhooks/{webhookId}/delete', { webhookId: webhook.body.id }, undefined, { ...empty, idempotencyKey: idem() });
    expect(deleted).toMatchObject({ status: 200, body: { deleted: true } });
    // Every other write without a body reads it as none too: an id of nothing is "not found", never "not valid JSON" or 415.
    const bodiless = API_ROUTES.filter((r) => r.write && !r.body);
    expect(bodiless.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/stays/{stayId}/check-out', '/codes/{codeId}/withdraw', '/webhooks/{webhookId}/delete']),
    );
    const nothing = { stayId: 2_000_000_000, codeId: 2_000_000_000, cardId: 2_000_000_000, authorizationId: 2_000_000_000, webhookId: 2_000_000_000 };
    for (const route of bodiless) {
      const res = await api.send<Problem>(route.method, route.path, { ...nothing, guestId: 2_000_000_000, deliveryId: '1' }, undefined, {
        ...empty,
        idempotencyKey: idem(),
      });
      expect(res, `${route.method} ${route.path}`).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    }
  });
});
