import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setAccessRule } from '../../modules/access-rules/access-rule.service';
import { createHotelWithStaff, createRooms, uniqueMobile } from '../../test/factories';
import { actorContext } from '../../test/harness';
import { jsonApiClient } from '../../test/json-api-client';
import { pairSimLock } from '../../test/lock-factories';
import { trpcClient } from '../../test/trpc-client';
import { startSimDesk, stopSimDesk, type SimDesk } from '../../test/sim-desk';

/**
 * A reservation made through the JSON API is a reservation like any other: with the hotel's access
 * rule covering desk reservations, its code is issued by the rule's job, set on the simulated lock
 * by the delivery worker, shown as `on_lock` by `GET /stays/{id}/credentials`, and opens the door.
 */

let { sim, client, ctx, workers } = {} as SimDesk;
beforeAll(async () => void ({ sim, client, ctx, workers } = await startSimDesk()));
afterAll(() => stopSimDesk({ sim, ctx, workers }));

interface Keys {
  passwords: { id: number; code: string | null; deliveryState: string }[];
}

describe('a reservation made through the JSON API', () => {
  it('gets its code on the simulated lock by the access rule, shown on_lock, and the door opens with it', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    await ctx.deps.prisma.membership.updateMany({ where: { hotelId: h.hotel.id, accountId: h.owner.id }, data: { apiKeyAuth: true } });
    const { rooms } = await createRooms(ctx.deps, h.hotel.id, [`R${randomUUID().slice(0, 6)}`]);
    const created = await client.lockWithGateway({});
    await pairSimLock(ctx.deps, h.hotel.id, rooms[0]!.id, created.lockId);
    await setAccessRule(await actorContext(ctx.deps, h.ownerToken), {
      enabled: true,
      issueDaysBefore: 2,
      minutesBeforeCheckIn: 180,
      minutesAfterCheckOut: 60,
      codeRule: 'random',
      phoneFallback: 'random',
      codeType: 'custom',
      deskReservations: true,
    });
    const made = await trpcClient(ctx.app).mutation(
      'apiKey.create',
      { name: 'Channel manager', permissions: ['room.read', 'stay.manage', 'credential.manage'] },
      { token: h.ownerToken },
    );
    const key = (made.data as { key: string }).key;

    const api = await jsonApiClient(ctx.app);
    const res = await api.post<{ id: number }>(
      '/reservations',
      {},
      {
        roomId: rooms[0]!.id,
        checkInAt: new Date().toISOString(),
        expectedCheckOutAt: new Date(Date.now() + 26 * 3_600_000).toISOString(),
        guests: [{ name: 'Ana Souza', mobile: uniqueMobile() }],
      },
      { key, idempotencyKey: randomUUID() },
    );
    expect(res.status).toBe(201);
    const credentials = async () => (await api.get<Keys>('/stays/{stayId}/credentials', { stayId: res.body.id }, { key })).body.passwords;
    await expect.poll(async () => (await credentials()).map((p) => p.deliveryState), { timeout: 20_000 }).toEqual(['on_lock']);
    const [code] = await credentials();
    const use = (passcode: string | null) => client.control<{ opened: boolean }>('POST', `/locks/${created.lockId}/use`, { passcode });
    expect(await use(code!.code)).toMatchObject({ opened: true });

    // A code of the integrator's own digits for the same stay: on the lock, it opens; withdrawn, it no longer does.
    const issued = await api.post<{ id: number; code: string }>(
      '/stays/{stayId}/codes',
      { stayId: res.body.id },
      { kind: 'custom', code: '482913' },
      { key, idempotencyKey: randomUUID() },
    );
    expect(issued).toMatchObject({ status: 201, body: { code: '482913' } });
    const stateOf = async (id: number) =>
      (await api.get<Keys>('/stays/{stayId}/credentials', { stayId: res.body.id }, { key })).body.passwords.find((p) => p.id === id)?.deliveryState;
    await expect.poll(() => stateOf(issued.body.id), { timeout: 20_000 }).toBe('on_lock');
    expect(await use('482913')).toMatchObject({ opened: true });
    const withdrawn = await api.post('/codes/{codeId}/withdraw', { codeId: issued.body.id }, undefined, { key, idempotencyKey: randomUUID() });
    expect(withdrawn.status).toBe(200);
    // Off the list of what the guest holds, and off the lock.
    await expect
      .poll(async () => (await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: issued.body.id } })).deliveryState, { timeout: 20_000 })
      .toBe('removed');
    expect(await stateOf(issued.body.id)).toBeUndefined();
    expect(await use('482913')).toMatchObject({ opened: false });
  });
});
