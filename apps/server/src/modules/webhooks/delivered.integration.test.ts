import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHotelWithStaff } from '../../test/factories';
import { createTestContext, type TestContext } from '../../test/harness';
import { saveDelivered, type Delivered } from './delivered';

/**
 * The delivered deliveries' group commit (delivered.ts): deliveries saved at once are written
 * together, each one's attempt and state exactly as if alone, and a row the batch cannot take
 * fails alone.
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ locks: null });
});
afterAll(async () => {
  await ctx?.close();
});

async function endpointWithDeliveries(count: number) {
  const h = await createHotelWithStaff(ctx.deps);
  const failingSince = new Date(Date.now() - 3_600_000);
  const endpoint = await ctx.deps.prisma.webhookEndpoint.create({
    data: { hotelId: h.hotel.id, url: 'https://pms.example.com/hooks', events: ['payment.recorded'], secret: '', failingSince },
  });
  const deliveries = [];
  for (let i = 0; i < count; i++)
    deliveries.push(
      await ctx.deps.prisma.webhookDelivery.create({
        data: { hotelId: h.hotel.id, endpointId: endpoint.id, messageId: `msg_${randomUUID()}`, kind: 'payment.recorded', occurredAt: new Date() },
      }),
    );
  return { endpoint, deliveries };
}

const delivered = (endpointId: number, d: { id: bigint; messageId: string }, extra: Partial<Delivered> = {}): Delivered => ({
  deliveryId: d.id,
  endpointId,
  attempt: 1,
  url: 'https://pms.example.com/hooks',
  headers: { 'webhook-id': d.messageId },
  body: `{"id":"${d.messageId}"}`,
  status: 204,
  excerpt: '',
  startedAt: new Date(),
  durationMs: 12,
  at: new Date(),
  ...extra,
});

describe('saving delivered webhooks', () => {
  it('writes 40 saved at once, each with its own attempt, and the endpoint no longer failing', async () => {
    const { endpoint, deliveries } = await endpointWithDeliveries(40);
    await Promise.all(deliveries.map((d) => saveDelivered(ctx.deps, delivered(endpoint.id, d))));
    const rows = await ctx.deps.prisma.webhookDelivery.findMany({
      where: { endpointId: endpoint.id },
      include: { attemptsMade: true },
      orderBy: { id: 'asc' },
    });
    expect(rows.map((r) => [r.status, r.attempts, r.lastStatus, r.deliveredAt !== null, r.nextAttemptAt])).toEqual(
      deliveries.map(() => ['succeeded', 1, 204, true, null]),
    );
    expect(rows.map((r) => r.attemptsMade.map((a) => (a.requestHeaders as Record<string, string>)['webhook-id']))).toEqual(
      deliveries.map((d) => [d.messageId]),
    );
    const after = await ctx.deps.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(after.failingSince).toBeNull();
    expect(after.lastSuccessAt).not.toBeNull();
  });

  it("fails only the row the batch cannot take: the others are saved, that one's job is retried", async () => {
    const { endpoint, deliveries } = await endpointWithDeliveries(12);
    // A time taken past an int's range: the statement refuses it, and with it the whole batch it is in.
    const results = await Promise.allSettled(
      deliveries.map((d, i) => saveDelivered(ctx.deps, delivered(endpoint.id, d, i === 5 ? { durationMs: 2 ** 40 } : {}))),
    );
    expect(results.map((r) => r.status)).toEqual(deliveries.map((_, i) => (i === 5 ? 'rejected' : 'fulfilled')));
    const rows = await ctx.deps.prisma.webhookDelivery.findMany({
      where: { endpointId: endpoint.id },
      include: { attemptsMade: true },
      orderBy: { id: 'asc' },
    });
    expect(rows.map((r) => [r.status, r.attemptsMade.length])).toEqual(deliveries.map((_, i) => (i === 5 ? ['pending', 0] : ['succeeded', 1])));
  });
});
