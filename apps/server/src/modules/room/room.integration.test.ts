import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness';
import { createAccount, createHotelWithStaff, createRooms, hours, insertStay, zoneAtLocalHour } from '../../test/factories';
import { trpcClient } from '../../test/trpc-client';
import { createSession } from '../auth/session.service';
import { testMeta } from '../../test/harness';

let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;

beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
});
afterAll(() => ctx.close());

/** A hotel with one room in each of the five statuses. */
async function boardHotel() {
  const h = await createHotelWithStaff(ctx.deps);
  // Noon at the hotel: the reservation of 105 arrives later today, whatever the hour the test runs.
  await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone: zoneAtLocalHour(12) } });
  const { rooms, group } = await createRooms(ctx.deps, h.hotel.id, ['101', '102', '103', '104', '105', '201'], { groupName: 'Standard' });
  const [vacant, dirty, maintain, checkedIn, reserved, other] = rooms as [(typeof rooms)[number], ...typeof rooms];
  await ctx.deps.prisma.room.update({ where: { id: dirty!.id }, data: { cleanStatus: 'dirty', remarkName: 'Sea view' } });
  await ctx.deps.prisma.room.update({ where: { id: maintain!.id }, data: { maintenance: 'out_of_order' } });
  await insertStay(ctx.deps, {
    hotelId: h.hotel.id,
    roomId: checkedIn!.id,
    checkInAt: hours(-2),
    expectedCheckOutAt: hours(20),
    guestName: 'Ada Lovelace',
    guestMobile: '13912345678',
  });
  await insertStay(ctx.deps, {
    hotelId: h.hotel.id,
    roomId: reserved!.id,
    checkInAt: hours(3),
    expectedCheckOutAt: hours(50),
    status: 'reserved',
    guestName: 'Grace Hopper',
  });
  // A past stay changes nothing.
  await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: vacant.id, checkInAt: hours(-50), expectedCheckOutAt: hours(-30), status: 'checked_out' });
  return { ...h, group: group!, vacant, dirty: dirty!, maintain: maintain!, checkedIn: checkedIn!, reserved: reserved!, other: other! };
}

describe('room board', () => {
  it('derives the five statuses and counts each', async () => {
    const b = await boardHotel();
    const page = (await api.query('room.list', {}, { token: b.ownerToken })).data!;
    const status = Object.fromEntries(page.items.map((r) => [r.name, r.status]));
    expect(status).toEqual({ '101': 'vacant', '102': 'dirty', '103': 'maintain', '104': 'checked_in', '105': 'reserved', '201': 'vacant' });
    expect(page.counts).toEqual({ vacant: 2, reserved: 1, checked_in: 1, dirty: 1, maintain: 1 });
    expect(page.items.find((r) => r.name === '104')!.currentStay).toMatchObject({ guestName: 'Ada Lovelace', guestCount: 1 });
    // Spec §4: a Dirty room cannot be self checked-in; neither can a taken or broken one.
    expect(Object.fromEntries(page.items.map((r) => [r.name, r.canSelfCheckIn]))).toEqual({
      '101': true,
      '102': false,
      '103': false,
      '104': false,
      '105': false,
      '201': true,
    });
  });

  it('filters by status (counts stay those of the whole board), searches name, remark and guest, filters by group', async () => {
    const b = await boardHotel();
    const list = (input: object) => api.query('room.list', input, { token: b.ownerToken }).then((r) => r.data!);
    const dirty = await list({ status: 'dirty' });
    expect(dirty.items.map((r) => r.name)).toEqual(['102']);
    expect(dirty.total).toBe(1);
    expect(dirty.counts.vacant).toBe(2);
    expect((await list({ search: 'sea' })).items.map((r) => r.name)).toEqual(['102']);
    expect((await list({ search: 'lovelace' })).items.map((r) => r.name)).toEqual(['104']);
    expect((await list({ search: '12345678' })).items.map((r) => r.name)).toEqual(['104']);
    expect((await list({ search: '20' })).items.map((r) => r.name)).toEqual(['201']);
    expect((await list({ search: '%' })).items).toEqual([]);
    const other = await ctx.deps.prisma.roomGroup.create({ data: { hotelId: b.hotel.id, name: 'Suite', sort: 0 } });
    await ctx.deps.prisma.room.update({ where: { id: b.other.id }, data: { groupId: other.id } });
    expect((await list({ groupId: other.id })).items.map((r) => r.name)).toEqual(['201']);
  });

  it('finds a room by a guest added, renamed or removed a moment ago (the database keeps the search text)', async () => {
    const b = await boardHotel();
    const search = (text: string) => api.query('room.list', { search: text }, { token: b.ownerToken }).then((r) => r.data!.items.map((x) => x.name));
    const stay = await ctx.deps.prisma.stay.findFirstOrThrow({ where: { roomId: b.checkedIn.id } });
    const guest = await ctx.deps.prisma.stayGuest.create({ data: { hotelId: b.hotel.id, stayId: stay.id, name: 'Charles Babbage' } });
    expect(await search('babbage')).toEqual(['104']);
    await ctx.deps.prisma.stayGuest.update({ where: { id: guest.id }, data: { name: 'Alan Turing' } });
    expect(await search('babbage')).toEqual([]);
    expect(await search('TURING')).toEqual(['104']);
    await ctx.deps.prisma.stayGuest.delete({ where: { id: guest.id } });
    expect(await search('turing')).toEqual([]);
    // Only active stays count: the guest of the past stay of 101 is not found.
    expect(await search('test guest')).toEqual([]);
  });

  it('sorts A-Z, Z-A, by group then order (default), by order and reverse order, and pages', async () => {
    const b = await boardHotel();
    await ctx.deps.prisma.room.update({ where: { id: b.other.id }, data: { sortOrder: -1 } });
    const names = (sort: string, extra: object = {}) =>
      api.raw.query('room.list', { sort, ...extra }, { token: b.ownerToken }).then((r) => r.data!.items.map((x) => x.name));
    expect(await names('name_asc')).toEqual(['101', '102', '103', '104', '105', '201']);
    expect(await names('name_desc')).toEqual(['201', '105', '104', '103', '102', '101']);
    expect(await names('order')).toEqual(['201', '101', '102', '103', '104', '105']);
    expect(await names('order_desc')).toEqual(['105', '104', '103', '102', '101', '201']);
    expect(await names('default')).toEqual(['201', '101', '102', '103', '104', '105']);
    expect(await names('name_asc', { page: 2, pageSize: 4 })).toEqual(['105', '201']);
  });

  it('shows a member limited to some rooms only those rooms', async () => {
    const b = await boardHotel();
    const limited = await createAccount(ctx.deps, {});
    const membership = await ctx.deps.prisma.membership.create({ data: { accountId: limited.id, hotelId: b.hotel.id, role: 'staff', allRooms: false } });
    await ctx.deps.prisma.membershipRoom.create({ data: { hotelId: b.hotel.id, membershipId: membership.id, roomId: b.checkedIn.id } });
    const session = await createSession(ctx.deps, { accountId: limited.id, hotelId: b.hotel.id, kind: 'web', meta: testMeta() });
    const page = (await api.query('room.list', {}, { token: session.token })).data!;
    expect(page.items.map((r) => r.name)).toEqual(['104']);
    expect((await api.query('room.get', { id: b.vacant.id }, { token: session.token })).error?.data.app?.code).toBe('NOT_FOUND');
  });
});

describe('rooms', () => {
  it('creates, edits and deletes a room; names are unique among rooms that exist', async () => {
    const b = await boardHotel();
    const created = await api.mutation(
      'room.create',
      { name: '301', groupId: b.group.id, remarkName: 'Corner', macId: 'AA:BB:CC:DD:EE:FF', lockNotice: 'Welcome' },
      { token: b.ownerToken },
    );
    expect(created.data).toMatchObject({
      name: '301',
      groupName: 'Standard',
      remarkName: 'Corner',
      lockPower: null,
      macId: 'AA:BB:CC:DD:EE:FF',
      lockNotice: 'Welcome',
      status: 'vacant',
    });
    const dup = await api.mutation('room.create', { name: '301' }, { token: b.ownerToken, lang: 'zh-CN' });
    expect(dup.error?.data.app).toMatchObject({ code: 'CONFLICT', message: '房间名称“301”已存在' });
    const edited = await api.mutation('room.update', { id: created.data!.id, name: '301A', groupId: null }, { token: b.ownerToken });
    expect(edited.data).toMatchObject({ name: '301A', groupId: null, lockPower: null, remarkName: '' });
    expect((await api.mutation('room.delete', { roomId: created.data!.id }, { token: b.ownerToken })).status).toBe(200);
    expect((await api.query('room.get', { id: created.data!.id }, { token: b.ownerToken })).error?.data.app?.code).toBe('NOT_FOUND');
    // The deleted room's name can be used again; the old row stays for history.
    expect((await api.mutation('room.create', { name: '301A' }, { token: b.ownerToken })).status).toBe(200);
    expect(await ctx.deps.prisma.room.count({ where: { hotelId: b.hotel.id, name: '301A' } })).toBe(2);
  });

  it('refuses to delete a room with an active stay, with a translated message', async () => {
    const b = await boardHotel();
    for (const room of [b.checkedIn, b.reserved]) {
      const res = await api.mutation('room.delete', { roomId: room.id }, { token: b.ownerToken, lang: 'en' });
      expect(res.error?.data.app).toMatchObject({
        code: 'CONFLICT',
        message: `Room "${room.name}" has guests staying or a reservation and cannot be deleted.`,
      });
    }
  });

  it('validates the settings with the shared rules', async () => {
    const b = await boardHotel();
    const res = await api.mutation(
      'room.create',
      { name: '', sortOrder: 1.5, macId: 'nope', picture: 'javascript:alert(1)' },
      { token: b.ownerToken, lang: 'en' },
    );
    expect(res.error?.data.app?.fields).toEqual({
      name: 'Enter the room name',
      sortOrder: expect.any(String),
      macId: 'Incorrect MAC address format',
      picture: 'Unsupported picture: upload a PNG, JPG, WebP or GIF image',
    });
  });

  it('lets staff look but not create or delete', async () => {
    const b = await boardHotel();
    expect((await api.query('room.list', {}, { token: b.staffToken })).data!.total).toBe(6);
    expect((await api.mutation('room.create', { name: '999' }, { token: b.staffToken })).error?.data.app?.code).toBe('FORBIDDEN');
    expect((await api.mutation('room.delete', { roomId: b.vacant.id }, { token: b.staffToken })).error?.data.app?.code).toBe('FORBIDDEN');
  });
});

describe('room status changes', () => {
  it('cleans, dirties and takes out of service, and refuses maintenance over a guest', async () => {
    const b = await boardHotel();
    const set = (roomId: number, target: string, lang = 'en') => api.raw.mutation('room.setStatus', { roomId, target }, { token: b.staffToken, lang });
    expect((await set(b.dirty.id, 'clean')).data!.status).toBe('vacant');
    expect((await set(b.dirty.id, 'dirty')).data!.status).toBe('dirty');
    expect((await set(b.vacant.id, 'out_of_service')).data).toMatchObject({ status: 'maintain', maintenance: 'out_of_service' });
    expect((await set(b.vacant.id, 'back_in_service')).data!.status).toBe('vacant');
    const refused = await set(b.checkedIn.id, 'out_of_order', 'zh-CN');
    expect(refused.error?.data.app?.message).toBe('状态修改失败：房间“104”有在住或预订的住客，请先办理退房或换房');
    // Already clean (a guest is in): nothing changes, nothing is audited.
    expect((await set(b.checkedIn.id, 'clean')).data).toMatchObject({ status: 'checked_in', hasChanged: false });
    const audit = await ctx.deps.prisma.auditLog.findMany({ where: { hotelId: b.hotel.id, action: 'room.status' } });
    expect(audit.length).toBe(4);
  });

  it('says a room is already so instead of "changed": nothing written, nothing audited, on one room and several (issue 17 §5)', async () => {
    const b = await boardHotel();
    const audited = () => ctx.deps.prisma.auditLog.count({ where: { hotelId: b.hotel.id, action: 'room.status' } });
    const set = (roomId: number, target: string, lang = 'en') => api.raw.mutation('room.setStatus', { roomId, target }, { token: b.staffToken, lang });

    // Marking a dirty room dirty: the answer says it already is.
    const again = await set(b.dirty.id, 'dirty');
    expect(again.data).toMatchObject({ status: 'dirty', cleanStatus: 'dirty', hasChanged: false, statusNotice: 'Already marked dirty, nothing changed: 102' });
    expect(await audited()).toBe(0);
    const changed = await set(b.dirty.id, 'inspected');
    expect(changed.data).toMatchObject({ cleanStatus: 'inspected', hasChanged: true, statusNotice: null });
    expect(await audited()).toBe(1);
    // Every other change the same way, in the request's language.
    expect((await set(b.vacant.id, 'back_in_service', 'zh-CN')).data).toMatchObject({ hasChanged: false, statusNotice: '101 本来就在使用中，未作更改' });
    expect((await set(b.maintain.id, 'out_of_order', 'ar')).data).toMatchObject({ hasChanged: false, statusNotice: 'معطلة أصلًا، لم يتغير شيء: 103' });
    expect((await set(b.vacant.id, 'clean')).data).toMatchObject({ hasChanged: false, statusNotice: 'Already clean, nothing changed: 101' });
    // The room's notice is its own, not the status change's.
    expect((await set(b.vacant.id, 'clean')).data?.notice).toBe('');
    expect(await audited()).toBe(1);

    // Several: those changed are changed, those already clean are named.
    const bulk = await api.mutation(
      'room.setStatusMany',
      { roomIds: [b.dirty.id, b.vacant.id, b.other.id], target: 'clean' },
      { token: b.staffToken, lang: 'en' },
    );
    expect(bulk.data).toEqual({
      rooms: 3,
      changed: [b.dirty.id],
      unchanged: [
        { id: b.vacant.id, name: '101' },
        { id: b.other.id, name: '201' },
      ],
      notice: 'Already clean, nothing changed: 101 and 201',
    });
    expect(await audited()).toBe(2);

    // Two clerks marking the same room dirty at once: one changes it, the other is told it already is.
    const both = await Promise.all([set(b.other.id, 'dirty'), set(b.other.id, 'dirty')]);
    expect(both.map((r) => r.data?.hasChanged).sort()).toEqual([false, true]);
    expect(await audited()).toBe(3);
  });
});

describe('room groups', () => {
  it('needs a name and a sort, and names are unique', async () => {
    const b = await boardHotel();
    const bad = await api.mutation('roomGroup.create', { name: ' ', sort: '' }, { token: b.ownerToken, lang: 'en' });
    expect(bad.error?.data.app?.fields).toEqual({ name: 'Enter the group name', sort: 'Enter the order (a whole number, 0 or more)' });
    expect((await api.mutation('roomGroup.create', { name: 'Standard', sort: 2 }, { token: b.ownerToken })).error?.data.app?.code).toBe('CONFLICT');
    const created = await api.mutation('roomGroup.create', { name: 'Deluxe', sort: 2 }, { token: b.ownerToken });
    expect(created.data).toMatchObject({ name: 'Deluxe', sort: 2, roomCount: 0 });
    const renamed = await api.mutation('roomGroup.update', { id: created.data!.id, name: 'Deluxe+', sort: 0 }, { token: b.ownerToken });
    expect(renamed.data).toMatchObject({ name: 'Deluxe+', sort: 0 });
    const list = await api.query('roomGroup.list', undefined, { token: b.ownerToken });
    expect(list.data!.map((g) => [g.name, g.roomCount])).toEqual([
      ['Deluxe+', 0],
      ['Standard', 6],
    ]);
  });

  it('asks where the rooms go before deleting a group that has some, then moves them', async () => {
    const b = await boardHotel();
    const target = (await api.mutation('roomGroup.create', { name: 'Target', sort: 5 }, { token: b.ownerToken })).data!;
    const ask = await api.mutation('roomGroup.delete', { id: b.group.id }, { token: b.ownerToken, lang: 'en' });
    expect(ask.error?.data.app).toMatchObject({
      code: 'CONFIRMATION_REQUIRED',
      errno: 100018,
      details: { roomCount: 6 },
      message: 'Group "Standard" still has 6 rooms. Choose where to move them.',
    });
    expect((await api.mutation('roomGroup.delete', { id: b.group.id, moveRoomsTo: target.id }, { token: b.ownerToken })).status).toBe(200);
    expect(await ctx.deps.prisma.room.count({ where: { hotelId: b.hotel.id, groupId: target.id } })).toBe(6);
    expect((await api.mutation('roomGroup.delete', { id: target.id, moveRoomsTo: 'none' }, { token: b.ownerToken })).status).toBe(200);
    expect(await ctx.deps.prisma.room.count({ where: { hotelId: b.hotel.id, groupId: null } })).toBe(6);
  });
});

describe('tenancy', () => {
  it('gives hotel B "not found" for every room and group operation on hotel A', async () => {
    const a = await boardHotel();
    const b = await createHotelWithStaff(ctx.deps);
    const token = b.ownerToken;
    expect((await api.query('room.list', { search: '10' }, { token })).data!.total).toBe(0);
    const attempts = [
      api.query('room.get', { id: a.vacant.id }, { token }),
      api.mutation('room.update', { id: a.vacant.id, name: 'x' }, { token }),
      api.mutation('room.delete', { roomId: a.vacant.id }, { token }),
      api.mutation('room.setStatus', { roomId: a.dirty.id, target: 'clean' }, { token }),
      api.mutation('room.setLock', { roomId: a.vacant.id, lockId: 'X' }, { token }),
      api.query('room.unlockRecords', { roomId: a.vacant.id }, { token }),
      api.mutation('roomGroup.update', { id: a.group.id, name: 'x', sort: 1 }, { token }),
      api.mutation('roomGroup.delete', { id: a.group.id, moveRoomsTo: 'none' }, { token }),
      api.mutation('room.create', { name: 'X1', groupId: a.group.id }, { token }),
    ];
    for (const res of await Promise.all(attempts)) expect(res.error?.data.app?.code).toBe('NOT_FOUND');
    expect((await api.query('roomGroup.list', undefined, { token })).data).toEqual([]);
    expect(await ctx.deps.prisma.room.findUniqueOrThrow({ where: { id: a.dirty.id } })).toMatchObject({ cleanStatus: 'dirty' });
  });
});

describe('unlock records', () => {
  it("pages a room's records, newest first, within hotel dates", async () => {
    const b = await boardHotel();
    await ctx.deps.prisma.hotel.update({ where: { id: b.hotel.id }, data: { timeZone: 'Asia/Shanghai' } });
    const base = new Date('2026-11-20T02:00:00Z'); // 10:00 in Shanghai
    await ctx.deps.prisma.unlockRecord.createMany({
      data: Array.from({ length: 25 }, (_, i) => ({
        hotelId: b.hotel.id,
        roomId: b.checkedIn.id,
        occurredAt: new Date(base.getTime() - i * 3_600_000),
        style: 'card' as const,
        event: i === 1 ? 'a_code_of_a_newer_lock' : 'opened',
        device: 'LK-1',
        operator: `Guest ${i}`,
      })),
    });
    const page = await api.query('room.unlockRecords', { roomId: b.checkedIn.id, pageSize: 10 }, { token: b.ownerToken });
    expect(page.data!.total).toBe(25);
    expect(page.data!.items[0]).toMatchObject({ event: 'opened', source: 'lock', device: 'LK-1', success: true, operator: 'Guest 0' });
    // Records carry codes the console translates; a code it does not know is "other", never raw text.
    expect(page.data!.items[1]!.event).toBe('other');
    // 2026-11-20 in Shanghai: 00:00 to 10:00 local, records 0..10.
    const day = await api.query('room.unlockRecords', { roomId: b.checkedIn.id, from: '2026-11-20', to: '2026-11-20' }, { token: b.ownerToken });
    expect(day.data!.total).toBe(11);
    expect(
      (await api.query('room.unlockRecords', { roomId: b.checkedIn.id, from: '2026-11-21', to: '2026-11-20' }, { token: b.ownerToken, lang: 'en' })).error?.data
        .app?.fields,
    ).toEqual({ to: 'The end must be later than the start' });
  });
});
