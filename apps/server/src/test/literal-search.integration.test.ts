import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorld, type World } from './examples';
import { TEST_PASSWORD } from './factories';
import { gatewayClient } from './gateway-client';
import { createTestContext, type TestContext } from './harness';
import { legacyClient } from './legacy-client';
import { trpcClient } from './trpc-client';

/**
 * Every search matches its text literally (issue 18 §1): `%` and `_` typed into a card search
 * find a card number holding them, not every card. On each face that searches cards: legacy
 * `lock/noteCardList`, tRPC `card.list`, the gateway's `getAuthorizationRecord` (one helper,
 * db/search.ts, behind all of them and every other search of the server).
 */

let ctx: TestContext;
let world: World;
let api: ReturnType<typeof trpcClient>;
let legacy: ReturnType<typeof legacyClient>;
let gateway: ReturnType<typeof gatewayClient>;
let gatewayToken: string;
const NUMBERS = ['LIT12%45', 'LIT12345', 'LIT12_45', 'LIT12\\45'];

beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
  legacy = legacyClient(ctx.app, ctx.config);
  gateway = gatewayClient(ctx.app);
  world = await buildWorld(ctx);
  gatewayToken = await gateway.login(world.owner.mobile!, TEST_PASSWORD);
  for (const [i, cardNumber] of NUMBERS.entries()) {
    const card = await ctx.deps.prisma.card.create({ data: { hotelId: world.hotel.id, cardNumber, kind: 'room' } });
    await ctx.deps.prisma.cardIssue.create({
      data: {
        hotelId: world.hotel.id,
        cardId: card.id,
        kind: 'room',
        medium: 'number',
        state: 'issued',
        roomId: world.rooms[2]!.id,
        uid: `A1B2C3D${i}`,
        validFrom: new Date(),
        holderName: 'Literal holder',
      },
    });
  }
});
afterAll(() => ctx.close());

const CASES: [string, string[]][] = [
  ['12%4', ['LIT12%45']],
  ['12_4', ['LIT12_45']],
  ['12\\4', ['LIT12\\45']],
  ['%', ['LIT12%45']],
  ['_', ['LIT12_45']],
  ['LIT12', NUMBERS],
];

describe('a card search matches its text literally', () => {
  it.each(CASES)('tRPC card.list %j', async (search, expected) => {
    const res = await api.query('card.list', { page: 1, pageSize: 50, roomId: world.rooms[2]!.id, scope: 'all', search }, { token: world.ownerToken });
    expect(res.data?.items.map((c) => c.cardNumber).sort()).toEqual([...expected].sort());
  });

  it.each(CASES)('legacy lock/noteCardList %j', async (keyword, expected) => {
    const res = await legacy.call<{ list?: { card_number?: string; card_no?: string }[]; items?: unknown[] }>(
      'lock/noteCardList',
      { page: 1, limit: 50, room_id: world.rooms[2]!.id, scope: 'all', keyword },
      { token: world.legacyToken, language: 'en' },
    );
    expect(res.errno).toBe(0);
    const text = JSON.stringify(res.data);
    for (const n of NUMBERS) expect(text.includes(JSON.stringify(n).slice(1, -1)), `${keyword} -> ${n}`).toBe(expected.includes(n));
  });

  it.each(CASES)('gateway getAuthorizationRecord %j', async (search, expected) => {
    const res = await gateway.post<{ cards: { items: { cardNumber?: string }[]; total: number } }>(
      '/linQuan/getAuthorizationRecord',
      { type: 'all', roomId: world.rooms[2]!.id, search },
      { token: gatewayToken },
    );
    expect(res.code, res.text).toBe(200);
    const text = JSON.stringify(res.data.cards);
    for (const n of NUMBERS) expect(text.includes(JSON.stringify(n).slice(1, -1)), `${search} -> ${n}`).toBe(expected.includes(n));
  });
});
