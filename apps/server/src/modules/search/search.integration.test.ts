import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../auth/session.service';
import { createAccount, createHotelWithStaff, createRooms, hours, insertStay } from '../../test/factories';
import { createTestContext, testMeta, type TestContext } from '../../test/harness';
import { insertKeptLock } from '../../test/lock-factories';
import { trpcClient } from '../../test/trpc-client';

/**
 * The search box (issue 28 §3): `search.query` finds the rooms, guests, stays and channel bookings,
 * cards, locks and staff of the member's hotel only, of the member's rooms only, matching the text
 * literally; it refuses text no field accepts with a client error.
 */

let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;
let a: Awaited<ReturnType<typeof createHotelWithStaff>>;
let b: Awaited<ReturnType<typeof createHotelWithStaff>>;
let limitedToken: string;
let roomsA: { id: number; name: string }[];
let roomB: { id: number; name: string };
const ids = {} as { stayA1: number; stayA2: number; stayB: number; lockA1: number; lockA2: number };
// A text unique to this run, so rows of other tests of the same database never answer.
const tag = `Q${Date.now().toString(36).slice(-5)}`;

beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
  a = await createHotelWithStaff(ctx.deps);
  b = await createHotelWithStaff(ctx.deps);
  roomsA = (await createRooms(ctx.deps, a.hotel.id, [`${tag}-A1`, `${tag}-A2`])).rooms;
  roomB = (await createRooms(ctx.deps, b.hotel.id, [`${tag}-B1`])).rooms[0]!;
  const stay = (hotelId: number, roomId: number, name: string, mobile: string, idNumber: string) =>
    insertStay(ctx.deps, {
      hotelId,
      roomId,
      checkInAt: hours(-1),
      expectedCheckOutAt: hours(20),
      guestName: name,
      guestMobile: mobile,
      guestIdNumber: idNumber,
    });
  ids.stayA1 = (await stay(a.hotel.id, roomsA[0]!.id, `${tag} Alice`, `1391111${tag.length}4821`, `ID${tag}A1`)).id;
  ids.stayA2 = (await stay(a.hotel.id, roomsA[1]!.id, `${tag} Amir`, '13922227733', `ID${tag}A2`)).id;
  ids.stayB = (await stay(b.hotel.id, roomB.id, `${tag} Bob`, '13933337733', `ID${tag}B`)).id;
  // A staff member of hotel A limited to room A1.
  const account = await createAccount(ctx.deps, { hotelId: a.hotel.id, role: 'staff' });
  const membership = await ctx.deps.prisma.membership.update({
    where: { accountId_hotelId: { accountId: account.id, hotelId: a.hotel.id } },
    data: { allRooms: false, name: `${tag} Limited` },
  });
  await ctx.deps.prisma.membershipRoom.create({ data: { hotelId: a.hotel.id, membershipId: membership.id, roomId: roomsA[0]!.id } });
  limitedToken = (await createSession(ctx.deps, { accountId: account.id, hotelId: a.hotel.id, kind: 'web', meta: testMeta() })).token;
  // Channel bookings of A2's and B's stays.
  for (const [hotelId, stayId, ref] of [
    [a.hotel.id, ids.stayA2, `HM${tag}A`],
    [b.hotel.id, ids.stayB, `HM${tag}B`],
  ] as const) {
    await ctx.deps.prisma.calendarFeedBooking.create({
      data: {
        hotelId,
        stayId,
        uid: `${ref}-uid@airbnb.com`,
        state: 'booked',
        reference: ref,
        guestName: 'Channel guest',
        startsAt: hours(-1),
        endsAt: hours(20),
      },
    });
  }
  // A room card of each room, with its writing; locks of A1, A2 and B.
  const card = async (hotelId: number, roomId: number, cardNumber: string) => {
    const c = await ctx.deps.prisma.card.create({ data: { hotelId, cardNumber, kind: 'room' } });
    await ctx.deps.prisma.cardIssue.create({
      data: {
        hotelId,
        cardId: c.id,
        kind: 'room',
        medium: 'number',
        state: 'issued',
        roomId,
        uid: 'A1B2C3D4',
        validFrom: hours(-1),
        holderName: `${tag} holder`,
      },
    });
  };
  await card(a.hotel.id, roomsA[0]!.id, `77${tag.length}10001`);
  await card(a.hotel.id, roomsA[1]!.id, `77${tag.length}10002`);
  await card(b.hotel.id, roomB.id, `77${tag.length}10003`);
  ids.lockA1 = await insertKeptLock(ctx.deps, a.hotel.id, roomsA[0]!.id, `${tag}-LOCK-A1`);
  ids.lockA2 = await insertKeptLock(ctx.deps, a.hotel.id, roomsA[1]!.id, `${tag}-LOCK-A2`);
  await insertKeptLock(ctx.deps, b.hotel.id, roomB.id, `${tag}-LOCK-B`);
});
afterAll(() => ctx.close());

async function search(text: string, token = a.ownerToken, limit?: number) {
  const res = await api.query('search.query', { text, ...(limit === undefined ? {} : { limit }) }, { token });
  expect(res.error, JSON.stringify(res.error)).toBeUndefined();
  return res.data!;
}

describe('search.query', () => {
  it("finds the hotel's rooms, guests, cards and locks, never another hotel's", async () => {
    const res = await search(tag);
    expect(res.rooms.map((r) => r.name).sort()).toEqual([`${tag}-A1`, `${tag}-A2`]);
    expect(res.guests.map((g) => g.name).sort()).toEqual([`${tag} Alice`, `${tag} Amir`]);
    expect(res.locks.map((l) => l.providerLockId).sort()).toEqual([`${tag}-LOCK-A1`, `${tag}-LOCK-A2`]);
    expect(res.locks.find((l) => l.id === ids.lockA1)?.roomId).toBe(roomsA[0]!.id);
    expect(JSON.stringify(res)).not.toContain('Bob');
    const other = await search(tag, b.ownerToken);
    expect(other.guests.map((g) => g.name)).toEqual([`${tag} Bob`]);
    expect(JSON.stringify(other)).not.toMatch(/Alice|Amir|-A1|-A2/);
  });

  it("finds a guest by a mobile's last digits, and by ID number, with the stay and room to open", async () => {
    const byPhone = await search(`${tag.length}4821`);
    expect(byPhone.guests).toEqual([
      expect.objectContaining({
        name: `${tag} Alice`,
        matched: 'mobile',
        stayId: ids.stayA1,
        roomId: roomsA[0]!.id,
        roomName: `${tag}-A1`,
        stayStatus: 'in_house',
      }),
    ]);
    // The same last digits in both hotels: each finds its own guest.
    expect((await search('7733')).guests.filter((g) => g.name.startsWith(tag)).map((g) => g.name)).toEqual([`${tag} Amir`]);
    expect((await search('7733', b.ownerToken)).guests.filter((g) => g.name.startsWith(tag)).map((g) => g.name)).toEqual([`${tag} Bob`]);
    const byId = await search(`id${tag}a2`);
    expect(byId.guests.map((g) => [g.name, g.matched])).toEqual([[`${tag} Amir`, 'idNumber']]);
  });

  it('finds a guest who changed rooms once, on the stay they are in now, with their visit from its first day (issue 39 §10)', async () => {
    const [from, to] = (await createRooms(ctx.deps, a.hotel.id, [`${tag}-M1`, `${tag}-M2`])).rooms;
    const began = hours(-30);
    const first = await insertStay(ctx.deps, {
      hotelId: a.hotel.id,
      roomId: from!.id,
      checkInAt: began,
      expectedCheckOutAt: hours(20),
      guestName: `${tag} Mover`,
      guestMobile: '13944445566',
    });
    const moved = await api.mutation('stay.changeRoom', { stayId: first.id, targetRoomId: to!.id }, { token: a.ownerToken });
    expect(moved.error).toBeUndefined();
    const hits = (await search(`${tag} Mover`)).guests;
    expect(hits).toEqual([
      expect.objectContaining({ roomId: to!.id, stayStatus: 'in_house', visitCheckInAt: began.toISOString(), checkInAt: expect.any(String) }),
    ]);
    expect(hits[0]!.stayId).not.toBe(first.id);
    expect(hits[0]!.checkInAt).not.toBe(hits[0]!.visitCheckInAt);
  });

  it("finds a stay by its channel booking's reference or UID, and by its number, of the hotel only", async () => {
    const byRef = await search(`HM${tag}`);
    expect(byRef.reservations).toEqual([
      expect.objectContaining({ stayId: ids.stayA2, reference: `HM${tag}A`, guestName: `${tag} Amir`, roomId: roomsA[1]!.id }),
    ]);
    expect((await search(`HM${tag}A-UID@AIRBNB`)).reservations.map((r) => r.stayId)).toEqual([ids.stayA2]);
    expect((await search(`#${ids.stayA1}`)).reservations.map((r) => r.stayId)).toEqual([ids.stayA1]);
    expect((await search(String(ids.stayB))).reservations.map((r) => r.stayId)).not.toContain(ids.stayB);
    expect((await search(`#${ids.stayB}`, b.ownerToken)).reservations.map((r) => r.stayId)).toEqual([ids.stayB]);
  });

  it("finds a card by its number, with its room, and never another hotel's card", async () => {
    const res = await search(`77${tag.length}1000`);
    expect(res.cards.map((c) => [c.cardNumber, c.roomId, c.state]).sort()).toEqual([
      [`77${tag.length}10001`, roomsA[0]!.id, 'issued'],
      [`77${tag.length}10002`, roomsA[1]!.id, 'issued'],
    ]);
  });

  it('shows a member limited to some rooms only their stays, guests, cards and locks, and no staff', async () => {
    const res = await search(tag, limitedToken);
    expect(res.rooms.map((r) => r.name)).toEqual([`${tag}-A1`]);
    expect(res.guests.map((g) => g.name)).toEqual([`${tag} Alice`]);
    expect(res.locks.map((l) => l.id)).toEqual([ids.lockA1]);
    expect(res.staff).toEqual([]);
    expect((await search(`77${tag.length}1000`, limitedToken)).cards.map((c) => c.roomId)).toEqual([roomsA[0]!.id]);
    expect((await search(`HM${tag}`, limitedToken)).reservations).toEqual([]);
    expect((await search(`#${ids.stayA2}`, limitedToken)).reservations).toEqual([]);
    expect((await search(`#${ids.stayA1}`, limitedToken)).reservations.map((r) => r.stayId)).toEqual([ids.stayA1]);
    // The owner finds that member on the staff list; staff of every room without staff.manage do not.
    expect((await search(`${tag} Limited`)).staff.map((s) => s.name)).toEqual([`${tag} Limited`]);
    expect((await search(`${tag} Limited`, a.staffToken)).staff).toEqual([]);
    expect((await search(`${tag} Limited`, b.ownerToken)).staff).toEqual([]);
  });

  it('matches `%`, `_` and `\\` literally', async () => {
    const names = [`${tag}L%1`, `${tag}L_1`, `${tag}L\\1`, `${tag}Lx1`];
    for (const name of names)
      await insertStay(ctx.deps, {
        hotelId: a.hotel.id,
        roomId: roomsA[1]!.id,
        checkInAt: hours(-30),
        expectedCheckOutAt: hours(-29),
        status: 'checked_out',
        guestName: name,
      });
    const found = async (text: string) => (await search(text, a.ownerToken, 10)).guests.map((g) => g.name).filter((n) => names.includes(n));
    expect(await found(`${tag}L%`)).toEqual([`${tag}L%1`]);
    expect(await found(`${tag}L_`)).toEqual([`${tag}L_1`]);
    expect(await found(`${tag}L\\`)).toEqual([`${tag}L\\1`]);
    expect((await found(`${tag}L`)).sort()).toEqual([...names].sort());
  });

  it('keeps each group to its limit', async () => {
    for (let i = 0; i < 12; i++)
      await insertStay(ctx.deps, {
        hotelId: a.hotel.id,
        roomId: roomsA[1]!.id,
        checkInAt: hours(-100 - i * 2),
        expectedCheckOutAt: hours(-99 - i * 2),
        status: 'checked_out',
        guestName: `${tag} Many ${i}`,
      });
    expect((await search(`${tag} Many`)).guests).toHaveLength(5);
    expect((await search(`${tag} Many`, a.ownerToken, 10)).guests).toHaveLength(10);
    const tooMany = await api.query('search.query', { text: tag, limit: 11 }, { token: a.ownerToken });
    expect(tooMany.status).toBe(400);
  });

  it.each([
    ['a NUL character', 'ab\u0000cd'],
    ['a lone surrogate', 'ab\ud800cd'],
    ['a line break', 'ab\ncd'],
    ['nothing', '   '],
    ['a 65-character text', 'x'.repeat(65)],
  ])('refuses %s with a translated client error', async (_label, text) => {
    const res = await api.raw.query('search.query', { text }, { token: a.ownerToken, lang: 'zh-CN' });
    expect(res.status).toBe(400);
    expect(res.error?.message).toMatch(/[\u4e00-\u9fff]/);
  });

  it('answers two identical searches at once alike', async () => {
    const [one, two] = await Promise.all([search(tag), search(tag)]);
    expect(two).toEqual(one);
    expect(one.guests.length).toBeGreaterThan(1);
  });

  it('refuses a visitor without a session', async () => {
    const res = await api.query('search.query', { text: tag });
    expect(res.status).toBe(401);
  });

  it('refuses an attendant, who may not search, as not allowed (issue 39 §8)', async () => {
    const attendant = await createAccount(ctx.deps, { hotelId: a.hotel.id, role: 'housekeeping' });
    const token = (await createSession(ctx.deps, { accountId: attendant.id, hotelId: a.hotel.id, kind: 'web', meta: testMeta() })).token;
    const res = await api.query('search.query', { text: tag }, { token, lang: 'en' });
    expect(res.status).toBe(403);
    expect(res.error?.data.app).toMatchObject({ code: 'FORBIDDEN' });
    expect(res.data).toBeUndefined();
  });
});
