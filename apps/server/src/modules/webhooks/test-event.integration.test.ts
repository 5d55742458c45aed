import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_LIMITS, WEBHOOK_TEST_LIMITS } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from '../../jobs/workers';
import { createHotelWithStaff } from '../../test/factories';
import { actorContext, createTestContext, type TestContext } from '../../test/harness';
import { jsonApiClient } from '../../test/json-api-client';
import { trpcClient } from '../../test/trpc-client';
import { createWebhook, listWebhookDeliveries } from './webhook.service';

/**
 * "Send a test event" (issue 39 §3, docs/webhooks.md): limited per endpoint and per hotel on every
 * face, refused with when to try again; a test that fails is tried a few times within seconds, not
 * for three days as a real event is.
 */

let ctx: TestContext;
let receiver: http.Server;
let receiverUrl: string;
const received: string[] = [];
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ env: { OUTBOUND_PRIVATE_ADDRESSES: 'true', WEBHOOK_FIRST_RETRY_MS: '100' } });
  // A receiver that refuses every message.
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(String(req.headers['webhook-id']));
      res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/fail`;
});
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  await ctx?.close();
});

async function apiKeyOf(h: Awaited<ReturnType<typeof createHotelWithStaff>>) {
  await ctx.deps.prisma.membership.updateMany({ where: { hotelId: h.hotel.id, accountId: h.owner.id }, data: { apiKeyAuth: true } });
  const made = await trpcClient(ctx.app).mutation(
    'apiKey.create',
    { name: `Integrator ${randomUUID().slice(0, 6)}`, permissions: ['hotel.manage'] },
    { token: h.ownerToken },
  );
  return made.data!.key;
}

describe('send a test event', () => {
  it('is limited per endpoint on tRPC and the JSON API alike, saying when to try again', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const owner = await actorContext(ctx.deps, h.ownerToken);
    const endpoint = await createWebhook(owner, { url: 'https://pms.example.com/hooks/test', events: ['payment.recorded'] });
    const trpc = trpcClient(ctx.app);
    const answers = await Promise.all(
      Array.from({ length: WEBHOOK_TEST_LIMITS.perEndpoint.points + 3 }, () =>
        trpc.mutation('webhooks.sendTest', { id: endpoint.id }, { token: h.ownerToken }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(WEBHOOK_TEST_LIMITS.perEndpoint.points);
    const refused = answers.find((a) => a.status !== 200)!;
    expect(refused.status).toBe(429);
    const seconds = refused.error!.data.app!.retryAfterSeconds!;
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(WEBHOOK_TEST_LIMITS.perEndpoint.windowSeconds);
    expect(refused.error!.data.app).toMatchObject({ code: 'TOO_MANY_ATTEMPTS', reason: 'webhooks.errors.tooManyTests' });
    expect(refused.error!.message).toBe(`Test events were sent too often. Try again in ${seconds} seconds.`);

    // The same endpoint through the JSON API: the same count, a problem with Retry-After.
    const key = await apiKeyOf(h);
    const api = await jsonApiClient(ctx.app);
    const byApi = await api.post('/webhooks/{webhookId}/test', { webhookId: endpoint.id }, undefined, { key, idempotencyKey: randomUUID(), language: 'zh-CN' });
    expect(byApi.status).toBe(429);
    expect(byApi.body).toMatchObject({ code: 'TOO_MANY_ATTEMPTS', reason: 'webhooks.errors.tooManyTests' });
    expect(Number(byApi.headers['retry-after'])).toBeGreaterThan(0);
    expect(String(byApi.body.detail)).toContain(String(byApi.body.retryAfterSeconds));
    expect(await ctx.deps.prisma.webhookDelivery.count({ where: { endpointId: endpoint.id } })).toBe(WEBHOOK_TEST_LIMITS.perEndpoint.points);
  });

  it("is limited per hotel over all its endpoints, and another hotel's tests are counted apart", async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const owner = await actorContext(ctx.deps, h.ownerToken);
    const trpc = trpcClient(ctx.app);
    const perEndpoint = WEBHOOK_TEST_LIMITS.perEndpoint.points;
    const endpoints = [];
    for (let i = 0; i <= WEBHOOK_TEST_LIMITS.perHotel.points / perEndpoint; i++)
      endpoints.push(await createWebhook(owner, { url: `https://pms.example.com/hooks/${i}`, events: ['payment.recorded'] }));
    let sent = 0;
    for (const endpoint of endpoints.slice(0, -1))
      for (let i = 0; i < perEndpoint && sent < WEBHOOK_TEST_LIMITS.perHotel.points; i++, sent++)
        expect((await trpc.mutation('webhooks.sendTest', { id: endpoint.id }, { token: h.ownerToken })).status).toBe(200);
    // A fresh endpoint of the same hotel: the hotel's tests are spent.
    const last = endpoints.at(-1)!;
    const refused = await trpc.mutation('webhooks.sendTest', { id: last.id }, { token: h.ownerToken });
    expect(refused.status).toBe(429);
    expect(refused.error!.data.app).toMatchObject({ code: 'TOO_MANY_ATTEMPTS', reason: 'webhooks.errors.tooManyTests' });
    expect(await ctx.deps.prisma.webhookDelivery.count({ where: { hotelId: h.hotel.id } })).toBe(WEBHOOK_TEST_LIMITS.perHotel.points);

    const other = await createHotelWithStaff(ctx.deps);
    const theirs = await createWebhook(await actorContext(ctx.deps, other.ownerToken), {
      url: 'https://pms.example.com/hooks/x',
      events: ['payment.recorded'],
    });
    expect((await trpc.mutation('webhooks.sendTest', { id: theirs.id }, { token: other.ownerToken })).status).toBe(200);
  });

  it('that fails is tried a few times within seconds, then failed for good', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const owner = await actorContext(ctx.deps, h.ownerToken);
    const endpoint = await createWebhook(owner, { url: receiverUrl, events: ['payment.recorded'] });
    const workers = startWorkers(ctx.deps, { sweep: false, webhooks: { hotelId: h.hotel.id } });
    stops.push(() => workers.close());
    const sent = await trpcClient(ctx.app).mutation('webhooks.sendTest', { id: endpoint.id }, { token: h.ownerToken });
    expect(sent.status).toBe(200);
    const delivery = async () => (await listWebhookDeliveries(owner, { id: endpoint.id })).items[0]!;
    await expect.poll(async () => (await delivery()).status, { timeout: 15_000 }).toBe('failed');
    expect(await delivery()).toMatchObject({ attempts: WEBHOOK_LIMITS.testAttempts, nextAttemptAt: null });
    // Nothing more is tried.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const { attempts, messageId } = await delivery();
    expect(attempts).toBe(WEBHOOK_LIMITS.testAttempts);
    expect(received.filter((id) => id === messageId)).toHaveLength(WEBHOOK_LIMITS.testAttempts);
  });
});
