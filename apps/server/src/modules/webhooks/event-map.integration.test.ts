import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReservation } from '../stays/reservation';
import { rescheduleStay } from '../stays/reschedule';
import { createHotelWithStaff, createRooms } from '../../test/factories';
import { actorContext, createTestContext, type TestContext } from '../../test/harness';
import { dispatchWebhooks } from './dispatch';

/**
 * What the outbox's kinds become for an integrator (event-map.ts): a reservation moved to other
 * dates reaches an endpoint subscribed to `reservation.changed` (issue 37 §3: `stay.rescheduled`
 * was carried to no webhook). The dispatcher is run here; the delivery itself is webhooks.integration.test.ts's.
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ locks: null });
});
afterAll(async () => {
  await ctx?.close();
});

describe('a reservation moved to other dates', () => {
  it('is a reservation.changed delivery for its stay, once', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const { rooms } = await createRooms(ctx.deps, h.hotel.id, [`R${randomUUID().slice(0, 6)}`]);
    const owner = await actorContext(ctx.deps, h.ownerToken);
    const endpoint = await ctx.deps.prisma.webhookEndpoint.create({
      data: {
        hotelId: h.hotel.id,
        url: 'https://pms.example.com/hooks',
        events: ['reservation.changed'],
        secret: '',
        createdAt: new Date(Date.now() - 60_000),
      },
    });
    const day = 24 * 3_600_000;
    const stay = await createReservation(owner, {
      roomId: rooms[0]!.id,
      checkInAt: new Date(Date.now() + 2 * day),
      expectedCheckOutAt: new Date(Date.now() + 3 * day),
      guests: [{ name: 'Li Na' }],
      idempotencyKey: randomUUID(),
    });
    await rescheduleStay(owner, { stayId: stay.id, checkInAt: new Date(Date.now() + 4 * day), expectedCheckOutAt: new Date(Date.now() + 6 * day) });
    await dispatchWebhooks(ctx.deps, { hotelId: h.hotel.id });
    const deliveries = await ctx.deps.prisma.webhookDelivery.findMany({ where: { endpointId: endpoint.id }, select: { kind: true, ids: true } });
    expect(deliveries).toEqual([{ kind: 'reservation.changed', ids: expect.objectContaining({ stayId: stay.id }) }]);
  });
});
