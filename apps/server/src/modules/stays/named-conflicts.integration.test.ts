/**
 * "The room is taken" names what is in the way (issue 26 §6): a check-in, a reservation, a renewal
 * or a legacy check-in refused because of another stay says whose it is and when the room is free
 * again, in the clerk's language and the hotel's time zone, on every face. The reason stays
 * `stay.errors.roomOccupied` (and the legacy errno 100006), so screens and clients act on it as before.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDate, zonedToInstant } from '@console/shared';
import { createSession } from '../auth/session.service';
import { createHotelWithStaff, createRooms, hours, uniqueMobile, zoneAtLocalHour } from '../../test/factories';
import { createTestContext, testMeta, type TestContext } from '../../test/harness';
import { legacyClient } from '../../test/legacy-client';
import { trpcClient } from '../../test/trpc-client';

let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;

beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
});
afterAll(() => ctx.close());

/** A hotel where it is noon now (in a zone far from the machine's), with two rooms. */
async function desk() {
  const h = await createHotelWithStaff(ctx.deps);
  const timeZone = zoneAtLocalHour(12);
  await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone } });
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['501', '502']);
  const today = localDate(new Date(), timeZone);
  const at = (days: number, time: string) => zonedToInstant(`${addDays(today, days)}T${time}`, timeZone)!;
  /** A moment as the message writes it: the reader's language, the hotel's zone. */
  const written = (lang: string, x: Date) => new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(x);
  return { ...h, timeZone, rooms: rooms as [(typeof rooms)[number], (typeof rooms)[number]], at, written };
}

const guest = (name: string) => ({ name, mobile: uniqueMobile() });

describe('a refusal for a room taken names the stay in the way', () => {
  it('a check-in over a reservation names its guest and its dates; a reservation over a guest in house says until when', async () => {
    const d = await desk();
    const [a, b] = d.rooms;
    const reserved = await api.mutation(
      'stay.reserve',
      {
        roomId: a.id,
        checkInAt: d.at(1, '14:00').toISOString(),
        expectedCheckOutAt: d.at(3, '12:00').toISOString(),
        guests: [guest('Ana Lima')],
        idempotencyKey: randomUUID(),
      },
      { token: d.staffToken },
    );
    expect(reserved.status).toBe(200);
    const walkIn = (roomId: number, to: Date, lang: string, name = 'Walk In') =>
      api.mutation(
        'stay.checkIn',
        {
          roomId,
          checkInAt: hours(-0.1).toISOString(),
          expectedCheckOutAt: to.toISOString(),
          guests: [guest(name)],
          idempotencyKey: randomUUID(),
          acknowledge: [],
        },
        { token: d.staffToken, lang },
      );
    for (const lang of ['en', 'zh-CN']) {
      const refused = await walkIn(a.id, d.at(2, '12:00'), lang);
      expect(refused.status).toBe(409);
      const from = d.written(lang, d.at(1, '14:00'));
      const until = d.written(lang, d.at(3, '12:00'));
      expect(refused.error?.data.app).toMatchObject({
        code: 'CONFLICT',
        reason: 'stay.errors.roomOccupied',
        message: lang === 'en' ? `The room is reserved for Ana Lima from ${from} to ${until}.` : `该房间已被 Ana Lima 预订：${from} 至 ${until}`,
      });
    }
    // A guest in house: the reservation that reaches into the stay is told when the room is free.
    expect((await walkIn(b.id, d.at(1, '11:00'), 'en', 'Bo Chen')).status).toBe(200);
    const over = await api.mutation(
      'stay.reserve',
      {
        roomId: b.id,
        checkInAt: d.at(0, '18:00').toISOString(),
        expectedCheckOutAt: d.at(1, '12:00').toISOString(),
        guests: [guest('Late')],
        idempotencyKey: randomUUID(),
      },
      { token: d.staffToken, lang: 'en' },
    );
    expect(over.error?.data.app).toMatchObject({
      reason: 'stay.errors.roomOccupied',
      message: `Bo Chen is staying in the room until ${d.written('en', d.at(1, '11:00'))}.`,
    });
  });

  it('a renewal into the next reservation names it', async () => {
    const d = await desk();
    const [a] = d.rooms;
    const stay = await api.mutation(
      'stay.checkIn',
      {
        roomId: a.id,
        checkInAt: hours(-0.1).toISOString(),
        expectedCheckOutAt: d.at(1, '12:00').toISOString(),
        guests: [guest('Cy Park')],
        idempotencyKey: randomUUID(),
        acknowledge: [],
      },
      { token: d.staffToken },
    );
    expect(stay.status).toBe(200);
    await api.mutation(
      'stay.reserve',
      {
        roomId: a.id,
        checkInAt: d.at(1, '14:00').toISOString(),
        expectedCheckOutAt: d.at(2, '12:00').toISOString(),
        guests: [guest('Di Ross')],
        idempotencyKey: randomUUID(),
      },
      { token: d.staffToken },
    );
    const renewed = await api.mutation(
      'stay.renew',
      { stayId: stay.data!.id, expectedCheckOutAt: d.at(2, '12:00').toISOString() },
      { token: d.staffToken, lang: 'en' },
    );
    expect(renewed.error?.data.app).toMatchObject({
      reason: 'stay.errors.roomOccupied',
      message: `The room is reserved for Di Ross from ${d.written('en', d.at(1, '14:00'))} to ${d.written('en', d.at(2, '12:00'))}.`,
    });
  });

  it('a legacy check-in is refused with the same words and the same errno', async () => {
    const d = await desk();
    const [a] = d.rooms;
    await api.mutation(
      'stay.reserve',
      {
        roomId: a.id,
        checkInAt: d.at(1, '14:00').toISOString(),
        expectedCheckOutAt: d.at(2, '12:00').toISOString(),
        guests: [guest('Eve Moss')],
        idempotencyKey: randomUUID(),
      },
      { token: d.staffToken },
    );
    const legacy = legacyClient(ctx.app, ctx.config);
    const token = (await createSession(ctx.deps, { accountId: d.staff.id, hotelId: d.hotel.id, kind: 'legacy', meta: testMeta() })).token;
    const local = (x: Date) => `${localDate(x, d.timeZone)} ${x.toLocaleTimeString('en-GB', { timeZone: d.timeZone, hour12: false })}`;
    const refused = await legacy.call(
      'room/tenant/update/checkIn',
      {
        room_id: a.id,
        check_in_time: local(hours(-0.1)),
        check_out_time: local(d.at(2, '10:00')),
        guests: [{ name: 'Legacy walk-in' }],
        request_id: randomUUID(),
      },
      { token, language: 'en' },
    );
    expect(refused).toMatchObject({
      errno: 100006,
      errmsg: `The room is reserved for Eve Moss from ${d.written('en', d.at(1, '14:00'))} to ${d.written('en', d.at(2, '12:00'))}.`,
    });
  });
});
