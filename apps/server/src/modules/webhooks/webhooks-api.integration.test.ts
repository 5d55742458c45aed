import { randomUUID } from 'node:crypto';
import { API_KEY_PERMISSIONS, type TPermission } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_API_ROUTES } from '../../http/api/webhook-routes';
import { createHotelWithStaff } from '../../test/factories';
import { createTestContext, type TestContext } from '../../test/harness';
import { jsonApiClient } from '../../test/json-api-client';
import { trpcClient } from '../../test/trpc-client';

/**
 * The webhooks' operations of the JSON API (`/api/v1/webhooks`, docs/webhooks.md), held to the
 * OpenAPI document as api.integration.test.ts holds the others: each refused to a key without its
 * scope, and each seen answering a success that matches the document.
 */
let ctx: TestContext;
let api: Awaited<ReturnType<typeof jsonApiClient>>;

beforeAll(async () => {
  ctx = await createTestContext();
  api = await jsonApiClient(ctx.app);
});
afterAll(async () => {
  await ctx?.close();
});

const idem = () => randomUUID();

async function keyOf(permissions: readonly TPermission[]) {
  const h = await createHotelWithStaff(ctx.deps);
  await ctx.deps.prisma.membership.updateMany({ where: { hotelId: h.hotel.id, accountId: h.owner.id }, data: { apiKeyAuth: true } });
  const made = await trpcClient(ctx.app).mutation(
    'apiKey.create',
    { name: `Key ${randomUUID().slice(0, 6)}`, permissions: [...permissions] },
    { token: h.ownerToken },
  );
  return { h, key: (made.data as { key: string }).key };
}

describe('scopes', () => {
  it('refuses each operation to a key with every scope but the one the document names (403)', async () => {
    const bodies: Record<string, unknown> = {
      createWebhook: { url: 'https://pms.example.com/hooks', events: ['payment.recorded'] },
      updateWebhook: { description: 'PMS' },
    };
    const refused: string[] = [];
    for (const route of WEBHOOK_API_ROUTES) {
      if (route.body) expect(bodies[route.operationId], `an example body of ${route.operationId}`).toBeDefined();
      const { key } = await keyOf(API_KEY_PERMISSIONS.filter((p) => p !== route.permission));
      const options = { key, ...(route.write ? { idempotencyKey: idem() } : {}) };
      const params = { webhookId: 1, deliveryId: '1' };
      const res =
        route.method === 'GET'
          ? await api.get<{ code: string }>(route.path, params, options)
          : await api.post<{ code: string }>(route.path, params, bodies[route.operationId], options);
      if (res.status === 403 && res.body.code === 'FORBIDDEN') refused.push(route.operationId);
    }
    expect(refused).toEqual(WEBHOOK_API_ROUTES.map((r) => r.operationId));
  });
});

describe('every operation', () => {
  it('creates, lists, changes, rotates, sends a test, reads the log, sends again and deletes', async () => {
    const { key } = await keyOf(['hotel.manage']);
    const created = await api.post<{ id: number; secret: string }>(
      '/webhooks',
      {},
      { url: 'https://pms.example.com/hooks', events: ['reservation.created', 'door.opened'], description: 'PMS' },
      { key, idempotencyKey: idem() },
    );
    expect(created.status).toBe(201);
    const webhookId = created.body.id;
    expect((await api.get<{ items: { id: number }[] }>('/webhooks', {}, { key })).body.items.map((w) => w.id)).toEqual([webhookId]);
    const updated = await api.post<{ enabled: boolean; events: string[] }>(
      '/webhooks/{webhookId}',
      { webhookId },
      { enabled: false, events: ['lock.offline'] },
      { key, idempotencyKey: idem() },
    );
    expect(updated).toMatchObject({ status: 200, body: { enabled: false, events: ['lock.offline'], disabledReason: 'manual' } });
    const rotated = await api.post<{ secret: string }>('/webhooks/{webhookId}/rotate-secret', { webhookId }, undefined, { key, idempotencyKey: idem() });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    const test = await api.post<{ deliveryId: string }>('/webhooks/{webhookId}/test', { webhookId }, undefined, { key, idempotencyKey: idem() });
    expect(test.status).toBe(200);
    const log = await api.get<{ items: { id: string; kind: string }[] }>('/webhooks/{webhookId}/deliveries', { webhookId }, { key });
    expect(log.body.items.map((d) => [d.id, d.kind])).toEqual([[test.body.deliveryId, 'webhook.test']]);
    const again = await api.post('/webhooks/{webhookId}/deliveries/{deliveryId}/resend', { webhookId, deliveryId: test.body.deliveryId }, undefined, {
      key,
      idempotencyKey: idem(),
    });
    expect(again.status).toBe(200);
    const deleted = await api.post('/webhooks/{webhookId}/delete', { webhookId }, undefined, { key, idempotencyKey: idem() });
    expect(deleted).toMatchObject({ status: 200, body: { deleted: true } });
    expect((await api.get<{ items: unknown[] }>('/webhooks', {}, { key })).body.items).toEqual([]);
  });

  it('answers problems naming the field for a bad address, an unknown event, NUL and 1e308', async () => {
    const { key } = await keyOf(['hotel.manage']);
    const bad = async (body: unknown) =>
      (await api.post<{ code: string; errors?: Record<string, string> }>('/webhooks', {}, body, { key, idempotencyKey: idem() })).body;
    expect(await bad({ url: 'ftp://pms.example.com/', events: ['payment.recorded'] })).toMatchObject({ code: 'VALIDATION' });
    expect(await bad({ url: 'https://pms.example.com/', events: ['payment.made'] })).toMatchObject({ code: 'VALIDATION' });
    expect(await bad({ url: 'https://pms.example.com/\u0000', events: ['payment.recorded'] })).toMatchObject({ code: 'VALIDATION' });
    expect(await bad({ url: 'https://pms.example.com/', events: [1e308] })).toMatchObject({ code: 'VALIDATION' });
    expect(await bad({ url: 'https://pms.example.com/', events: [] })).toMatchObject({ code: 'VALIDATION' });
  });
});

describe('contract', () => {
  it('saw every webhooks operation answer a success that matches the document', () => {
    const operations = Object.entries(api.document.paths)
      .filter(([path]) => path.startsWith('/api/v1/webhooks'))
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/^\/api\/v1/, '')}`));
    expect(operations).toHaveLength(WEBHOOK_API_ROUTES.length);
    const succeeded = new Set([...api.covered].filter((c) => / 2\d\d$/.test(c)).map((c) => c.replace(/ \d+$/, '')));
    expect(operations.filter((o) => !succeeded.has(o))).toEqual([]);
  });
});
