import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD, createAccount, createHotelWithStaff } from '../../test/factories';
import { createTestContext, testMeta, type TestContext } from '../../test/harness';
import { createSession } from '../auth/session.service';
import { legacyClient } from '../../test/legacy-client';
import { trpcClient } from '../../test/trpc-client';

/**
 * The hotel's information and settings (issue 9 §4): tRPC `hotel.info` / `hotel.update` and the
 * legacy `room/hotelInfo`, `room/getHotelInfo`, `room/setHotelInfo`, `room/setHotelData` driven
 * with the crypto-js envelope: validation (ranges, IANA zones, ISO 4217), owners and
 * administrators only, every change audited, the session's time zone follows, hotel B not found.
 */
let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;
let ip = 0;
const legacy = () => legacyClient(ctx.app, ctx.config, { ip: `10.93.${Math.floor(++ip / 250)}.${ip % 250}` });

beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
});
afterAll(async () => {
  await ctx?.close();
});

async function legacyLogin(mobile: string) {
  const login = await legacy().call<{ token: string }>('login', { mobile, password: TEST_PASSWORD });
  expect(login.errno).toBe(0);
  return login.data.token;
}

describe('hotel information over tRPC', () => {
  it('reads and changes every field; only what changed is audited, before and after', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const read = await api.query('hotel.info', undefined, { token: h.ownerToken });
    expect(read.data).toMatchObject({
      id: h.hotel.id,
      name: h.hotel.name,
      timeZone: 'Asia/Shanghai',
      currency: 'CNY',
      checkInTime: '14:00',
      checkOutTime: '12:00',
      latitude: null,
      longitude: null,
    });

    const changed = await api.mutation(
      'hotel.update',
      {
        name: '  Lakeside Inn ',
        address: '1 Lake Road',
        tel: '+86 (21) 5555-0101',
        latitude: 31.2304161,
        longitude: '121.4737',
        timeZone: 'Europe/Berlin',
        currency: 'usd',
        checkInTime: '15:00',
        checkOutTime: '11:30',
      },
      { token: h.ownerToken },
    );
    expect(changed.error).toBeUndefined();
    expect(changed.data).toMatchObject({
      name: 'Lakeside Inn',
      address: '1 Lake Road',
      tel: '+86 (21) 5555-0101',
      latitude: 31.230416,
      longitude: 121.4737,
      timeZone: 'Europe/Berlin',
      currency: 'USD',
      checkInTime: '15:00',
      checkOutTime: '11:30',
    });

    // The session's hotel settings follow at once: the user info the console stores says the new zone.
    const me = await api.query('auth.me', undefined, { token: h.ownerToken });
    expect(me.data?.hotel).toMatchObject({ timeZone: 'Europe/Berlin', currency: 'USD', name: 'Lakeside Inn' });

    const audit = await ctx.deps.prisma.auditLog.findMany({ where: { hotelId: h.hotel.id, action: 'hotel.update' } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorAccountId: h.owner.id, entityType: 'Hotel', entityId: String(h.hotel.id), channel: 'console' });
    expect(audit[0]!.before).toMatchObject({ timeZone: 'Asia/Shanghai', currency: 'CNY', checkInTime: '14:00', latitude: null });
    expect(audit[0]!.after).toMatchObject({ timeZone: 'Europe/Berlin', currency: 'USD', checkInTime: '15:00', latitude: 31.230416 });

    // Only the fields sent change; the same values again change nothing and write no entry.
    const partial = await api.mutation('hotel.update', { tel: '021-5555' }, { token: h.ownerToken });
    expect(partial.data).toMatchObject({ tel: '021-5555', name: 'Lakeside Inn', timeZone: 'Europe/Berlin' });
    await api.mutation('hotel.update', { tel: '021-5555', name: 'Lakeside Inn' }, { token: h.ownerToken });
    const entries = await ctx.deps.prisma.auditLog.findMany({ where: { hotelId: h.hotel.id, action: 'hotel.update' }, orderBy: { id: 'asc' } });
    expect(entries).toHaveLength(2);
    expect(entries[1]!.after).toEqual({ tel: '021-5555' });

    // Clearing the coordinates takes both.
    const cleared = await api.mutation('hotel.update', { latitude: null, longitude: '' }, { token: h.ownerToken });
    expect(cleared.data).toMatchObject({ latitude: null, longitude: null });
  });

  it('refuses values out of range with translated field errors, and writes nothing', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ latitude: 90.5, longitude: 0 }, 'latitude', /latitude/i],
      [{ latitude: 0, longitude: -180.01 }, 'longitude', /longitude/i],
      [{ latitude: 10 }, 'longitude', /together/i],
      [{ timeZone: 'Mars/Olympus_Mons' }, 'timeZone', /time zone/i],
      [{ timeZone: 'GMT+8' }, 'timeZone', /time zone/i],
      [{ currency: 'XYZ' }, 'currency', /currency/i],
      [{ currency: 'JPY' }, 'currency', /decimal/i],
      [{ checkInTime: '24:00' }, 'checkInTime', /time of day/i],
      [{ checkOutTime: '9:00' }, 'checkOutTime', /time of day/i],
      [{ name: '   ' }, 'name', /name/i],
      [{ tel: 'call me' }, 'tel', /telephone/i],
    ];
    for (const [input, field, message] of cases) {
      const result = await api.raw.mutation('hotel.update', input, { token: h.ownerToken });
      expect(result.error?.data.app?.code, JSON.stringify(input)).toBe('VALIDATION');
      expect(Object.keys(result.error?.data.app?.fields ?? {}), JSON.stringify(input)).toContain(field);
      expect(result.error?.data.app?.fields?.[field], JSON.stringify(input)).toMatch(message);
    }
    const zh = await api.raw.mutation('hotel.update', { timeZone: 'Nowhere/Else' }, { token: h.ownerToken, lang: 'zh-CN' });
    expect(zh.error?.data.app?.fields?.timeZone).toMatch(/时区/);
    const hotel = await ctx.deps.prisma.hotel.findUniqueOrThrow({ where: { id: h.hotel.id } });
    expect(hotel).toMatchObject({ timeZone: 'Asia/Shanghai', currency: 'CNY', checkInTime: '14:00', latitude: null });
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: h.hotel.id, action: 'hotel.update' } })).toBe(0);
  });

  it('lets owners and administrators change it, staff only read it', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const staffRead = await api.query('hotel.info', undefined, { token: h.staffToken });
    expect(staffRead.data?.id).toBe(h.hotel.id);
    const staffWrite = await api.mutation('hotel.update', { name: 'Taken over' }, { token: h.staffToken });
    expect(staffWrite.error?.data.app?.code).toBe('FORBIDDEN');

    const admin = await createAccount(ctx.deps, { hotelId: h.hotel.id, role: 'admin' });
    const adminToken = (await createSession(ctx.deps, { accountId: admin.id, hotelId: h.hotel.id, kind: 'web', meta: testMeta() })).token;
    const adminWrite = await api.mutation('hotel.update', { checkOutTime: '13:00' }, { token: adminToken });
    expect(adminWrite.data?.checkOutTime).toBe('13:00');
    expect((await ctx.deps.prisma.hotel.findUniqueOrThrow({ where: { id: h.hotel.id } })).name).toBe(h.hotel.name);
  });

  it("never reads or changes another hotel: hotel B's id is not found", async () => {
    const a = await createHotelWithStaff(ctx.deps);
    const b = await createHotelWithStaff(ctx.deps);
    const read = await api.query('hotel.info', { hotelId: a.hotel.id }, { token: b.ownerToken });
    expect(read.error?.data.app?.code).toBe('NOT_FOUND');
    const write = await api.mutation('hotel.update', { hotelId: a.hotel.id, name: 'Hijacked' }, { token: b.ownerToken });
    expect(write.error?.data.app?.code).toBe('NOT_FOUND');
    // Without an id, B changes B.
    await api.mutation('hotel.update', { name: 'B renamed' }, { token: b.ownerToken });
    expect((await ctx.deps.prisma.hotel.findUniqueOrThrow({ where: { id: a.hotel.id } })).name).toBe(a.hotel.name);
    expect((await ctx.deps.prisma.hotel.findUniqueOrThrow({ where: { id: b.hotel.id } })).name).toBe('B renamed');
  });
});

describe('hotel information over the legacy protocol (crypto-js envelope)', () => {
  it('room/hotelInfo and room/getHotelInfo read it; room/setHotelInfo changes the spec fields, room/setHotelData the settings too', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const token = await legacyLogin(h.owner.mobile!);
    for (const path of ['room/hotelInfo', 'room/getHotelInfo']) {
      const info = await legacy().call<Record<string, unknown>>(path, {}, { token });
      expect(info.errno, path).toBe(0);
      expect(info.data).toMatchObject({
        id: h.hotel.id,
        hotel_id: h.hotel.id,
        name: h.hotel.name,
        address: '',
        tel: '',
        latitude: null,
        longitude: null,
        time_zone: 'Asia/Shanghai',
        currency: 'CNY',
        check_in_time: '14:00',
        check_out_time: '12:00',
      });
    }

    const setInfo = await legacy().call<Record<string, unknown>>(
      'room/setHotelInfo',
      { name: 'Harbour Hotel', address: '8 Quay St', tel: '0755-8888', latitude: '22.5431', longitude: 114.0579 },
      { token },
    );
    expect(setInfo.errno).toBe(0);
    expect(setInfo.data).toMatchObject({
      name: 'Harbour Hotel',
      address: '8 Quay St',
      tel: '0755-8888',
      latitude: 22.5431,
      longitude: 114.0579,
      time_zone: 'Asia/Shanghai',
    });

    const setData = await legacy().call<Record<string, unknown>>(
      'room/setHotelData',
      { time_zone: 'America/New_York', currency: 'USD', check_in_time: '16:00', check_out_time: '10:00' },
      { token },
    );
    expect(setData.errno).toBe(0);
    expect(setData.data).toMatchObject({
      name: 'Harbour Hotel',
      time_zone: 'America/New_York',
      currency: 'USD',
      check_in_time: '16:00',
      check_out_time: '10:00',
    });

    // setHotelInfo carries the spec's fields only: a time zone sent there changes nothing.
    await legacy().call('room/setHotelInfo', { time_zone: 'Asia/Tokyo' }, { token });
    expect((await legacy().call<Record<string, unknown>>('room/getHotelInfo', {}, { token })).data).toMatchObject({ time_zone: 'America/New_York' });

    const audit = await ctx.deps.prisma.auditLog.findMany({ where: { hotelId: h.hotel.id, action: 'hotel.update' }, orderBy: { id: 'asc' } });
    expect(audit.map((a) => a.channel)).toEqual(['legacy', 'legacy']);
  });

  it('names the legacy field of an error in the request language, and refuses staff and hotel B', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const token = await legacyLogin(h.owner.mobile!);
    const zone = await legacy().call<{ fields?: Record<string, string> }>('room/setHotelData', { time_zone: 'Atlantis/Capital' }, { token, language: 'en' });
    expect(zone.errno).not.toBe(0);
    expect(zone.errmsg).toMatch(/time zone/i);
    const times = await legacy().call('room/setHotelData', { check_in_time: '25:00' }, { token, language: 'ar' });
    expect(times.errno).not.toBe(0);
    expect(times.errmsg).toMatch(/[\u0600-\u06FF]/);
    const lat = await legacy().call('room/setHotelInfo', { latitude: 91, longitude: 0 }, { token, language: 'zh-CN' });
    expect(lat.errno).not.toBe(0);
    expect(lat.errmsg).toMatch(/纬度/);

    const staffToken = await legacyLogin(h.staff.mobile!);
    const staff = await legacy().call('room/setHotelData', { name: 'Staff hotel' }, { token: staffToken, language: 'en' });
    expect(staff.errno).not.toBe(0);
    expect((await legacy().call('room/hotelInfo', {}, { token: staffToken })).errno).toBe(0);

    const b = await createHotelWithStaff(ctx.deps);
    const bToken = await legacyLogin(b.owner.mobile!);
    for (const [path, payload] of [
      ['room/hotelInfo', { hotel_id: h.hotel.id }],
      ['room/getHotelInfo', { hotel_id: h.hotel.id }],
      ['room/setHotelInfo', { hotel_id: h.hotel.id, name: 'Hijacked' }],
      ['room/setHotelData', { hotel_id: h.hotel.id, time_zone: 'UTC' }],
    ] as const) {
      const answer = await legacy().call(path, payload, { token: bToken, language: 'en' });
      expect(answer.errno, path).not.toBe(0);
      expect(answer.errmsg, path).toMatch(/not found|does not exist/i);
    }
    const unchanged = await ctx.deps.prisma.hotel.findUniqueOrThrow({ where: { id: h.hotel.id } });
    expect(unchanged).toMatchObject({ name: h.hotel.name, timeZone: 'Asia/Shanghai' });
  });
});
