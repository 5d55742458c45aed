import { randomUUID } from 'node:crypto';
import { addDays, localDate, zonedToInstant } from '@console/shared';
import type { Role, Room } from '../generated/prisma/client';
import type { Actor, AuthedContext } from '../context';
import { createSession } from '../modules/auth/session.service';
import { checkIn } from '../modules/stays/check-in';
import { createAccount, createCustomers, createHotelWithStaff, createRooms, hours, uniqueMobile, zoneAtLocalHour } from './factories';
import { actorContext, testMeta, type TestContext } from './harness';

/**
 * What the ledger's tests share: a hotel with rooms, an owner, front-desk staff with every room and
 * front-desk staff and an administrator limited to the first room, a customer, and stays checked
 * in through the stay service (so their price is the pricing function's).
 */
export type Ctx = AuthedContext & { actor: Actor };

export async function member(ctx: TestContext, hotelId: number, role: Role, roomIds?: number[]): Promise<{ id: number; token: string; ctx: Ctx }> {
  const account = await createAccount(ctx.deps, { hotelId, role });
  if (roomIds) {
    const membership = await ctx.deps.prisma.membership.update({ where: { accountId_hotelId: { accountId: account.id, hotelId } }, data: { allRooms: false } });
    await ctx.deps.prisma.membershipRoom.createMany({ data: roomIds.map((roomId) => ({ hotelId, membershipId: membership.id, roomId })) });
  }
  const session = await createSession(ctx.deps, { accountId: account.id, hotelId, kind: 'web', meta: testMeta() });
  return { id: account.id, token: session.token, ctx: await actorContext(ctx.deps, session.token) };
}

export async function ledgerHotel(ctx: TestContext, roomNames = ['101', '102', '103']) {
  const h = await createHotelWithStaff(ctx.deps);
  const created = await createRooms(ctx.deps, h.hotel.id, roomNames, { usualPrice: 20_000 });
  const rooms = created.rooms as [Room, Room, Room, ...Room[]];
  const owner = await actorContext(ctx.deps, h.ownerToken);
  const staff = await actorContext(ctx.deps, h.staffToken);
  const limitedStaff = await member(ctx, h.hotel.id, 'staff', [rooms[0].id]);
  const limitedAdmin = await member(ctx, h.hotel.id, 'admin', [rooms[0].id]);
  const [customer] = await createCustomers(ctx.deps, h.hotel.id, 1, 'Ledger');
  return {
    hotel: h.hotel,
    ownerToken: h.ownerToken,
    staffToken: h.staffToken,
    ownerId: h.owner.id,
    staffId: h.staff.id,
    rooms,
    owner,
    staff,
    limitedStaff,
    limitedAdmin,
    customer: customer!,
  };
}

/**
 * A ledger hotel where it is noon now (no night of a test crosses its midnight), its actors on its
 * zone and its rooms made ten days ago: today, yesterday and an instant of a day around today.
 */
export async function noonHotel(ctx: TestContext) {
  const h = await ledgerHotel(ctx);
  const timeZone = zoneAtLocalHour(12);
  await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone } });
  for (const c of [h.owner, h.staff]) c.actor.timeZone = timeZone;
  await ctx.deps.prisma.room.updateMany({ where: { hotelId: h.hotel.id }, data: { createdAt: new Date(Date.now() - 10 * 86_400_000) } });
  const today = localDate(new Date(), timeZone);
  const at = (days: number, time: string) => zonedToInstant(`${addDays(today, days)}T${time}`, timeZone)!;
  return { ...h, timeZone, today, yesterday: addDays(today, -1), at };
}

/**
 * A guest checked in through the stay service: from `from` hours from now to `to` hours from now,
 * priced by the pricing function. `to: 'next_noon'` is noon (the hotel's time) of the day after the
 * check-in's day: one night, which a check-out now uses whole at any hour of the day (a stay that
 * runs past the next night would be an early departure or not depending on when the test runs).
 */
export async function stayIn(by: Ctx, roomId: number, options: { from?: number; to?: number | 'next_noon'; deposit?: number } = {}) {
  const checkInAt = hours(options.from ?? -0.5);
  const expectedCheckOutAt =
    options.to === 'next_noon' ? zonedToInstant(`${addDays(localDate(checkInAt, by.actor.timeZone), 1)} 12:00`, by.actor.timeZone)! : hours(options.to ?? 48);
  return checkIn(by, {
    roomId,
    checkInAt,
    expectedCheckOutAt,
    guests: [{ name: `Guest ${randomUUID().slice(0, 6)}`, mobile: uniqueMobile() }],
    depositAmount: options.deposit ?? 0,
    // A deposit is taken with its way of paying (nothing is assumed): cash here.
    depositMethod: options.deposit ? 'cash' : undefined,
    idempotencyKey: randomUUID(),
    acknowledge: ['room_dirty', 'guest_in_other_room'],
  });
}

/** The sum of a folio's entries, read straight from the table. */
export async function tableSum(ctx: TestContext, folioId: number): Promise<number> {
  const [row] = await ctx.deps.prisma.$queryRaw<{ s: bigint | null }[]>`SELECT sum("amount") AS s FROM "OrderEntry" WHERE "folioId" = ${folioId}`;
  return Number(row?.s ?? 0);
}

/** What a rejected call was rejected with: the AppError's code and message key. */
export async function refusal(
  promise: Promise<unknown>,
): Promise<{ code: string; key: string; details?: Record<string, unknown>; fields?: Record<string, string> }> {
  try {
    await promise;
  } catch (error) {
    const e = error as {
      code?: string;
      message?: string;
      options?: { details?: Record<string, unknown>; money?: { amounts: Record<string, number> }; fields?: Record<string, string> };
      issues?: unknown;
    };
    const details = e.options?.details || e.options?.money ? { ...e.options?.details, ...e.options?.money?.amounts } : undefined;
    return { code: e.code ?? (e.issues ? 'ZOD' : 'UNKNOWN'), key: e.message ?? '', details, fields: e.options?.fields };
  }
  return { code: 'NONE', key: '' };
}

/** A shift's line of one way of paying (shifts' tests). */
export const shiftLine = <L extends { method: string }>(shift: { methods: L[] }, method: string) => shift.methods.find((l) => l.method === method);
