import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../modules/auth/session.service';
import { createAccount, createHotel, createHotelWithStaff, createRooms, uniqueMobile } from '../../test/factories';
import { createTestContext, testMeta, type TestContext } from '../../test/harness';
import { legacyClient } from '../../test/legacy-client';

/**
 * The legacy actions of authority management (`room/staffList`, `room/staffManageRoomList`,
 * `room/staffManageRoomList1`, `room/addStaff`, `room/addStaffManageLock`, `room/deleteStaff`,
 * `user/setManager`), driven as an old client does (crypto-js envelope); staff and hotel B.
 */
let ctx: TestContext;
let ipCounter = 0;
const client = (language = 'en') => legacyClient(ctx.app, ctx.config, { language, ip: `10.81.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });

beforeAll(async () => {
  ctx = await createTestContext();
});

afterAll(async () => {
  await ctx?.close();
});

async function legacyToken(accountId: number, hotelId: number) {
  return (await createSession(ctx.deps, { accountId, hotelId, kind: 'legacy', meta: testMeta() })).token;
}

interface LegacyStaff {
  id: number;
  user_id: number;
  name: string;
  gender: string;
  birth: string | null;
  mobile: string | null;
  role: string;
  all_room: number;
  room_ids: number[];
  api_key_auth: number;
  status: number;
  is_new?: number;
}

async function legacyHotel() {
  const h = await createHotelWithStaff(ctx.deps);
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['L-101', 'L-102']);
  return { ...h, rooms, token: await legacyToken(h.owner.id, h.hotel.id), staffLegacyToken: await legacyToken(h.staff.id, h.hotel.id) };
}

describe('authority management over the legacy protocol', () => {
  it('lists, adds, limits to rooms, promotes and removes staff', async () => {
    const h = await legacyHotel();
    const c = client();
    const list = await c.call<{ list: LegacyStaff[]; total: number }>('room/staffList', { page: 1, limit: 20 }, { token: h.token });
    expect(list.errno).toBe(0);
    expect(list.data.list.map((s) => [s.user_id, s.role, s.all_room, s.status])).toEqual([
      [h.owner.id, 'owner', 1, 0],
      [h.staff.id, 'staff', 1, 0],
    ]);

    const existing = await createAccount(ctx.deps, { hotelId: (await createHotel(ctx.deps)).id });
    const added = await c.call<LegacyStaff>(
      'room/addStaff',
      {
        account: existing.mobile,
        name: 'Wang Fang',
        gender: 'female',
        nationality: 'CN',
        birth: '1988-02-03',
        role: 'staff',
        all_room: 0,
        room_ids: [h.rooms[0]!.id],
      },
      { token: h.token },
    );
    expect(added.errno).toBe(0);
    expect(added.data).toMatchObject({
      user_id: existing.id,
      name: 'Wang Fang',
      gender: 'female',
      birth: '1988-02-03',
      role: 'staff',
      all_room: 0,
      room_ids: [h.rooms[0]!.id],
      api_key_auth: 0,
      is_new: 0,
    });

    const managed = await c.call<{ all_room: number; list: { id: number; name: string }[] }>(
      'room/staffManageRoomList',
      { id: added.data.id },
      { token: h.token },
    );
    expect(managed.data).toMatchObject({ all_room: 0, list: [{ id: h.rooms[0]!.id, name: 'L-101' }] });
    const choices = await c.call<{ list: { id: number; name: string; checked: number }[] }>(
      'room/staffManageRoomList1',
      { id: added.data.id },
      { token: h.token },
    );
    expect(choices.data.list.map((r) => [r.name, r.checked])).toEqual([
      ['L-101', 1],
      ['L-102', 0],
    ]);

    const moved = await c.call<LegacyStaff>('room/addStaffManageLock', { id: added.data.id, all_room: 0, room_ids: [h.rooms[1]!.id] }, { token: h.token });
    expect(moved.data).toMatchObject({ all_room: 0, room_ids: [h.rooms[1]!.id] });

    const promoted = await c.call<LegacyStaff>('user/setManager', { id: added.data.id, role: 'admin', api_key_auth: 1 }, { token: h.token });
    expect(promoted.data).toMatchObject({ role: 'admin', api_key_auth: 1 });

    expect((await c.call('room/deleteStaff', { id: added.data.id }, { token: h.token })).errno).toBe(0);
    expect((await c.call<{ total: number }>('room/staffList', { page: 1, limit: 20 }, { token: h.token })).data.total).toBe(2);
  });

  it('answers staff "no permission", the last owner and hotel B in the request\'s language', async () => {
    const h = await legacyHotel();
    const b = await createHotelWithStaff(ctx.deps);
    const bToken = await legacyToken(b.owner.id, b.hotel.id);
    const staffMember = await ctx.deps.prisma.membership.findUniqueOrThrow({ where: { accountId_hotelId: { accountId: h.staff.id, hotelId: h.hotel.id } } });
    const ownerMember = await ctx.deps.prisma.membership.findUniqueOrThrow({ where: { accountId_hotelId: { accountId: h.owner.id, hotelId: h.hotel.id } } });

    const asStaff = await client('en').call('room/staffList', { page: 1, limit: 20 }, { token: h.staffLegacyToken });
    expect(asStaff).toMatchObject({ errno: 100004, errmsg: 'You do not have permission to do this.' });
    for (const [path, payload] of [
      ['room/staffManageRoomList', { id: staffMember.id }],
      ['room/staffManageRoomList1', { id: staffMember.id }],
      ['room/addStaffManageLock', { id: staffMember.id, all_room: 1 }],
      ['room/deleteStaff', { id: staffMember.id }],
      ['user/setManager', { id: staffMember.id, role: 'admin' }],
    ] as const) {
      expect(await client('zh-CN').call(path, payload, { token: bToken }), path).toMatchObject({ errno: 100005, errmsg: '该管理员不存在或已被移除' });
    }
    expect(
      (await client().call('room/addStaff', { account: uniqueMobile(), name: 'B', all_room: 0, room_ids: [h.rooms[0]!.id] }, { token: bToken })).errno,
    ).toBe(100005);

    const last = await client('ar').call('room/deleteStaff', { id: ownerMember.id }, { token: h.token });
    expect(last).toMatchObject({ errno: 100004, errmsg: 'لا يمكن إزالة آخر مالك للفندق أو تخفيض دوره أو تجميده.' });
    const badRole = await client('en').call('user/setManager', { id: staffMember.id, role: 'boss' }, { token: h.token });
    expect(badRole.errno).not.toBe(0);
    expect(JSON.stringify(badRole)).toContain('The role is not valid');
    expect(await ctx.deps.prisma.membership.findUniqueOrThrow({ where: { id: staffMember.id } })).toMatchObject({ role: 'staff' });
  });
});
