import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeAppError, toAppError } from '../errors';
import { buildWorld, type World } from './examples';
import { uniqueMobile } from './factories';
import { createTestContext, type TestContext } from './harness';
import { legacyClient } from './legacy-client';
import { trpcClient } from './trpc-client';

/**
 * Two identical requests at once (a double click, a retry racing its original; issue 18 §1): one
 * succeeds, the other is a translated conflict or "already exists", never a server error; and
 * where the docs promise a refusal (a password's code on one lock, a lock manager per person) the
 * database guards it, so the race cannot leave two.
 */

let ctx: TestContext;
let world: World;
let api: ReturnType<typeof trpcClient>;
let legacy: ReturnType<typeof legacyClient>;

beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
  legacy = legacyClient(ctx.app, ctx.config);
  world = await buildWorld(ctx);
});
afterAll(() => ctx.close());

type Outcome = { status: number; code?: string; message?: string };

/** One success and one translated client error (never 500, never the untranslated key). */
function oneWins(outcomes: Outcome[], label: string) {
  const summary = JSON.stringify(outcomes);
  expect(
    outcomes.filter((o) => o.status === 200),
    `${label}: ${summary}`,
  ).toHaveLength(1);
  const loser = outcomes.find((o) => o.status !== 200)!;
  expect(loser.status, `${label}: ${summary}`).toBeGreaterThanOrEqual(400);
  expect(loser.status, `${label}: ${summary}`).toBeLessThan(500);
  expect(loser.code, `${label}: ${summary}`).not.toBe('INTERNAL');
  expect(loser.message, `${label}: ${summary}`).not.toMatch(/^(errors|validation)\.|Something went wrong/);
}

async function twice(path: string, input: unknown): Promise<Outcome[]> {
  const send = () => api.raw.mutation(path as 'room.create', input, { token: world.ownerToken });
  const results = await Promise.all([send(), send()]);
  return results.map((r) => ({ status: r.status, code: r.error?.data.app?.code, message: r.error?.data.app?.message }));
}

describe('the same request twice at once', () => {
  it.each([
    ['dispenser.add', () => ({ deviceId: `SIM-RACE-${randomUUID().slice(0, 8)}`, name: 'Desk' })],
    [
      'staff.add',
      () => ({
        account: uniqueMobile(),
        name: 'Race staff',
        gender: 'male',
        nationality: 'CN',
        birthDate: '1990-01-01',
        role: 'staff',
        allRooms: true,
        roomIds: [],
        apiKeyAuth: false,
      }),
    ],
  ] as const)('%s: one success, one translated conflict', async (path, input) => {
    for (let round = 0; round < 3; round++) oneWins(await twice(path, input()), `${path} round ${round}`);
  });

  it('reader.register: registering is idempotent, so both answer the one reader, or one is a translated conflict; never two rows, never a 500', async () => {
    for (let round = 0; round < 3; round++) {
      const deviceId = `SIM-RACE-${randomUUID().slice(0, 8)}`;
      const input = { deviceId, serial: 'SIMRACE', readerType: 2, name: 'Desk' };
      const send = () => api.raw.mutation('reader.register', input, { token: world.ownerToken });
      const results = await Promise.all([send(), send()]);
      const outcomes = results.map((r) => ({
        status: r.status,
        code: r.error?.data.app?.code,
        message: r.error?.data.app?.message,
        id: (r.data as { id?: number } | undefined)?.id,
      }));
      const ok = outcomes.filter((o) => o.status === 200);
      // The second came after the first was written (it answers the reader registered), or at the same moment (the database refused the twin).
      if (ok.length === 2) expect(ok[0]!.id, JSON.stringify(outcomes)).toBe(ok[1]!.id);
      else oneWins(outcomes, `reader.register round ${round}`);
      expect(await ctx.deps.prisma.cardReader.count({ where: { hotelId: world.hotel.id, deviceId } })).toBe(1);
    }
  });

  it('password.create: never two live passwords with one code on one lock', async () => {
    for (let round = 0; round < 3; round++) {
      const code = String(700_000 + round * 1111);
      const input = {
        roomId: world.rooms[2]!.id,
        kind: 'custom',
        code,
        holderName: 'Race guest',
        validFrom: new Date(Date.now() + 3_600_000).toISOString(),
        validUntil: new Date(Date.now() + 26 * 3_600_000).toISOString(),
      };
      oneWins(await twice('password.create', input), `password.create round ${round}`);
      const live = await ctx.deps.prisma.lockPassword.count({
        where: { roomId: world.rooms[2]!.id, code, deliveryState: { in: ['pending', 'on_lock', 'unknown'] } },
      });
      expect(live).toBe(1);
    }
  });

  it('lock.addManager and legacy lock/managerAddNew: never two managers for one person', async () => {
    for (let round = 0; round < 3; round++) {
      const mobile = uniqueMobile();
      oneWins(await twice('lock.addManager', { roomId: world.rooms[2]!.id, name: 'Locksmith', mobile }), `lock.addManager round ${round}`);
      const legacyMobile = uniqueMobile();
      const send = () =>
        legacy.call(
          'lock/managerAddNew',
          { room_id: world.rooms[2]!.id, name: 'Locksmith', mobile: legacyMobile },
          { token: world.legacyToken, language: 'en' },
        );
      const answers = await Promise.all([send(), send()]);
      expect(
        answers.filter((a) => a.errno === 0),
        JSON.stringify(answers),
      ).toHaveLength(1);
      expect(answers.find((a) => a.errno !== 0)!.errno, JSON.stringify(answers)).toBe(100006);
    }
    const managers = await ctx.deps.prisma.lockManager.groupBy({ by: ['mobile'], where: { roomId: world.rooms[2]!.id }, _count: true });
    expect(managers.filter((m) => m._count > 1)).toEqual([]);
  });

  it('a unique violation raised anywhere (Prisma, a plain statement on the pool) is one translated conflict', async () => {
    const sql = `INSERT INTO "CardDispenser" ("hotelId", "deviceId", "updatedAt") VALUES ($1, 'SIM-RACE-POOL', now())`;
    await ctx.deps.pool.query(sql, [world.hotel.id]);
    const error = await ctx.deps.pool.query(sql, [world.hotel.id]).then(
      () => null,
      (e: unknown) => e,
    );
    const app = toAppError(error);
    expect(describeAppError(app, 'en', ctx.deps.i18n)).toMatchObject({
      code: 'CONFLICT',
      errno: 100006,
      message: 'A dispenser with this device number is already registered.',
      fields: { deviceId: expect.any(String) },
    });
    const other = await ctx.deps.pool
      .query(`INSERT INTO "RoomGroup" ("hotelId", "name", "updatedAt") SELECT "hotelId", "name", now() FROM "RoomGroup" WHERE "hotelId" = $1 LIMIT 1`, [
        world.hotel.id,
      ])
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(describeAppError(toAppError(other), 'en', ctx.deps.i18n)).toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('already exists') });
  });
});
