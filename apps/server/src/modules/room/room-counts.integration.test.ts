/**
 * The room board's statuses and counts are kept by the database (migration 20261122100000,
 * docs/decisions/008-room-board-counts-kept-by-the-database.md). Every test here drives a real
 * change (through tRPC as the console does, or as the stay jobs write it) and then checks the
 * board against the rule of docs/room-status.md recomputed from the stays at that moment: the
 * counts, each room's status, each status filter, and the database's own bookkeeping.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ROOM_STATUSES, type TRoomStatusTarget } from '@console/shared';
import { applyMigrations } from '../../db/migrate';
import { MIGRATIONS_DIR } from '../../db/paths';
import { createScratchDatabase } from '../../db/scratch-database';
import { createTestContext, testMeta, type TestContext } from '../../test/harness';
import { createAccount, createHotelWithStaff, createRooms, hours, insertStay, zoneAtLocalHour } from '../../test/factories';
import { jobContext } from '../../context';
import { dueOnTime, noShowOnTime } from '../stays/transitions';
import { trpcClient } from '../../test/trpc-client';
import { createSession } from '../auth/session.service';

let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;
type Hotel = Awaited<ReturnType<typeof createHotelWithStaff>>;

beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
});
afterAll(() => ctx.close());

const list = (token: string, input: object = {}) => api.query('room.list', { pageSize: 100, ...input }, { token }).then((r) => r.data!);

/** Every page of the board: its counts and total (of the first page) and all its rooms. */
async function listAll(token: string, input: object = {}) {
  const first = await list(token, input);
  const items = [...first.items];
  for (let page = 2; items.length < first.total; page++) items.push(...(await list(token, { ...input, page })).items);
  return { ...first, items };
}

/** The rule of docs/room-status.md at this moment, from the stays: every room's status and the counts (a reservation counts from its arrival day, in the hotel's zone). */
async function recount(hotelId: number, roomIds?: number[]) {
  const rows = await ctx.deps.prisma.$queryRaw<{ id: number; status: string }[]>`
    SELECT r."id", CASE
      WHEN EXISTS (SELECT 1 FROM "Stay" s WHERE s."roomId" = r."id" AND s."status" IN ('reserved', 'in_house', 'expired') AND s."checkInAt" <= now()
                   AND NOT (s."status" = 'reserved' AND s."awaitsArrival")) THEN 'checked_in'
      WHEN r."maintenance" <> 'none' THEN 'maintain'
      WHEN EXISTS (SELECT 1 FROM "Stay" s WHERE s."roomId" = r."id" AND s."status" IN ('reserved', 'in_house', 'expired')
                   AND s."checkInAt" < ((date_trunc('day', now() AT TIME ZONE h."timeZone") + interval '1 day') AT TIME ZONE h."timeZone")) THEN 'reserved'
      WHEN r."cleanStatus" = 'dirty' THEN 'dirty'
      ELSE 'vacant' END AS "status"
    FROM "Room" r JOIN "Hotel" h ON h."id" = r."hotelId" WHERE r."hotelId" = ${hotelId} AND r."deletedAt" IS NULL`;
  const seen = roomIds ? rows.filter((r) => roomIds.includes(r.id)) : rows;
  const counts = Object.fromEntries(ROOM_STATUSES.map((s) => [s, seen.filter((r) => r.status === s).length]));
  return { counts, byRoom: Object.fromEntries(seen.map((r) => [r.id, r.status])) };
}

/** What the database keeps: the counts log summed, and the rooms' stored statuses counted. */
async function kept(hotelId: number) {
  const [row] = await ctx.deps.prisma.$queryRaw<{ logged: Record<string, number> | null; stored: Record<string, number> | null }[]>`
    SELECT (SELECT json_object_agg(s, n) FROM (SELECT "status"::text AS s, sum("n")::int AS n FROM "RoomStatusCount" WHERE "hotelId" = ${hotelId} GROUP BY 1 HAVING sum("n") <> 0) x) AS "logged",
           (SELECT json_object_agg(s, n) FROM (SELECT "status"::text AS s, count(*)::int AS n FROM "Room" WHERE "hotelId" = ${hotelId} AND "deletedAt" IS NULL GROUP BY 1) y) AS "stored"`;
  return { logged: row!.logged ?? {}, stored: row!.stored ?? {} };
}

/**
 * The board of `token` equals the rule: counts, every room's status, every status filter's total
 * and rooms. `onSchedule` (the default): no stay is behind the clock, so the database's stored
 * statuses must equal the rule too, and its counts log must equal its stored statuses.
 */
async function expectBoardRight(hotelId: number, token: string, options: { roomIds?: number[]; onSchedule?: boolean } = {}) {
  const truth = await recount(hotelId, options.roomIds);
  const board = await listAll(token);
  expect(board.counts, 'counts').toEqual(truth.counts);
  expect(Object.fromEntries(board.items.map((r) => [r.id, r.status])), 'statuses').toEqual(truth.byRoom);
  for (const status of ROOM_STATUSES) {
    const filtered = await listAll(token, { status });
    expect(filtered.total, `total of ${status}`).toBe(truth.counts[status]);
    expect(filtered.items.map((r) => r.id).sort(), `rooms of ${status}`).toEqual(
      Object.keys(truth.byRoom)
        .filter((id) => truth.byRoom[id] === status)
        .map(Number)
        .sort(),
    );
  }
  if (options.onSchedule ?? true) {
    const k = await kept(hotelId);
    const nonZero = (c: Record<string, number>) => Object.fromEntries(Object.entries(c).filter(([, n]) => n !== 0));
    expect(k.logged, 'counts log').toEqual(k.stored);
    if (!options.roomIds) expect(k.stored, 'stored statuses').toEqual(nonZero(truth.counts));
  }
  return board;
}

async function hotelWithRooms(names = ['101', '102', '103', '104', '105', '106']) {
  const h = await createHotelWithStaff(ctx.deps);
  const { rooms, group } = await createRooms(ctx.deps, h.hotel.id, names, { groupName: 'Floor 1' });
  return { ...h, rooms, group: group! };
}

function checkIn(h: Hotel, roomId: number, extra: Record<string, unknown> = {}) {
  return api.mutation(
    'stay.checkIn',
    {
      roomId,
      checkInAt: hours(-0.5).toISOString(),
      expectedCheckOutAt: hours(24).toISOString(),
      guests: [{ name: `Guest ${randomUUID().slice(0, 6)}` }],
      idempotencyKey: randomUUID(),
      acknowledge: ['room_dirty', 'guest_in_other_room'],
      ...extra,
    },
    { token: h.staffToken },
  );
}

/** A reservation taken at the desk (`stay.reserve`). */
function reserve(h: Hotel, roomId: number, from: Date, to: Date) {
  return api.mutation(
    'stay.reserve',
    {
      roomId,
      checkInAt: from.toISOString(),
      expectedCheckOutAt: to.toISOString(),
      guests: [{ name: `Booked ${randomUUID().slice(0, 6)}` }],
      idempotencyKey: randomUUID(),
    },
    { token: h.staffToken },
  );
}

const statusOf = async (h: Hotel, roomId: number) => (await list(h.ownerToken)).items.find((r) => r.id === roomId)?.status;

describe('room board counts kept by the database', () => {
  it('follow check-in, check-out, housekeeping and maintenance', async () => {
    const h = await hotelWithRooms();
    const [a, b, c] = h.rooms as [(typeof h.rooms)[number], (typeof h.rooms)[number], (typeof h.rooms)[number]];
    await expectBoardRight(h.hotel.id, h.ownerToken);
    const stay = (await checkIn(h, a.id)).data!;
    expect(await statusOf(h, a.id)).toBe('checked_in');
    await expectBoardRight(h.hotel.id, h.ownerToken);
    expect((await api.mutation('stay.checkOut', { stayId: stay.id }, { token: h.staffToken })).status).toBe(200);
    expect(await statusOf(h, a.id)).toBe('dirty');
    await expectBoardRight(h.hotel.id, h.ownerToken);
    const set = (roomId: number, target: TRoomStatusTarget) =>
      api.mutation('room.setStatus', { roomId, target }, { token: h.staffToken }).then((r) => expect(r.status).toBe(200));
    await set(a.id, 'clean');
    await set(b.id, 'dirty');
    await set(c.id, 'out_of_order');
    expect(await statusOf(h, c.id)).toBe('maintain');
    await expectBoardRight(h.hotel.id, h.ownerToken);
    await set(b.id, 'inspected');
    await set(c.id, 'out_of_service');
    await expectBoardRight(h.hotel.id, h.ownerToken);
    await set(c.id, 'back_in_service');
    expect((await list(h.ownerToken)).counts).toEqual({ vacant: 6, reserved: 0, checked_in: 0, dirty: 0, maintain: 0 });
    await expectBoardRight(h.hotel.id, h.ownerToken);
  });

  it('follow reservations: one from tomorrow leaves the room free tonight, one of today holds it; its day come before its job ran; a check-in dated ahead whose time came before its job; cancelled ones', async () => {
    const h = await hotelWithRooms();
    // The hotel's clock at noon: "later today" and "tomorrow" whatever the hour the test runs.
    await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone: zoneAtLocalHour(12) } });
    const [a, b, c, d] = h.rooms as [(typeof h.rooms)[number], (typeof h.rooms)[number], (typeof h.rooms)[number], (typeof h.rooms)[number]];
    const tomorrow = (await reserve(h, a.id, hours(30), hours(50))).data!;
    expect(tomorrow.state).toBe('reserved');
    expect(await statusOf(h, a.id)).toBe('vacant');
    expect((await list(h.ownerToken)).items.find((r) => r.id === a.id)?.currentStay?.id).toBe(tomorrow.id);
    const today = (await reserve(h, b.id, hours(3), hours(20))).data!;
    expect(await statusOf(h, b.id)).toBe('reserved');
    await expectBoardRight(h.hotel.id, h.ownerToken);
    // Cancelled before arrival: the room is free again.
    for (const r of [tomorrow, today])
      expect((await api.mutation('stay.cancelReservation', { stayId: r.id, reason: 'guest_request' }, { token: h.staffToken })).status).toBe(200);
    expect(await statusOf(h, b.id)).toBe('vacant');
    await expectBoardRight(h.hotel.id, h.ownerToken);
    // A reservation whose arrival day has come while its `due` job has not run yet (the hotel's
    // clock moved to 10:00: the arrival at about 01:00 tomorrow is now at 23:00 today): stored as
    // not due, the rule says reserved; the board shows the rule until the job writes it.
    const late = (await reserve(h, c.id, hours(13), hours(30))).data!;
    expect(await statusOf(h, c.id)).toBe('vacant');
    await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone: zoneAtLocalHour(10) } });
    expect((await ctx.deps.prisma.room.findUniqueOrThrow({ where: { id: c.id } })).status).toBe('vacant');
    expect(await statusOf(h, c.id)).toBe('reserved');
    expect((await api.query('room.get', { id: c.id }, { token: h.ownerToken })).data!.status).toBe('reserved');
    await expectBoardRight(h.hotel.id, h.ownerToken, { onSchedule: false });
    expect(await dueOnTime(jobContext(ctx.deps, 'stay.due', 'test-due'), { stayId: late.id, version: 0 })).toBe(true);
    expect((await ctx.deps.prisma.room.findUniqueOrThrow({ where: { id: c.id } })).status).toBe('reserved');
    await expectBoardRight(h.hotel.id, h.ownerToken);
    // A check-in dated ahead whose check-in time has passed while its `arrive` job has not run yet:
    // the stored state says reserved, the rule says a guest is in the room; the board shows the rule.
    const due = await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: d.id, status: 'reserved', checkInAt: hours(-1), expectedCheckOutAt: hours(20) });
    expect((await ctx.deps.prisma.room.findUniqueOrThrow({ where: { id: d.id } })).status).toBe('reserved');
    expect(await statusOf(h, d.id)).toBe('checked_in');
    expect((await api.query('room.get', { id: d.id }, { token: h.ownerToken })).data!.status).toBe('checked_in');
    await expectBoardRight(h.hotel.id, h.ownerToken, { onSchedule: false });
    // The arrival, as the job writes it.
    await ctx.deps.prisma.stay.updateMany({ where: { id: due.id, status: 'reserved' }, data: { status: 'in_house' } });
    expect((await ctx.deps.prisma.room.findUniqueOrThrow({ where: { id: d.id } })).status).toBe('checked_in');
    await expectBoardRight(h.hotel.id, h.ownerToken);
  });

  it('follow a reservation whose guest does not come: reserved past its check-in time (not checked in), released at its no-show time', async () => {
    const h = await hotelWithRooms();
    await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone: zoneAtLocalHour(12) } });
    const [a] = h.rooms as [(typeof h.rooms)[number]];
    const r = (await reserve(h, a.id, hours(1), hours(20))).data!;
    // Its check-in time passed (written as it would stand an hour later): still expected, not in the room.
    await ctx.deps.prisma.stay.update({ where: { id: r.id }, data: { checkInAt: hours(-1) } });
    expect(await statusOf(h, a.id)).toBe('reserved');
    await expectBoardRight(h.hotel.id, h.ownerToken);
    expect(await noShowOnTime(jobContext(ctx.deps, 'stay.noShow', 'test-no-show'), { stayId: r.id, version: 0 }, new Date(Date.parse(r.noShowAt!) + 1))).toBe(
      true,
    );
    expect(await statusOf(h, a.id)).toBe('vacant');
    await expectBoardRight(h.hotel.id, h.ownerToken);
  });

  it('follow expiry and renewal (an expired stay still has its guest in the room)', async () => {
    const h = await hotelWithRooms();
    const [a] = h.rooms as [(typeof h.rooms)[number]];
    const stay = await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: a.id, checkInAt: hours(-30), expectedCheckOutAt: hours(-1) });
    await expectBoardRight(h.hotel.id, h.ownerToken);
    // The expiry, as the job and the sweep write it.
    await ctx.deps.prisma.stay.updateMany({ where: { id: stay.id, status: { in: ['in_house', 'reserved'] } }, data: { status: 'expired' } });
    expect(await statusOf(h, a.id)).toBe('checked_in');
    await expectBoardRight(h.hotel.id, h.ownerToken);
    const renewed = await api.mutation('stay.renew', { stayId: stay.id, expectedCheckOutAt: hours(40).toISOString() }, { token: h.staffToken });
    expect(renewed.status).toBe(200);
    expect((await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: stay.id } })).status).toBe('in_house');
    expect(await statusOf(h, a.id)).toBe('checked_in');
    await expectBoardRight(h.hotel.id, h.ownerToken);
    expect((await api.mutation('stay.checkOut', { stayId: stay.id }, { token: h.staffToken })).status).toBe(200);
    await expectBoardRight(h.hotel.id, h.ownerToken);
  });

  it('follow a room change: the old room dirty, the new one checked in', async () => {
    const h = await hotelWithRooms();
    const [a, b] = h.rooms as [(typeof h.rooms)[number], (typeof h.rooms)[number]];
    const stay = (await checkIn(h, a.id)).data!;
    const moved = await api.mutation('stay.changeRoom', { stayId: stay.id, targetRoomId: b.id }, { token: h.staffToken });
    expect(moved.status).toBe(200);
    expect(await statusOf(h, a.id)).toBe('dirty');
    expect(await statusOf(h, b.id)).toBe('checked_in');
    await expectBoardRight(h.hotel.id, h.ownerToken);
    // A reservation moved before it begins: the old room is free, the new one reserved.
    const [, , c, d] = h.rooms as [unknown, unknown, (typeof h.rooms)[number], (typeof h.rooms)[number]];
    await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone: zoneAtLocalHour(12) } });
    const reservation = (await reserve(h, c.id, hours(3), hours(20))).data!;
    expect((await api.mutation('stay.changeRoom', { stayId: reservation.id, targetRoomId: d.id }, { token: h.staffToken })).status).toBe(200);
    expect(await statusOf(h, c.id)).toBe('vacant');
    expect(await statusOf(h, d.id)).toBe('reserved');
    await expectBoardRight(h.hotel.id, h.ownerToken);
  });

  it('leave a deleted room out, whatever its status was', async () => {
    const h = await hotelWithRooms();
    const [a, b] = h.rooms as [(typeof h.rooms)[number], (typeof h.rooms)[number]];
    await api.mutation('room.setStatus', { roomId: a.id, target: 'dirty' }, { token: h.staffToken });
    await api.mutation('room.setStatus', { roomId: b.id, target: 'out_of_order' }, { token: h.staffToken });
    for (const room of [a, b]) expect((await api.mutation('room.delete', { roomId: room.id }, { token: h.ownerToken })).status).toBe(200);
    const board = await expectBoardRight(h.hotel.id, h.ownerToken);
    expect(board.counts).toEqual({ vacant: 4, reserved: 0, checked_in: 0, dirty: 0, maintain: 0 });
    // A deleted room changed afterwards (by anyone) still does not count.
    await ctx.deps.prisma.room.update({ where: { id: a.id }, data: { cleanStatus: 'clean', groupId: null } });
    await expectBoardRight(h.hotel.id, h.ownerToken);
  });

  it('follow a room moved between groups, a group renamed or re-sorted, and a group deleted with its rooms moved', async () => {
    const h = await hotelWithRooms(['101', '102', '103', '201', '202']);
    const [r101, r102, , r201, r202] = h.rooms as [
      (typeof h.rooms)[number],
      (typeof h.rooms)[number],
      unknown,
      (typeof h.rooms)[number],
      (typeof h.rooms)[number],
    ];
    const second = (await api.mutation('roomGroup.create', { name: 'Floor 2', sort: 2 }, { token: h.ownerToken })).data!;
    for (const room of [r201, r202])
      expect((await api.mutation('room.update', { id: room.id, name: room.name, groupId: second.id }, { token: h.ownerToken })).status).toBe(200);
    await checkIn(h, r101.id);
    await checkIn(h, r201.id);
    await api.mutation('room.setStatus', { roomId: r202.id, target: 'dirty' }, { token: h.staffToken });
    const byGroup = async (groupId: number) => (await list(h.ownerToken, { groupId })).counts;
    expect(await byGroup(h.group.id)).toEqual({ vacant: 2, reserved: 0, checked_in: 1, dirty: 0, maintain: 0 });
    expect(await byGroup(second.id)).toEqual({ vacant: 0, reserved: 0, checked_in: 1, dirty: 1, maintain: 0 });
    await expectBoardRight(h.hotel.id, h.ownerToken);
    // The default order follows the group's sort, then name: Floor 1 (sort 1) first.
    const names = async () => (await list(h.ownerToken)).items.map((r) => r.name);
    expect(await names()).toEqual(['101', '102', '103', '201', '202']);
    expect((await api.mutation('roomGroup.update', { id: second.id, name: 'Floor 2', sort: 0 }, { token: h.ownerToken })).status).toBe(200);
    expect(await names()).toEqual(['201', '202', '101', '102', '103']);
    expect((await api.mutation('roomGroup.update', { id: second.id, name: 'Annex', sort: 1 }, { token: h.ownerToken })).status).toBe(200);
    // Same sort: by group name, Annex before Floor 1; the board shows the new name.
    const page = await list(h.ownerToken);
    expect(page.items.map((r) => [r.name, r.groupName])).toEqual([
      ['201', 'Annex'],
      ['202', 'Annex'],
      ['101', 'Floor 1'],
      ['102', 'Floor 1'],
      ['103', 'Floor 1'],
    ]);
    // A checked-in room moved to the other group takes its count along.
    expect((await api.mutation('room.update', { id: r101.id, name: '101', groupId: second.id }, { token: h.ownerToken })).status).toBe(200);
    expect(await byGroup(second.id)).toEqual({ vacant: 0, reserved: 0, checked_in: 2, dirty: 1, maintain: 0 });
    expect(await byGroup(h.group.id)).toEqual({ vacant: 2, reserved: 0, checked_in: 0, dirty: 0, maintain: 0 });
    expect((await list(h.ownerToken, { groupId: second.id })).items.map((r) => r.name)).toEqual(['101', '201', '202']);
    // The group deleted, its rooms moved to the first; then that one deleted, its rooms left without a group.
    expect((await api.mutation('roomGroup.delete', { id: second.id, moveRoomsTo: h.group.id }, { token: h.ownerToken })).status).toBe(200);
    expect(await byGroup(h.group.id)).toEqual({ vacant: 2, reserved: 0, checked_in: 2, dirty: 1, maintain: 0 });
    expect((await api.mutation('roomGroup.delete', { id: h.group.id, moveRoomsTo: 'none' }, { token: h.ownerToken })).status).toBe(200);
    const rooms = await ctx.deps.prisma.room.findMany({ where: { hotelId: h.hotel.id }, select: { groupId: true, groupSort: true, groupName: true } });
    expect(rooms.every((r) => r.groupId === null && r.groupSort === null && r.groupName === null)).toBe(true);
    // (room.update set the moved rooms' own order to 0, the form's default.)
    expect(await names()).toEqual(['101', '201', '202', '102', '103']);
    void r102;
    await expectBoardRight(h.hotel.id, h.ownerToken);
  });

  it('stay right with concurrent check-ins, check-outs and housekeeping', async () => {
    const names = Array.from({ length: 24 }, (_, i) => `C${String(i).padStart(2, '0')}`);
    const h = await hotelWithRooms(names);
    const rooms = h.rooms;
    const results = await Promise.all(rooms.slice(0, 20).map((r) => checkIn(h, r.id)));
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    expect((await list(h.ownerToken)).counts).toEqual({ vacant: 4, reserved: 0, checked_in: 20, dirty: 0, maintain: 0 });
    await expectBoardRight(h.hotel.id, h.ownerToken);
    // Check-outs (checked in -> vacant -> dirty in one transaction) racing housekeeping on other
    // rooms (dirty -> vacant) and more check-ins: the pattern that deadlocks counters updated in place.
    await Promise.all(rooms.slice(20).map((r) => api.mutation('room.setStatus', { roomId: r.id, target: 'dirty' }, { token: h.staffToken })));
    const ops = await Promise.all([
      ...results.slice(0, 10).map((r) => api.mutation('stay.checkOut', { stayId: r.data!.id }, { token: h.staffToken })),
      ...rooms.slice(20, 22).map((r) => api.mutation('room.setStatus', { roomId: r.id, target: 'clean' }, { token: h.staffToken })),
      ...rooms.slice(22).map((r) => checkIn(h, r.id)),
    ]);
    expect(ops.map((r) => r.status)).toEqual(ops.map(() => 200));
    expect((await list(h.ownerToken)).counts).toEqual({ vacant: 2, reserved: 0, checked_in: 12, dirty: 10, maintain: 0 });
    await expectBoardRight(h.hotel.id, h.ownerToken);
  });

  it('stay right under many concurrent transactions straight on the database, and fold the counts log', async () => {
    const names = Array.from({ length: 40 }, (_, i) => `D${String(i).padStart(2, '0')}`);
    const h = await hotelWithRooms(names);
    const ids = h.rooms.map((r) => r.id);
    const pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 8 });
    // The log's last row before the transactions: a fold replaces every row of the hotel.
    const [before] = await ctx.deps.prisma.$queryRaw<{ last: bigint }[]>`SELECT last_value AS last FROM "RoomStatusCount_id_seq"`;
    try {
      let changes = 0;
      // One clock for every period: periods computed from Date.now() at different moments overlap
      // by the milliseconds between them when their hours are adjacent (one room picked twice).
      const base = Date.now();
      // 8 connections, each 30 transactions of 1-3 random changes of random rooms: stays begun,
      // reserved, ended, expired; rooms dirtied, cleaned, taken out of order and back.
      await Promise.all(
        Array.from({ length: 8 }, async (_, worker) => {
          const client = await pool.connect();
          try {
            for (let t = 0; t < 30; t++) {
              await client.query('BEGIN');
              try {
                // The rooms first, locked in id order, as every write of the console does (db/transaction.ts).
                const picked = Array.from({ length: 1 + ((worker + t) % 3) }, () => ids[Math.floor(Math.random() * ids.length)]!).sort((x, y) => x - y);
                await client.query(`SELECT 1 FROM "Room" WHERE "id" = ANY($1::int[]) ORDER BY "id" FOR NO KEY UPDATE`, [picked]);
                for (const [k, room] of picked.entries()) {
                  const pick = Math.floor(Math.random() * 7);
                  if (pick === 0) await client.query(`UPDATE "Room" SET "cleanStatus" = 'dirty' WHERE "id" = $1`, [room]);
                  else if (pick === 1) await client.query(`UPDATE "Room" SET "cleanStatus" = 'clean' WHERE "id" = $1`, [room]);
                  else if (pick === 2)
                    await client.query(
                      `UPDATE "Room" SET "maintenance" = CASE WHEN "maintenance" = 'none' THEN 'out_of_order'::"MaintenanceStatus" ELSE 'none' END WHERE "id" = $1`,
                      [room],
                    );
                  else if (pick === 3 || pick === 4) {
                    // A stay of its own period (no overlap with any other), begun or to come.
                    const start = base + (pick === 3 ? -1 : 1) * (1 + worker * 1000 + t * 10 + k) * 3_600_000;
                    await client.query(
                      `INSERT INTO "Stay" ("hotelId", "roomId", "status", "checkInAt", "expectedCheckOutAt", "updatedAt") VALUES ($1, $2, $3, $4, $5, now())`,
                      [h.hotel.id, room, pick === 3 ? 'in_house' : 'reserved', new Date(start), new Date(start + 3_600_000)],
                    );
                  } else if (pick === 5) {
                    await client.query(
                      `UPDATE "Stay" SET "status" = 'checked_out' WHERE "id" = (SELECT "id" FROM "Stay" WHERE "roomId" = $1 AND "status" IN ('in_house', 'expired') ORDER BY "id" LIMIT 1)`,
                      [room],
                    );
                  } else {
                    await client.query(
                      `UPDATE "Stay" SET "status" = CASE WHEN "status" = 'reserved' THEN 'ended'::"StayStatus" ELSE 'expired' END WHERE "id" = (SELECT "id" FROM "Stay" WHERE "roomId" = $1 AND "status" IN ('in_house', 'reserved') ORDER BY "id" LIMIT 1)`,
                      [room],
                    );
                  }
                  changes += 1;
                }
                await client.query('COMMIT');
              } catch (error) {
                await client.query('ROLLBACK');
                throw error;
              }
            }
          } finally {
            client.release();
          }
        }),
      );
      expect(changes).toBeGreaterThan(400);
    } finally {
      await pool.end();
    }
    // Stays of the past (in house) and of the future (reserved) only: the stored states are on schedule.
    await expectBoardRight(h.hotel.id, h.ownerToken);
    const rooms = await ctx.deps.prisma.room.findMany({ where: { hotelId: h.hotel.id }, select: { id: true, inHouseStays: true, reservedStays: true } });
    const active = await ctx.deps.prisma.stay.groupBy({
      by: ['roomId', 'status', 'arrivalDue'],
      where: { hotelId: h.hotel.id, status: { in: ['in_house', 'expired', 'reserved'] } },
      _count: true,
    });
    for (const room of rooms) {
      const of = (states: string[], due?: boolean) =>
        active
          .filter((a) => a.roomId === room.id && states.includes(a.status) && (due === undefined || a.arrivalDue === due))
          .reduce((n, a) => n + a._count, 0);
      // A reservation counts once its arrival day has come (the hotel's): from tomorrow on, it does not hold the room tonight.
      expect([room.inHouseStays, room.reservedStays]).toEqual([of(['in_house', 'expired']), of(['reserved'], true)]);
    }
    // Folded while they ran: no row logged before them is left. (A fold comes with one row in 64
    // of the whole log, whichever hotel wrote it, so how many rows are left after the last one is
    // chance: 274 were once, on a loaded machine; a phase of several hundred rows without one fold
    // is a chance of a few in a million.)
    expect(await ctx.deps.prisma.roomStatusCount.count({ where: { hotelId: h.hotel.id, id: { lte: before!.last } } })).toBe(0);
  });

  it('stay right through bulk writes, which the next small writes fold', async () => {
    const h = await hotelWithRooms(['B1']);
    // 300 rooms in one statement, then moved to no group and dirtied in one statement each.
    await ctx.deps.prisma.room.createMany({ data: Array.from({ length: 300 }, (_, i) => ({ hotelId: h.hotel.id, groupId: h.group.id, name: `Bulk ${i}` })) });
    await ctx.deps.prisma.room.updateMany({ where: { hotelId: h.hotel.id, name: { startsWith: 'Bulk 1' } }, data: { groupId: null, cleanStatus: 'dirty' } });
    const board = await expectBoardRight(h.hotel.id, h.ownerToken);
    expect(board.counts).toEqual({ vacant: 190, reserved: 0, checked_in: 0, dirty: 111, maintain: 0 });
    expect((await list(h.ownerToken, { groupId: h.group.id })).counts).toEqual({ vacant: 190, reserved: 0, checked_in: 0, dirty: 0, maintain: 0 });
    const logged = () => ctx.deps.prisma.roomStatusCount.count({ where: { hotelId: h.hotel.id } });
    expect(await logged()).toBeGreaterThan(150);
    const b1 = h.rooms[0]!;
    // A small write folds when its row is one of every 128th of the log, whose ids every hotel shares:
    // written one after another here, other files' writes at the same time moved them past the fold
    // (CI, three files at a time). The sequence is set just before the next fold before each write.
    for (let i = 0; i < 20 && (await logged()) > 100; i++) {
      await ctx.deps.prisma.$executeRawUnsafe(`SELECT setval('"RoomStatusCount_id_seq"', (last_value / 128 + 1) * 128 - 1) FROM "RoomStatusCount_id_seq"`);
      await ctx.deps.prisma.room.update({ where: { id: b1.id }, data: { cleanStatus: i % 2 ? 'clean' : 'dirty' } });
    }
    expect(await logged()).toBeLessThan(100);
    await expectBoardRight(h.hotel.id, h.ownerToken);
  });

  it('count a member limited to some rooms over those rooms only', async () => {
    const h = await hotelWithRooms();
    const [a, b, c] = h.rooms as [(typeof h.rooms)[number], (typeof h.rooms)[number], (typeof h.rooms)[number]];
    const account = await createAccount(ctx.deps, {});
    const membership = await ctx.deps.prisma.membership.create({ data: { accountId: account.id, hotelId: h.hotel.id, role: 'staff', allRooms: false } });
    await ctx.deps.prisma.membershipRoom.createMany({ data: [a, b].map((r) => ({ hotelId: h.hotel.id, membershipId: membership.id, roomId: r.id })) });
    const session = await createSession(ctx.deps, { accountId: account.id, hotelId: h.hotel.id, kind: 'web', meta: testMeta() });
    await checkIn(h, a.id);
    await api.mutation('room.setStatus', { roomId: c.id, target: 'dirty' }, { token: h.staffToken });
    const board = await expectBoardRight(h.hotel.id, session.token, { roomIds: [a.id, b.id] });
    expect(board.counts).toEqual({ vacant: 1, reserved: 0, checked_in: 1, dirty: 0, maintain: 0 });
    await expectBoardRight(h.hotel.id, h.ownerToken);
  });

  it('search the same with and without trigram indexes (short and long text, LIKE wildcards as plain characters)', async () => {
    const h = await hotelWithRooms(['A_1%', 'AB1', 'Sea 7', '301']);
    const [odd, ab, sea] = h.rooms as [(typeof h.rooms)[number], (typeof h.rooms)[number], (typeof h.rooms)[number]];
    await ctx.deps.prisma.room.update({ where: { id: ab.id }, data: { remarkName: 'Corner suite' } });
    await checkIn(h, sea.id, { guests: [{ name: 'Ada Lovelace', mobile: '13912345678' }] });
    const search = async (text: string, status?: string) => {
      const page = await list(h.ownerToken, { search: text, sort: 'name_asc', ...(status ? { status } : {}) });
      return { names: page.items.map((r) => r.name), total: page.total };
    };
    expect(await search('_1%')).toEqual({ names: ['A_1%'], total: 1 });
    expect(await search('_1')).toEqual({ names: ['A_1%'], total: 1 });
    expect(await search('%')).toEqual({ names: ['A_1%'], total: 1 });
    expect(await search('a%')).toEqual({ names: [], total: 0 });
    expect(await search('b1')).toEqual({ names: ['AB1'], total: 1 });
    expect(await search('ab1')).toEqual({ names: ['AB1'], total: 1 });
    expect(await search('corner')).toEqual({ names: ['AB1'], total: 1 });
    expect(await search('co')).toEqual({ names: ['AB1'], total: 1 });
    expect(await search('LOVELACE')).toEqual({ names: ['Sea 7'], total: 1 });
    expect(await search('345678')).toEqual({ names: ['Sea 7'], total: 1 });
    expect(await search('lovelace', 'checked_in')).toEqual({ names: ['Sea 7'], total: 1 });
    expect(await search('lovelace', 'vacant')).toEqual({ names: [], total: 0 });
    expect((await list(h.ownerToken, { search: 'a' })).counts).toEqual({ vacant: 2, reserved: 0, checked_in: 1, dirty: 0, maintain: 0 });
    void odd;
  });

  it('forget the counts of a deleted hotel', async () => {
    const h = await hotelWithRooms();
    await checkIn(h, h.rooms[0]!.id);
    expect(await ctx.deps.prisma.roomStatusCount.count({ where: { hotelId: h.hotel.id } })).toBeGreaterThan(0);
    // Everything of the hotel first that its deletion does not cascade to: the audit log, and the
    // append-only ledger and its journal (the check-in posted its room charge), whose rules are set aside for this.
    await ctx.deps.prisma.$executeRaw`DELETE FROM "AuditLog" WHERE "hotelId" = ${h.hotel.id}`;
    await ctx.deps.prisma.$transaction([
      ctx.deps.prisma.$executeRaw`SET LOCAL session_replication_role = replica`,
      ctx.deps.prisma.$executeRaw`DELETE FROM "JournalLine" WHERE "hotelId" = ${h.hotel.id}`,
      ctx.deps.prisma.$executeRaw`DELETE FROM "JournalEntry" WHERE "hotelId" = ${h.hotel.id}`,
      ctx.deps.prisma.$executeRaw`DELETE FROM "OrderEntry" WHERE "hotelId" = ${h.hotel.id}`,
      ctx.deps.prisma.$executeRaw`DELETE FROM "Folio" WHERE "hotelId" = ${h.hotel.id}`,
    ]);
    await ctx.deps.prisma.hotel.delete({ where: { id: h.hotel.id } });
    expect(await ctx.deps.prisma.roomStatusCount.count({ where: { hotelId: h.hotel.id } })).toBe(0);
  });

  it('has its triggers in the database', async () => {
    const rows = await ctx.deps.prisma.$queryRaw<{ tgname: string }[]>`
      SELECT t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE NOT t.tgisinternal AND c.relname IN ('Room', 'Stay', 'RoomGroup', 'Hotel') ORDER BY 1`;
    expect(rows.map((r) => r.tgname)).toEqual(
      expect.arrayContaining([
        'Hotel_drop_room_counts',
        'RoomGroup_copy_to_rooms',
        'Room_board_columns',
        'Room_count_status_delete',
        'Room_count_status_insert',
        'Room_count_status_update',
        'Stay_room_occupancy_delete',
        'Stay_room_occupancy_insert',
        'Stay_room_occupancy_update',
      ]),
    );
  });
});

describe('the migration', () => {
  it('fills the board columns and counts of the hotels that were there before it', async () => {
    const mine = '20261122100000_room_board_counts';
    // The migrations before this one, applied to a database of its own.
    const before = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-migrations-'));
    for (const name of fs.readdirSync(MIGRATIONS_DIR)) {
      if (name < mine) fs.cpSync(path.join(MIGRATIONS_DIR, name), path.join(before, name), { recursive: true });
    }
    // This migration alone after them (a later one changes the rule: 20261126170000_desk_reservations, below).
    const through = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-migrations-'));
    fs.cpSync(before, through, { recursive: true });
    fs.cpSync(path.join(MIGRATIONS_DIR, mine), path.join(through, mine), { recursive: true });
    const db = await createScratchDatabase(inject('adminDatabaseUrl'), 'backfill');
    const client = new pg.Client({ connectionString: db.url });
    try {
      await applyMigrations(db.url, { dir: before });
      await client.connect();
      const one = async (sql: string, values: unknown[] = []) => (await client.query(sql, values)).rows[0]!.id;
      const hotel = await one(`INSERT INTO "Hotel" ("name", "updatedAt") VALUES ('Old', now()) RETURNING "id"`);
      const g1 = await one(`INSERT INTO "RoomGroup" ("hotelId", "name", "sort", "updatedAt") VALUES ($1, 'East', 2, now()) RETURNING "id"`, [hotel]);
      const g2 = await one(`INSERT INTO "RoomGroup" ("hotelId", "name", "sort", "updatedAt") VALUES ($1, 'West', 1, now()) RETURNING "id"`, [hotel]);
      const room = (name: string, groupId: number | null, extra = `'clean', 'none', NULL`) =>
        one(
          `INSERT INTO "Room" ("hotelId", "groupId", "name", "cleanStatus", "maintenance", "deletedAt", "updatedAt") VALUES ($1, $2, $3, ${extra}, now()) RETURNING "id"`,
          [hotel, groupId, name],
        );
      const stay = (roomId: number, status: string, fromHours: number, toHours: number) =>
        client.query(
          `INSERT INTO "Stay" ("hotelId", "roomId", "status", "checkInAt", "expectedCheckOutAt", "updatedAt") VALUES ($1, $2, $3, now() + $4 * interval '1 hour', now() + $5 * interval '1 hour', now())`,
          [hotel, roomId, status, fromHours, toHours],
        );
      const rooms = {
        vacant: await room('V', g1),
        dirty: await room('D', g1, `'dirty', 'none', NULL`),
        maintain: await room('M', g2, `'dirty', 'out_of_order', NULL`),
        inHouse: await room('I', g2, `'dirty', 'none', NULL`),
        expired: await room('E', null),
        reserved: await room('R', null, `'dirty', 'none', NULL`),
        both: await room('B', g1),
        deleted: await room('X', g1, `'dirty', 'none', now()`),
      };
      await stay(rooms.vacant, 'checked_out', -50, -30);
      await stay(rooms.inHouse, 'in_house', -2, 20);
      await stay(rooms.expired, 'expired', -30, -1);
      await stay(rooms.reserved, 'reserved', 30, 50);
      await stay(rooms.both, 'in_house', -2, 20);
      await stay(rooms.both, 'reserved', 30, 50);
      expect((await applyMigrations(db.url, { dir: through })).applied).toContain(mine);
      const { rows } = await client.query(
        `SELECT "id", "status"::text, "inHouseStays", "reservedStays", "groupSort", "groupName" FROM "Room" WHERE "hotelId" = $1`,
        [hotel],
      );
      const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
      expect(Object.fromEntries(Object.entries(rooms).map(([k, id]) => [k, byId[id]!.status]))).toEqual({
        vacant: 'vacant',
        dirty: 'dirty',
        maintain: 'maintain',
        inHouse: 'checked_in',
        expired: 'checked_in',
        reserved: 'reserved',
        both: 'checked_in',
        deleted: 'dirty',
      });
      expect([byId[rooms.both]!.inHouseStays, byId[rooms.both]!.reservedStays]).toEqual([1, 1]);
      expect([byId[rooms.vacant]!.groupSort, byId[rooms.vacant]!.groupName, byId[rooms.maintain]!.groupName, byId[rooms.expired]!.groupName]).toEqual([
        2,
        'East',
        'West',
        null,
      ]);
      const counts = await client.query(
        `SELECT "groupId", "status"::text, sum("n")::int AS n FROM "RoomStatusCount" WHERE "hotelId" = $1 GROUP BY 1, 2 HAVING sum("n") <> 0 ORDER BY 1, 2`,
        [hotel],
      );
      expect(counts.rows).toEqual(
        [
          { groupId: g1, status: 'checked_in', n: 1 },
          { groupId: g1, status: 'dirty', n: 1 },
          { groupId: g1, status: 'vacant', n: 1 },
          { groupId: g2, status: 'checked_in', n: 1 },
          { groupId: g2, status: 'maintain', n: 1 },
          { groupId: null, status: 'checked_in', n: 1 },
          { groupId: null, status: 'reserved', n: 1 },
        ].sort((a, b) => (a.groupId ?? Infinity) - (b.groupId ?? Infinity) || a.status.localeCompare(b.status)),
      );
    } finally {
      await client.end().catch(() => {});
      await db.drop();
      fs.rmSync(before, { recursive: true, force: true });
      fs.rmSync(through, { recursive: true, force: true });
    }
  });

  it('(20261126170000_desk_reservations) counts a reservation only from its arrival day, for the hotels that were there before it', async () => {
    const mine = '20261126170000_desk_reservations';
    const before = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-migrations-'));
    for (const name of fs.readdirSync(MIGRATIONS_DIR)) {
      if (name < mine) fs.cpSync(path.join(MIGRATIONS_DIR, name), path.join(before, name), { recursive: true });
    }
    const db = await createScratchDatabase(inject('adminDatabaseUrl'), 'reservations');
    const client = new pg.Client({ connectionString: db.url });
    try {
      await applyMigrations(db.url, { dir: before });
      await client.connect();
      const one = async (sql: string, values: unknown[] = []) => (await client.query(sql, values)).rows[0]!.id;
      // Noon at the hotel: a reservation in 3 hours arrives today, one in 30 hours tomorrow.
      const hotel = await one(`INSERT INTO "Hotel" ("name", "timeZone", "updatedAt") VALUES ('Old', $1, now()) RETURNING "id"`, [zoneAtLocalHour(12)]);
      const room = (name: string) => one(`INSERT INTO "Room" ("hotelId", "name", "updatedAt") VALUES ($1, $2, now()) RETURNING "id"`, [hotel, name]);
      const stay = (roomId: number, fromHours: number, toHours: number) =>
        one(
          `INSERT INTO "Stay" ("hotelId", "roomId", "status", "checkInAt", "expectedCheckOutAt", "updatedAt") VALUES ($1, $2, 'reserved', now() + $3 * interval '1 hour', now() + $4 * interval '1 hour', now()) RETURNING "id"`,
          [hotel, roomId, fromHours, toHours],
        );
      const [today, tomorrow] = [await room('T'), await room('N')];
      const [todayStay, tomorrowStay] = [await stay(today, 3, 20), await stay(tomorrow, 30, 50)];
      expect(
        (await client.query(`SELECT "status"::text FROM "Room" WHERE "id" = ANY($1::int[]) ORDER BY "id"`, [[today, tomorrow]])).rows.map((r) => r.status),
      ).toEqual(['reserved', 'reserved']);
      expect((await applyMigrations(db.url)).applied).toContain(mine);
      const rooms = await client.query(`SELECT "id", "status"::text, "reservedStays" FROM "Room" WHERE "hotelId" = $1 ORDER BY "id"`, [hotel]);
      expect(rooms.rows.map((r) => [r.id, r.status, r.reservedStays])).toEqual([
        [today, 'reserved', 1],
        [tomorrow, 'vacant', 0],
      ]);
      const due = await client.query(`SELECT "id", "arrivalDue" FROM "Stay" WHERE "hotelId" = $1 ORDER BY "id"`, [hotel]);
      expect(due.rows.map((r) => [r.id, r.arrivalDue])).toEqual([
        [todayStay, true],
        [tomorrowStay, false],
      ]);
      const counts = await client.query(
        `SELECT "status"::text, sum("n")::int AS n FROM "RoomStatusCount" WHERE "hotelId" = $1 GROUP BY 1 HAVING sum("n") <> 0 ORDER BY 1`,
        [hotel],
      );
      expect(counts.rows).toEqual([
        { status: 'reserved', n: 1 },
        { status: 'vacant', n: 1 },
      ]);
    } finally {
      await client.end().catch(() => {});
      await db.drop();
      fs.rmSync(before, { recursive: true, force: true });
    }
  });
});
