/**
 * Exports escape (issue 27 §9): a room's exported calendar carries its name as one escaped, folded
 * TEXT value, so a channel reading it (here the project's own reader, ical.js) gets the same name and
 * the same bookings back; and a room or group name with a line break is refused on every face.
 */
import { randomUUID } from 'node:crypto';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDate, zonedToInstant } from '@console/shared';
import { createHotelWithStaff, insertStay } from '../../test/factories';
import { actorContext, createTestContext, testMeta, type TestContext } from '../../test/harness';
import { legacyClient } from '../../test/legacy-client';
import { trpcClient } from '../../test/trpc-client';
import { createSession } from '../auth/session.service';
import { roomExportUrl } from './feed.service';
import { parseFeed } from './ical-parse';

let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;
let legacy: ReturnType<typeof legacyClient>;

beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
  legacy = legacyClient(ctx.app, ctx.config, { language: 'en' });
});
afterAll(() => ctx.close());

const TZ = 'Asia/Shanghai';
const at = (n: number, time: string) => zonedToInstant(`${addDays(localDate(new Date(), TZ), n)}T${time}`, TZ)!;
const ONE_LINE = 'Write it on one line: line breaks and tabs are not allowed';

async function setup() {
  const h = await createHotelWithStaff(ctx.deps);
  await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone: TZ, checkInTime: '15:00', checkOutTime: '11:00' } });
  const owner = await actorContext(ctx.deps, h.ownerToken);
  const session = await createSession(ctx.deps, { accountId: h.owner.id, hotelId: h.hotel.id, kind: 'legacy', meta: testMeta() });
  const call = (path: string, payload: Record<string, unknown>) =>
    legacy.call<{ fields?: Record<string, string> } & Record<string, unknown>>(path, payload, { token: session.token });
  return { ...h, owner, call };
}

/** The calendar's name as a calendar application reads it: ical.js's parser, the value decoded as TEXT. */
function calendarName(text: string): string {
  const root = new ICAL.Component(ICAL.parse(text) as unknown[]);
  const property = root.getFirstProperty('x-wr-calname')!;
  const value = property.getFirstValue() as string;
  return property.type === 'text' ? value : (ICAL.design.icalendar.value.text as { fromICAL: (v: string) => string }).fromICAL(value);
}

describe('the exported calendar of a room named with what iCal escapes', () => {
  it.each([
    ['; , \\ and an emoji', 'R;1,2\\n 🏨🌊 海景套房 جناح البحر'],
    ['a long name (folded)', '海景大床房;海景大床房,海景\\n大床房🏨🌊البحر'],
  ])('reads back %s as the same name and the same bookings', async (_what, name) => {
    const w = await setup();
    const created = await api.mutation('room.create', { name }, { token: w.ownerToken });
    expect(created.error).toBeUndefined();
    const roomId = created.data!.id;
    expect((await ctx.deps.prisma.room.findUniqueOrThrow({ where: { id: roomId } })).name).toBe(name);
    const booked = [
      [at(2, '15:00'), at(4, '11:00')],
      [at(6, '15:00'), at(9, '11:00')],
    ] as const;
    for (const [checkInAt, expectedCheckOutAt] of booked) {
      await insertStay(ctx.deps, {
        hotelId: w.hotel.id,
        roomId,
        checkInAt,
        expectedCheckOutAt,
        status: 'reserved',
        guestName: `Guest ${randomUUID().slice(0, 4)}`,
      });
    }

    const link = await roomExportUrl(w.owner, { roomId });
    const res = await ctx.app.inject({ method: 'GET', url: link.path });
    expect(res.statusCode).toBe(200);
    for (const line of res.body.slice(0, -2).split('\r\n')) expect(Buffer.byteLength(line, 'utf8'), line).toBeLessThanOrEqual(75);
    expect(res.body.match(/^END:VCALENDAR\r$/gm)).toHaveLength(1);
    expect(calendarName(res.body)).toBe(name);
    const { events } = parseFeed(res.body, { timeZone: TZ, checkInTime: '15:00', checkOutTime: '11:00' });
    expect(events.map((e) => [e.checkInAt, e.checkOutAt])).toEqual(booked);
    expect(events.every((e) => e.isBooking && e.guestName === null)).toBe(true);
  });
});

describe('a room or group name with a line break', () => {
  const broken = ['R\nEND:VCALENDAR', 'R\r\nX', 'R\rX', 'R\tX', 'R\u2028X'];

  it('is refused on tRPC (room and group, new and edited) with the field named, and nothing changes', async () => {
    const w = await setup();
    const room = (await api.mutation('room.create', { name: 'E101' }, { token: w.ownerToken })).data!;
    const group = (await api.mutation('roomGroup.create', { name: 'Sea side', sort: 1 }, { token: w.ownerToken })).data!;
    for (const name of broken) {
      const calls = [
        await api.raw.mutation('room.create', { name }, { token: w.ownerToken }),
        await api.raw.mutation('room.update', { id: room.id, name }, { token: w.ownerToken }),
        await api.raw.mutation('roomGroup.create', { name, sort: 2 }, { token: w.ownerToken }),
        await api.raw.mutation('roomGroup.update', { id: group.id, name, sort: 1 }, { token: w.ownerToken }),
      ];
      for (const res of calls) {
        expect(res.status, JSON.stringify(name)).toBe(400);
        expect(res.error?.data.app).toMatchObject({ code: 'VALIDATION', fields: { name: ONE_LINE } });
      }
    }
    // In another language, the same field error in that language.
    const zh = await api.raw.mutation('room.create', { name: 'R\nX' }, { token: w.ownerToken, lang: 'zh-CN' });
    expect(zh.error?.data.app?.fields?.name).toMatch(/\p{Script=Han}/u);
    expect((await ctx.deps.prisma.room.findMany({ where: { hotelId: w.hotel.id }, select: { name: true } })).map((r) => r.name)).toEqual(['E101']);
    expect((await ctx.deps.prisma.roomGroup.findMany({ where: { hotelId: w.hotel.id }, select: { name: true } })).map((g) => g.name)).toEqual(['Sea side']);
  });

  it('is refused on the legacy protocol (room/addCategory, room/change/category) with the field named', async () => {
    const w = await setup();
    const added = await w.call('room/addCategory', { name: 'Garden', sort: 1 });
    expect(added.errno).toBe(0);
    const id = (added.data as { id: number }).id;
    for (const name of broken) {
      for (const [path, payload] of [
        ['room/addCategory', { name, sort: 2 }],
        ['room/change/category', { id, name, sort: 1 }],
      ] as const) {
        const res = await w.call(path, payload);
        expect(res, `${path} ${JSON.stringify(name)}`).toMatchObject({ errno: 100001, data: { fields: { name: ONE_LINE } } });
      }
    }
    expect((await ctx.deps.prisma.roomGroup.findMany({ where: { hotelId: w.hotel.id }, select: { name: true } })).map((g) => g.name)).toEqual(['Garden']);
  });
});
