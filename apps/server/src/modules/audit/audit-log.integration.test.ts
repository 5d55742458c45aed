import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobContext } from '../../context';
import { createAccount, createHotelWithStaff, createRooms, hours, insertStay } from '../../test/factories';
import { createTestContext, testMeta, type TestContext } from '../../test/harness';
import { legacyClient } from '../../test/legacy-client';
import { trpcClient } from '../../test/trpc-client';
import { createSession } from '../auth/session.service';
import { AUDIT_COUNT_CAP, AUDIT_COUNT_FIRST, auditCountCap } from './audit-log';
import { recordAudit } from './audit.service';

/**
 * The audit log viewer (audit.list, audit.actors): an action just done through the console or the
 * legacy protocol is listed first with its actor, target, before and after, address and face; the
 * filters (actor type and account, action and those under it, target, face, the hotel's days) find
 * what they say and nothing else; only the hotel's own entries, only for owners and administrators.
 */
let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;
let legacy: ReturnType<typeof legacyClient>;

beforeAll(async () => {
  ctx = await createTestContext({ locks: null });
  api = trpcClient(ctx.app, { ip: '203.0.113.7' });
  legacy = legacyClient(ctx.app, ctx.config, { ip: '203.0.113.8' });
});

afterAll(async () => {
  await ctx?.close();
});

async function data<T>(promise: Promise<{ data?: T; error?: unknown }>): Promise<T> {
  const result = await promise;
  if (result.data === undefined) throw new Error(JSON.stringify(result.error));
  return result.data;
}

describe('the audit log', () => {
  it('lists a room renamed in the console first, with who, what, before and after, address and face; and filters by every field', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['Old name', 'Other']);
    const [room, other] = rooms as [(typeof rooms)[0], (typeof rooms)[0]];
    const owner = await ctx.deps.prisma.account.findUniqueOrThrow({ where: { id: h.owner.id } });
    const list = (input: Parameters<typeof api.query<'audit.list'>>[1] = {}) => data(api.query('audit.list', input, { token: h.ownerToken }));

    await data(api.mutation('room.update', { id: room.id, name: 'New name' }, { token: h.ownerToken }));
    await data(api.mutation('roomGroup.create', { name: 'Audit group', sort: 1 }, { token: h.ownerToken }));
    const legacyToken = (await createSession(ctx.deps, { accountId: h.owner.id, hotelId: h.hotel.id, kind: 'legacy', meta: testMeta() })).token;
    expect((await legacy.call('room/setRoomStatus', { room_id: other.id, status: 'dirty' }, { token: legacyToken })).errno).toBe(0);
    const stay = await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: other.id, checkInAt: hours(-30), expectedCheckOutAt: hours(-1), status: 'expired' });
    await recordAudit(ctx.deps.prisma, jobContext(ctx.deps, 'stay.expire', 'job:1'), {
      action: 'stay.expire',
      hotelId: h.hotel.id,
      entityType: 'Stay',
      entityId: stay.id,
      after: { status: 'expired' },
    });
    await recordAudit(
      ctx.deps.prisma,
      { deps: ctx.deps, meta: testMeta({ ip: '198.51.100.9' }) },
      { action: 'auth.login.failure', hotelId: h.hotel.id, accountId: null, after: { account: 'someone' } },
    );

    const all = await list();
    expect(all.items.map((i) => i.action)).toEqual(['auth.login.failure', 'stay.expire', 'room.status', 'roomGroup.create', 'room.update']);
    expect(all).toMatchObject({ total: 5, totalCapped: false, page: 1, pageSize: 20 });
    const renamed = all.items.find((i) => i.action === 'room.update')!;
    expect(renamed).toMatchObject({
      actor: { type: 'account', accountId: owner.id, name: owner.nickname, mobile: owner.mobile, apiKeyId: null, job: null },
      actionLabel: 'Room details changed',
      target: { type: 'Room', id: String(room.id), label: 'Room New name' },
      before: { name: 'Old name' },
      after: expect.objectContaining({ name: 'New name' }),
      ip: '203.0.113.7',
      channel: 'console',
    });
    expect(Date.now() - Date.parse(renamed.at)).toBeLessThan(60_000);
    expect(all.items.find((i) => i.action === 'room.status')).toMatchObject({
      channel: 'legacy',
      ip: '203.0.113.8',
      target: { type: 'Room', label: 'Room Other' },
      actor: { type: 'account', name: owner.nickname },
    });
    expect(all.items.find((i) => i.action === 'stay.expire')).toMatchObject({
      channel: 'job',
      actor: { type: 'job', job: 'stay.expire', name: 'Automation (stay times)', accountId: null },
      actionLabel: 'Check-out time passed',
      target: { type: 'Stay', label: 'Stay of room Other (Test Guest)' },
      ip: null,
    });
    expect(all.items.find((i) => i.action === 'auth.login.failure')).toMatchObject({
      channel: null,
      actor: { type: 'anonymous', name: null },
      ip: '198.51.100.9',
    });

    const actions = async (input: Parameters<typeof list>[0]) => (await list(input)).items.map((i) => i.action);
    // An action and those under it, never another area that starts with the same letters.
    expect(await actions({ action: 'room' })).toEqual(['room.status', 'room.update']);
    expect(await actions({ action: 'room.' })).toEqual(['room.status', 'room.update']);
    expect(await actions({ action: 'room.update' })).toEqual(['room.update']);
    expect(await actions({ action: 'roomGroup' })).toEqual(['roomGroup.create']);
    expect(await actions({ action: 'roo' })).toEqual([]);
    expect(await actions({ channel: 'legacy' })).toEqual(['room.status']);
    expect(await actions({ channel: 'console' })).toEqual(['roomGroup.create', 'room.update']);
    expect(await actions({ actorType: 'job' })).toEqual(['stay.expire']);
    expect(await actions({ actorType: 'anonymous' })).toEqual(['auth.login.failure']);
    expect(await actions({ actorType: 'api_key' })).toEqual([]);
    expect(await actions({ actorAccountId: owner.id })).toEqual(['room.status', 'roomGroup.create', 'room.update']);
    expect(await actions({ actorAccountId: h.staff.id })).toEqual([]);
    expect(await actions({ entityType: 'Room', entityId: String(room.id) })).toEqual(['room.update']);
    expect(await actions({ entityType: 'Room' })).toEqual(['room.status', 'room.update']);
    expect(await actions({ action: 'room', channel: 'console', actorType: 'account' })).toEqual(['room.update']);

    // Paged newest first.
    const second = await list({ page: 2, pageSize: 2 });
    expect(second.items.map((i) => i.action)).toEqual(['room.status', 'roomGroup.create']);
    expect(second.total).toBe(5);

    // The members and keys the actor filter offers.
    const actors = await data(api.query('audit.actors', undefined, { token: h.ownerToken }));
    expect(actors.accounts.map((a) => a.id).sort()).toEqual([h.owner.id, h.staff.id].sort());
    expect(actors.apiKeys).toEqual([]);
  });

  it("counts the hotel's days in its time zone", async () => {
    const h = await createHotelWithStaff(ctx.deps);
    await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone: 'Asia/Shanghai' } });
    // 17:30 UTC on 1 March is 01:30 on 2 March in Shanghai; 15:30 UTC is still 1 March there.
    await ctx.deps.prisma.auditLog.createMany({
      data: [
        { hotelId: h.hotel.id, actorType: 'account', actorAccountId: h.owner.id, action: 'room.update', createdAt: new Date('2027-03-01T17:30:00Z') },
        { hotelId: h.hotel.id, actorType: 'account', actorAccountId: h.owner.id, action: 'room.delete', createdAt: new Date('2027-03-01T15:30:00Z') },
      ],
    });
    const on = async (from: string, to: string) => (await data(api.query('audit.list', { from, to }, { token: h.ownerToken }))).items.map((i) => i.action);
    expect(await on('2027-03-02', '2027-03-02')).toEqual(['room.update']);
    expect(await on('2027-03-01', '2027-03-01')).toEqual(['room.delete']);
    expect(await on('2027-03-01', '2027-03-02')).toEqual(['room.update', 'room.delete']);
    expect(await on('2027-03-03', '2027-03-04')).toEqual([]);
  });

  it('counts as far as the page needs and says when it stopped: the first pages up to 1,000, then by thousands, never past 10,000', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    await ctx.deps.prisma.$executeRaw`
      INSERT INTO "AuditLog" ("hotelId", "actorType", "action", "createdAt")
      SELECT ${h.hotel.id}, 'job', 'stay.expire', now() - (i || ' seconds')::interval FROM generate_series(1, ${AUDIT_COUNT_CAP + 1}::int) i`;
    const list = (input: Parameters<typeof api.query<'audit.list'>>[1]) => data(api.query('audit.list', input, { token: h.ownerToken }));
    const page = await list({ pageSize: 5 });
    expect(page).toMatchObject({ total: AUDIT_COUNT_FIRST, totalCapped: true });
    expect(page.items).toHaveLength(5);
    // Counted to the next thousand at least 500 past the page's end: the pager always offers 500
    // entries more, and the last page it offers from the first pages (1,000 / 5 = page 200) counts further.
    expect(await list({ pageSize: 5, page: 100 })).toMatchObject({ total: 1_000, totalCapped: true });
    expect(await list({ pageSize: 5, page: 101 })).toMatchObject({ total: 2_000, totalCapped: true });
    const last = await list({ pageSize: 5, page: AUDIT_COUNT_FIRST / 5, action: 'stay' });
    expect(last).toMatchObject({ total: 2_000, totalCapped: true });
    expect(last.items).toHaveLength(5);
    expect(await list({ pageSize: 100, page: 95 })).toMatchObject({ total: AUDIT_COUNT_CAP, totalCapped: true });
    expect(await list({ pageSize: 100, page: 100 })).toMatchObject({ total: AUDIT_COUNT_CAP, totalCapped: true });
    expect([auditCountCap(0, 20), auditCountCap(480, 20), auditCountCap(500, 20), auditCountCap(1480, 20), auditCountCap(9980, 20)]).toEqual([
      1_000,
      1_000,
      2_000,
      2_000,
      AUDIT_COUNT_CAP,
    ]);
    expect((await list({ action: 'room' })).total).toBe(0);
  });

  it('finds an action and those under it as ranges of the action: never an action that goes on with another character', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const stored = ['room', 'room.', 'room.a.b', 'room-x', 'room x', 'room,', 'room/', 'room0', 'roomGroup.create', 'roo.m'];
    await ctx.deps.prisma.$executeRaw`
      INSERT INTO "AuditLog" ("hotelId", "actorType", "action", "createdAt")
      SELECT ${h.hotel.id}, 'job', a, now() - (n || ' seconds')::interval FROM unnest(${stored}::text[]) WITH ORDINALITY AS t(a, n)`;
    const actions = async (action: string) => (await data(api.query('audit.list', { action }, { token: h.ownerToken }))).items.map((i) => i.action);
    expect(await actions('room')).toEqual(['room', 'room.', 'room.a.b']);
    expect(await actions('room.a')).toEqual(['room.a.b']);
    expect(await actions('roo')).toEqual(['roo.m']);
  });

  it("shows hotel B nothing of hotel A's, and is for owners and administrators of the whole hotel only", async () => {
    const a = await createHotelWithStaff(ctx.deps);
    const { rooms } = await createRooms(ctx.deps, a.hotel.id, ['A-room']);
    await data(api.mutation('room.update', { id: rooms[0]!.id, name: 'A-renamed' }, { token: a.ownerToken }));
    const b = await createHotelWithStaff(ctx.deps);
    const ofB = await data(api.query('audit.list', {}, { token: b.ownerToken }));
    expect(ofB.items).toEqual([]);
    expect((await data(api.query('audit.list', { entityType: 'Room', entityId: String(rooms[0]!.id) }, { token: b.ownerToken }))).total).toBe(0);
    expect((await data(api.query('audit.list', { actorAccountId: a.owner.id }, { token: b.ownerToken }))).total).toBe(0);
    const bActors = await data(api.query('audit.actors', undefined, { token: b.ownerToken }));
    expect(bActors.accounts.map((x) => x.id)).not.toContain(a.owner.id);

    // Staff have no audit.read; an administrator limited to some rooms may not read a log naming every room.
    expect((await api.query('audit.list', {}, { token: a.staffToken })).error?.data.code).toBe('FORBIDDEN');
    expect((await api.query('audit.actors', undefined, { token: a.staffToken })).error?.data.code).toBe('FORBIDDEN');
    const admin = await createAccount(ctx.deps, { hotelId: a.hotel.id, role: 'admin' });
    const adminToken = (await createSession(ctx.deps, { accountId: admin.id, hotelId: a.hotel.id, kind: 'web', meta: testMeta() })).token;
    expect((await data(api.query('audit.list', {}, { token: adminToken }))).items.map((i) => i.action)).toEqual(['room.update']);
    await ctx.deps.prisma.membership.updateMany({ where: { accountId: admin.id, hotelId: a.hotel.id }, data: { allRooms: false } });
    expect((await api.query('audit.list', {}, { token: adminToken })).error?.data.code).toBe('FORBIDDEN');
    expect((await api.query('audit.list', {})).error?.data.code).toBe('UNAUTHORIZED');
  });

  it("names a room or a stay by its room only when it is of the entry's own hotel, in the page's order", async () => {
    const a = await createHotelWithStaff(ctx.deps);
    const b = await createHotelWithStaff(ctx.deps);
    const {
      rooms: [roomA],
    } = await createRooms(ctx.deps, a.hotel.id, ['A-101']);
    const {
      rooms: [roomB],
    } = await createRooms(ctx.deps, b.hotel.id, ['B-201']);
    const stayA = await insertStay(ctx.deps, {
      hotelId: a.hotel.id,
      roomId: roomA!.id,
      checkInAt: hours(-3),
      expectedCheckOutAt: hours(20),
      status: 'in_house',
    });
    const stayB = await insertStay(ctx.deps, {
      hotelId: b.hotel.id,
      roomId: roomB!.id,
      checkInAt: hours(-3),
      expectedCheckOutAt: hours(20),
      status: 'in_house',
    });
    // Hotel A's log, newest first as listed: its own room and stay, hotel B's room and stay by id,
    // ids that are not a room's, a target that is no room.
    const targets: [string, string][] = [
      ['Room', String(roomA!.id)],
      ['Stay', String(stayA.id)],
      ['Room', String(roomB!.id)],
      ['Stay', String(stayB.id)],
      ['Room', `${roomA!.id}x`],
      ['Room', '99999999999'],
      ['Customer', String(roomA!.id)],
    ];
    await ctx.deps.prisma.auditLog.createMany({
      data: targets.map(([entityType, entityId], n) => ({
        hotelId: a.hotel.id,
        actorType: 'job' as const,
        action: `test.${n}`,
        entityType,
        entityId,
        createdAt: new Date(Date.now() - (n + 1) * 1000),
      })),
    });
    const page = await data(api.query('audit.list', {}, { token: a.ownerToken }));
    // Another hotel's room or stay, or an id that is none, is named by its kind and id only.
    const names = [
      'Room A-101',
      'Stay of room A-101 (Test Guest)',
      `Room #${roomB!.id}`,
      `Stay #${stayB.id}`,
      `Room #${roomA!.id}x`,
      'Room #99999999999',
      `Customer #${roomA!.id}`,
    ];
    expect(page.items.map((i) => [i.action, i.target.type, i.target.id, i.target.label])).toEqual(
      targets.map(([type, id], n) => [`test.${n}`, type, id, names[n]]),
    );
    expect(page).toMatchObject({ total: targets.length, totalCapped: false });
    // A page further on names its own entries the same way.
    expect((await data(api.query('audit.list', { page: 2, pageSize: 1 }, { token: a.ownerToken }))).items.map((i) => i.target.label)).toEqual([
      'Stay of room A-101 (Test Guest)',
    ]);
  });

  it('refuses filters that are not what they say', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    for (const input of [
      { action: 'room%' },
      { action: '.room' },
      { actorType: 'robot' },
      { channel: 'fax' },
      { from: '2027-02-30' },
      { from: '2027-03-02', to: '2027-03-01' },
      { entityType: 'Room;' },
    ]) {
      const answer = await api.raw.query('audit.list', input, { token: h.ownerToken });
      expect(answer.error?.data.code, JSON.stringify(input)).toBe('BAD_REQUEST');
    }
  });
});
