import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDateTime } from '@console/shared';
import { createTestContext, type TestContext } from '../../test/harness';
import { createHotelWithStaff, createRooms, hours, uniqueMobile } from '../../test/factories';
import { legacyClient } from '../../test/legacy-client';
import { trpcClient } from '../../test/trpc-client';
import { createSession } from '../auth/session.service';
import { testMeta } from '../../test/harness';

/**
 * Races, as the front desk and legacy clients make them: many check-ins of one room at the same
 * moment, while the machine is busy; and copies of one check-in (a double click, a retry after a
 * timeout) sent at the same moment. Nobody ever gets a server error.
 */
let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;
let legacy: ReturnType<typeof legacyClient>;

beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
  legacy = legacyClient(ctx.app, ctx.config);
});
afterAll(() => ctx.close());

/** Processes that keep every core busy until stopped. */
function burnCpu(): () => Promise<void> {
  const children: ChildProcess[] = [];
  for (let i = 0; i < 2; i += 1) children.push(fork('-e', ['for (;;) {}'], { execArgv: [], stdio: 'ignore' }));
  return async () => {
    await Promise.all(
      children.map((c) => new Promise<void>((resolve) => (c.exitCode !== null ? resolve() : (c.once('exit', () => resolve()), c.kill('SIGKILL'))))),
    );
  };
}

async function hotelWithLegacyToken() {
  const h = await createHotelWithStaff(ctx.deps);
  const legacySession = await createSession(ctx.deps, { accountId: h.staff.id, hotelId: h.hotel.id, kind: 'legacy', meta: testMeta() });
  return { ...h, legacyToken: legacySession.token };
}

type Outcome = { face: 'trpc' | 'legacy'; ok: boolean; code: string; stayId?: number };

function tzTime(date: Date) {
  return localDateTime(date, 'Asia/Shanghai').replace('T', ' ') + ':00';
}

/** One check-in of `roomId` over tRPC or the legacy protocol; the answer reduced to what matters. */
async function attempt(
  face: 'trpc' | 'legacy',
  h: Awaited<ReturnType<typeof hotelWithLegacyToken>>,
  roomId: number,
  key: string,
  mobile: string,
): Promise<Outcome> {
  const start = hours(-0.25);
  const end = hours(20);
  if (face === 'trpc') {
    const res = await api.mutation(
      'stay.checkIn',
      { roomId, checkInAt: start.toISOString(), expectedCheckOutAt: end.toISOString(), guests: [{ name: 'Racer', mobile }], idempotencyKey: key },
      { token: h.staffToken },
    );
    return { face, ok: res.status === 200, code: res.data ? 'OK' : (res.error?.data.app?.code ?? `HTTP ${res.status}`), stayId: res.data?.id };
  }
  const res = await legacy.call<{ id: number }>(
    'room/tenant/update/checkIn',
    { room_id: roomId, check_in_time: tzTime(start), check_out_time: tzTime(end), guests: [{ name: 'Racer', mobile }], request_id: key },
    { token: h.legacyToken },
  );
  const code = res.errno === 0 ? 'OK' : res.errno === 100006 ? 'CONFLICT' : res.errno === 100018 ? 'CONFIRMATION_REQUIRED' : `errno ${res.errno}`;
  return { face, ok: res.errno === 0, code, stayId: res.errno === 0 ? res.data.id : undefined };
}

describe('concurrent writes under load', () => {
  it('lets exactly one of 20 simultaneous check-ins of a room through in every round, and answers every other one "occupied", never a server error, while both cores are busy', async () => {
    const h = await hotelWithLegacyToken();
    const rounds = 5;
    const { rooms } = await createRooms(
      ctx.deps,
      h.hotel.id,
      Array.from({ length: rounds }, (_, i) => `R${i + 1}`),
    );
    const stop = burnCpu();
    const outcomes: Outcome[][] = [];
    try {
      for (const room of rooms) {
        outcomes.push(await Promise.all(Array.from({ length: 20 }, (_, i) => attempt(i % 2 ? 'legacy' : 'trpc', h, room.id, randomUUID(), uniqueMobile()))));
      }
    } finally {
      await stop();
    }
    for (const [i, round] of outcomes.entries()) {
      const codes = round.map((o) => o.code);
      expect(
        codes.filter((c) => c === 'OK'),
        `round ${i + 1}: ${codes.join(', ')}`,
      ).toHaveLength(1);
      expect(
        codes.filter((c) => c !== 'OK' && c !== 'CONFLICT'),
        `round ${i + 1}: ${codes.join(', ')}`,
      ).toEqual([]);
      expect(await ctx.deps.prisma.stay.count({ where: { roomId: rooms[i]!.id } })).toBe(1);
    }
  }, 120_000);

  it('answers simultaneous copies of one check-in (same request_id) with the one stay they made, on both faces', async () => {
    const h = await hotelWithLegacyToken();
    const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['C1', 'C2', 'C3']);
    for (const room of rooms) {
      const key = randomUUID();
      const mobile = uniqueMobile();
      const copies = await Promise.all(Array.from({ length: 6 }, (_, i) => attempt(i % 2 ? 'legacy' : 'trpc', h, room.id, key, mobile)));
      expect(copies.map((c) => c.code)).toEqual(Array(6).fill('OK'));
      expect(new Set(copies.map((c) => c.stayId)).size).toBe(1);
      expect(await ctx.deps.prisma.stay.count({ where: { roomId: room.id } })).toBe(1);
    }
  });

  it('keeps renewals, room changes and price writes racing on one room free of server errors', async () => {
    const h = await hotelWithLegacyToken();
    const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['M1', 'M2', 'M3', 'M4']);
    const first = await attempt('trpc', h, rooms[0]!.id, randomUUID(), uniqueMobile());
    const second = await attempt('trpc', h, rooms[1]!.id, randomUUID(), uniqueMobile());
    const stop = burnCpu();
    let results: { status: number; code?: string }[];
    try {
      results = await Promise.all([
        // Both stays move into the same free room, twice each: exactly one of them can have it.
        ...[first, second, first, second].map((s) =>
          api.mutation('stay.changeRoom', { stayId: s.stayId!, targetRoomId: rooms[2]!.id }, { token: h.staffToken }),
        ),
        // Renewals of one stay with the same version.
        ...Array.from({ length: 4 }, (_, i) =>
          api.mutation('stay.renew', { stayId: second.stayId!, expectedCheckOutAt: hours(30 + i).toISOString() }, { token: h.staffToken }),
        ),
        // Prices and templates written at the same moment.
        ...Array.from({ length: 4 }, (_, i) =>
          api.mutation(
            'price.setRoom',
            { roomId: rooms[3]!.id, usualPrice: 10_000 + i, datePrices: [{ date: '2027-01-01', price: 12_000 + i }] },
            { token: h.ownerToken },
          ),
        ),
        ...Array.from({ length: 4 }, () => api.mutation('price.saveTemplate', { name: 'Same name', usualPrice: 10_000 }, { token: h.ownerToken })),
      ]).then((all) => all.map((r) => ({ status: r.status, code: r.error?.data.app?.code })));
    } finally {
      await stop();
    }
    expect(
      results.filter((r) => r.status >= 500 || r.code === 'INTERNAL' || r.code === 'SERVICE_UNAVAILABLE'),
      JSON.stringify(results),
    ).toEqual([]);
    expect(results.slice(0, 4).filter((r) => r.status === 200)).toHaveLength(1);
    // Every price write succeeded, and the room has one consistent set of prices.
    expect(results.slice(8, 12).every((r) => r.status === 200)).toBe(true);
    expect(await ctx.deps.prisma.roomDatePrice.count({ where: { roomId: rooms[3]!.id } })).toBe(1);
    // One template of that name, the others told the name is taken.
    expect(results.slice(12).filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.slice(12).filter((r) => r.code === 'CONFLICT')).toHaveLength(3);
  });
});
