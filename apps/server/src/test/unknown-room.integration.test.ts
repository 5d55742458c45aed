import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../modules/auth/session.service';
import { buildWorld, type World } from './examples';
import { createTestContext, testMeta, type TestContext } from './harness';
import { legacyClient } from './legacy-client';
import { trpcClient } from './trpc-client';

/**
 * A room's lists answer one way for a room that does not exist, is another hotel's, or is not
 * among the rooms the member manages (issue 18 §1): "not found" (100005, tRPC NOT_FOUND), never an
 * empty list with errno 0 on some and a refusal on others.
 */

let ctx: TestContext;
let world: World;
let other: World;
let legacy: ReturnType<typeof legacyClient>;
let api: ReturnType<typeof trpcClient>;
let staffLegacyToken: string;

beforeAll(async () => {
  ctx = await createTestContext();
  legacy = legacyClient(ctx.app, ctx.config);
  api = trpcClient(ctx.app);
  world = await buildWorld(ctx);
  other = await buildWorld(ctx);
  // A staff member of the hotel who manages the last of its rooms only.
  const membership = await ctx.deps.prisma.membership.update({
    where: { accountId_hotelId: { accountId: world.staff.id, hotelId: world.hotel.id } },
    data: { allRooms: false },
  });
  await ctx.deps.prisma.membershipRoom.createMany({ data: [{ hotelId: world.hotel.id, membershipId: membership.id, roomId: world.rooms[2]!.id }] });
  staffLegacyToken = (await createSession(ctx.deps, { accountId: world.staff.id, hotelId: world.hotel.id, kind: 'legacy', meta: testMeta() })).token;
});
afterAll(() => ctx.close());

const LEGACY = ['room/tenant/list', 'lock/empowerFaceList', 'room/openHistory', 'room/passwordList', 'lock/noteCardList'];
const TRPC = ['stay.list', 'face.authorizations', 'room.unlockRecords', 'password.list', 'card.list'] as const;

describe('a room that is unknown or not managed', () => {
  const rooms = () => [
    { label: 'a room that does not exist', roomId: 2_000_000_000, legacyToken: world.legacyToken, token: world.ownerToken },
    { label: "another hotel's room", roomId: other.rooms[0]!.id, legacyToken: world.legacyToken, token: world.ownerToken },
    { label: 'a room the member does not manage', roomId: world.rooms[0]!.id, legacyToken: staffLegacyToken, token: world.staffToken },
  ];

  it('is "not found" (100005) on each legacy list of a room', async () => {
    const answers: string[] = [];
    for (const room of rooms()) {
      for (const path of LEGACY) {
        const res = await legacy.call(path, { page: 1, limit: 10, room_id: room.roomId }, { token: room.legacyToken, language: 'en' });
        answers.push(`${room.label} ${path}: ${res.errno} ${res.errmsg}`);
      }
    }
    expect(answers.filter((a) => !/: 100005 The room does not exist/.test(a))).toEqual([]);
  });

  it('is NOT_FOUND on each tRPC list of a room', async () => {
    const answers: string[] = [];
    for (const room of rooms()) {
      for (const path of TRPC) {
        const res = await api.raw.query(path, { page: 1, pageSize: 10, roomId: room.roomId }, { token: room.token });
        answers.push(`${room.label} ${path}: ${res.status} ${res.error?.data.app?.code}`);
      }
    }
    expect(answers.filter((a) => !a.endsWith(': 404 NOT_FOUND'))).toEqual([]);
  });

  it("and the same lists answer the rooms that are the member's", async () => {
    for (const path of LEGACY)
      expect((await legacy.call(path, { page: 1, limit: 10, room_id: world.rooms[0]!.id }, { token: world.legacyToken, language: 'en' })).errno, path).toBe(0);
    for (const path of TRPC)
      expect((await api.raw.query(path, { page: 1, pageSize: 10, roomId: world.rooms[0]!.id }, { token: world.ownerToken })).status, path).toBe(200);
  });
});
