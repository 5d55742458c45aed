/**
 * Issue 39 §4: a reservation whose guest never arrived is not checked out, on any face (tRPC,
 * `POST /api/v1/stays/{id}/check-out`, legacy `room/checkOut`): 409 "cancel it instead", nothing
 * changed; cancelled, it ends. A stay in house is still checked out by the same calls.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { API_KEY_PERMISSIONS, API_KEY_PREFIX } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../auth/session.service';
import { buildWorld } from '../../test/examples';
import { createTestContext, type TestContext } from '../../test/harness';
import { jsonApiClient } from '../../test/json-api-client';
import { legacyClient } from '../../test/legacy-client';
import { trpcClient } from '../../test/trpc-client';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

const statusOf = async (id: number) => (await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id }, select: { status: true } })).status;

describe('checking out a reservation whose guest never arrived', () => {
  it('is refused on every face, changing nothing; the same calls check out a stay in house', async () => {
    const w = await buildWorld(ctx);
    const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    await ctx.deps.prisma.apiKey.create({
      data: {
        hotelId: w.hotel.id,
        name: 'Check-out key',
        prefix: key.slice(0, 8),
        keyHash: hashToken(key),
        permissions: [...API_KEY_PERMISSIONS],
        createdByAccountId: w.owner.id,
      },
    });
    const trpc = trpcClient(ctx.app);
    const json = await jsonApiClient(ctx.app);
    const legacy = legacyClient(ctx.app, ctx.config);
    const id = w.reservation.id;

    const viaTrpc = await trpc.mutation('stay.checkOut', { stayId: id }, { token: w.ownerToken });
    expect(viaTrpc.error?.data.app).toMatchObject({ code: 'CONFLICT', reason: 'stay.errors.checkOutNotArrived' });
    const viaApi = await json.post<{ code: string; detail: string }>('/stays/{stayId}/check-out', { stayId: id }, undefined, {
      key,
      language: 'en',
      idempotencyKey: randomUUID(),
    });
    expect(viaApi.status).toBe(409);
    expect(viaApi.body.detail).toBe("This reservation's guest has not arrived: cancel the reservation instead of checking it out.");
    const viaLegacy = await legacy.call('room/checkOut', { stay_id: id }, { token: w.legacyToken, language: 'en' });
    expect(viaLegacy.errno).toBe(100006);
    expect(viaLegacy.errmsg).toBe("This reservation's guest has not arrived: cancel the reservation instead of checking it out.");
    expect(await statusOf(id)).toBe('reserved');

    // Cancelled, it ends; a stay in house is checked out by the legacy call as before.
    await trpc.mutation('stay.cancelReservation', { stayId: id, reason: 'guest_request' }, { token: w.ownerToken });
    expect(await statusOf(id)).toBe('ended');
    const inHouse = await legacy.call('room/checkOut', { stay_id: w.pwStay.id }, { token: w.legacyToken, language: 'en' });
    expect(inHouse.errno).toBe(0);
    expect(await statusOf(w.pwStay.id)).toBe('checked_out');
  });
});
