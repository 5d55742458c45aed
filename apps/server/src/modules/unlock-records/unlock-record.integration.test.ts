import { addDays, localDateTime } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorContext, createTestContext, testMeta, type TestContext } from '../../test/harness';
import { createAccount, createHotelWithStaff, createRooms } from '../../test/factories';
import { trpcClient } from '../../test/trpc-client';
import { createSession } from '../auth/session.service';
import { RECORD_COUNT_CAP, listRecordsByPerson, listUnlockRecords } from './unlock-record.service';

/**
 * A room's unlock-record page (one statement: room check, capped total, page read by id from the
 * index) lists what the obvious query lists, counts up to RECORD_COUNT_CAP and says when it stopped,
 * and answers NOT_FOUND for a room the actor may not see. Its speed is bench/unlock-page.ts's.
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ locks: null });
});

afterAll(async () => {
  await ctx?.close();
});

/** `n` records of a room, one a minute back from now (some at the same instant: the id breaks the tie). */
async function records(hotelId: number, roomId: number, n: number, tag: string) {
  await ctx.deps.prisma.$executeRaw`
    INSERT INTO "UnlockRecord" ("hotelId", "roomId", "providerRecordId", "occurredAt", "style", "operator")
    SELECT ${hotelId}, ${roomId}, ${tag} || ':' || i, date_trunc('minute', now()) - ((i / 2) || ' minutes')::interval, 'password', 'Guest ' || i
    FROM generate_series(1, ${n}::int) i`;
}

/** The ids of a page by the obvious query: every row of the room in order, OFFSET. */
async function obviousPage(hotelId: number, roomId: number, page: number, pageSize: number, from = new Date(0), to = new Date(8.64e15)) {
  const rows = await ctx.deps.prisma.$queryRaw<{ id: number }[]>`
    SELECT "id" FROM "UnlockRecord" WHERE "hotelId" = ${hotelId} AND "roomId" = ${roomId} AND "occurredAt" >= ${from} AND "occurredAt" < ${to}
    ORDER BY "occurredAt" DESC, "id" DESC LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`;
  return rows.map((r) => r.id);
}

describe("a room's unlock records", () => {
  it('counts up to the cap and says so above it; every page is the obvious query’s, however deep', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['Busy', 'Full', 'Quiet', 'Empty']);
    const [busy, full, quiet, empty] = rooms as [(typeof rooms)[0], (typeof rooms)[0], (typeof rooms)[0], (typeof rooms)[0]];
    await records(h.hotel.id, busy.id, RECORD_COUNT_CAP + 1, 'busy');
    await records(h.hotel.id, full.id, RECORD_COUNT_CAP, 'full');
    await records(h.hotel.id, quiet.id, 45, 'quiet');
    const staff = await actorContext(ctx.deps, h.staffToken);

    const first = await listUnlockRecords(staff, { roomId: busy.id });
    expect(first).toMatchObject({ total: RECORD_COUNT_CAP, totalCapped: true, page: 1, pageSize: 20 });
    expect(first.items.map((r) => r.id)).toEqual(await obviousPage(h.hotel.id, busy.id, 1, 20));
    expect(first.items[0]).toMatchObject({
      roomId: busy.id,
      roomName: 'Busy',
      style: 'password',
      event: 'opened',
      source: 'lock',
      success: true,
      credential: null,
    });
    expect(typeof first.items[0]!.occurredAt).toBe('string');
    const last = await listUnlockRecords(staff, { roomId: busy.id, page: RECORD_COUNT_CAP / 100, pageSize: 100 });
    expect(last.items.map((r) => r.id)).toEqual(await obviousPage(h.hotel.id, busy.id, RECORD_COUNT_CAP / 100, 100));
    expect(last.items).toHaveLength(100);

    expect(await listUnlockRecords(staff, { roomId: full.id, pageSize: 100 })).toMatchObject({ total: RECORD_COUNT_CAP, totalCapped: false });
    const quietPage = await listUnlockRecords(staff, { roomId: quiet.id, page: 3, pageSize: 20 });
    expect(quietPage).toMatchObject({ total: 45, totalCapped: false });
    expect(quietPage.items.map((r) => r.id)).toEqual(await obviousPage(h.hotel.id, quiet.id, 3, 20));
    expect(await listUnlockRecords(staff, { roomId: quiet.id, page: 4 })).toMatchObject({ total: 45, items: [] });
    expect(await listUnlockRecords(staff, { roomId: empty.id })).toMatchObject({ total: 0, totalCapped: false, items: [] });

    // A range of the hotel's days counts within it.
    const today = localDateTime(new Date(), 'Asia/Shanghai').slice(0, 10);
    const todays = await listUnlockRecords(staff, { roomId: busy.id, from: today, to: today });
    const start = new Date(`${today}T00:00:00+08:00`);
    const inRange = await ctx.deps.prisma.unlockRecord.count({
      where: { roomId: busy.id, occurredAt: { gte: start, lt: new Date(`${addDays(today, 1)}T00:00:00+08:00`) } },
    });
    expect(todays).toMatchObject({ total: Math.min(inRange, RECORD_COUNT_CAP), totalCapped: inRange > RECORD_COUNT_CAP });
    expect(todays.items.map((r) => r.id)).toEqual(await obviousPage(h.hotel.id, busy.id, 1, 20, start));

    // By person counts the same way.
    expect(await listRecordsByPerson(staff, { person: 'Guest' })).toMatchObject({ total: RECORD_COUNT_CAP, totalCapped: true });
    expect(await listRecordsByPerson(staff, { person: 'Guest', roomId: quiet.id })).toMatchObject({ total: 45, totalCapped: false });
  });

  it('is NOT_FOUND for a room of another hotel, a deleted room and a room a limited member may not see', async () => {
    const a = await createHotelWithStaff(ctx.deps);
    const b = await createHotelWithStaff(ctx.deps);
    const {
      rooms: [mine, other],
    } = await createRooms(ctx.deps, a.hotel.id, ['101', '102']);
    const {
      rooms: [theirs],
    } = await createRooms(ctx.deps, b.hotel.id, ['101']);
    await records(a.hotel.id, mine!.id, 3, 'a-mine');
    await records(a.hotel.id, other!.id, 3, 'a-other');
    await records(b.hotel.id, theirs!.id, 3, 'b');
    const staffA = await actorContext(ctx.deps, a.staffToken);
    await expect(listUnlockRecords(staffA, { roomId: theirs!.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      options: { messageKey: 'room.errors.notFound' },
    });

    const limited = await createAccount(ctx.deps, {});
    const membership = await ctx.deps.prisma.membership.create({ data: { accountId: limited.id, hotelId: a.hotel.id, role: 'staff', allRooms: false } });
    await ctx.deps.prisma.membershipRoom.create({ data: { hotelId: a.hotel.id, membershipId: membership.id, roomId: mine!.id } });
    const session = await createSession(ctx.deps, { accountId: limited.id, hotelId: a.hotel.id, kind: 'web', meta: testMeta() });
    const limitedCtx = await actorContext(ctx.deps, session.token);
    expect((await listUnlockRecords(limitedCtx, { roomId: mine!.id })).total).toBe(3);
    await expect(listUnlockRecords(limitedCtx, { roomId: other!.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });

    await ctx.deps.prisma.room.update({ where: { id: other!.id }, data: { deletedAt: new Date() } });
    await expect(listUnlockRecords(staffA, { roomId: other!.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('by person, a member limited to some rooms finds the records of those rooms only (lock.recordsByPerson)', async () => {
    const a = await createHotelWithStaff(ctx.deps);
    const {
      rooms: [mine, other],
    } = await createRooms(ctx.deps, a.hotel.id, ['201', '202']);
    // One person in both rooms: the name alone would find all six.
    await records(a.hotel.id, mine!.id, 3, 'p-mine');
    await records(a.hotel.id, other!.id, 3, 'p-other');
    const limited = await createAccount(ctx.deps, {});
    const membership = await ctx.deps.prisma.membership.create({ data: { accountId: limited.id, hotelId: a.hotel.id, role: 'staff', allRooms: false } });
    await ctx.deps.prisma.membershipRoom.create({ data: { hotelId: a.hotel.id, membershipId: membership.id, roomId: mine!.id } });
    const session = await createSession(ctx.deps, { accountId: limited.id, hotelId: a.hotel.id, kind: 'web', meta: testMeta() });
    const api = trpcClient(ctx.app);

    const all = await api.query('lock.recordsByPerson', { person: 'Guest', pageSize: 100 }, { token: a.staffToken });
    expect(all.data).toMatchObject({ total: 6 });
    expect(new Set(all.data!.items.map((r) => r.roomId))).toEqual(new Set([mine!.id, other!.id]));

    const own = await api.query('lock.recordsByPerson', { person: 'Guest', pageSize: 100 }, { token: session.token });
    expect(own.error).toBeUndefined();
    expect(own.data).toMatchObject({ total: 3 });
    expect(own.data!.items.map((r) => r.roomName)).toEqual(['201', '201', '201']);
    // By one credential or one name, the same: nothing of a room out of scope.
    const one = await api.query('lock.recordsByPerson', { person: 'Guest 1', pageSize: 100 }, { token: session.token });
    expect(one.data!.items.map((r) => r.roomId)).toEqual([mine!.id]);
    // Naming the room out of scope is NOT_FOUND, as for a room of another hotel.
    const named = await api.query('lock.recordsByPerson', { person: 'Guest', roomId: other!.id }, { token: session.token });
    expect(named.error?.data.app?.code).toBe('NOT_FOUND');
    // The service says the same as the procedure (the export reads it too).
    const limitedCtx = await actorContext(ctx.deps, session.token);
    expect((await listRecordsByPerson(limitedCtx, { person: 'Guest', pageSize: 100 })).items.map((r) => r.roomId)).toEqual([mine!.id, mine!.id, mine!.id]);
  });
});
