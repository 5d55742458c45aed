import type { Prisma } from '../../generated/prisma/client';
import type { ServiceContext } from '../../context';
import { transaction } from '../../db/transaction';
import { recordEvent } from '../../db/events';
import { recordAudit } from '../audit/audit.service';
import { followCredentials } from '../credentials/delivery';
import { revokeExpiredStayCredentials, removeLapsedCredentials } from './expiry-margin';
import { revokeStayCredentials } from '../credentials/revocation';
import { chargeNoShowFee } from '../orders/no-show-fee';
import { followRoomCharge } from '../orders/room-charge';
import type { StayJobData } from '../../jobs/payloads';

/**
 * The transitions time makes (docs/room-status.md): a reservation's arrival day comes (the room is
 * held for it tonight), a check-in dated ahead begins at its check-in time, a reservation that
 * awaits its guest becomes a no-show at its no-show time (its room released, its credentials
 * withdrawn), a stay past its expected check-out is expired. The delayed jobs of each stay call
 * `dueOnTime`, `arriveOnTime`, `noShowOnTime` and `expireOnTime`; the sweep catches up whatever
 * jobs were lost. Each change of state is audited with the job as the actor. `now` is the clock
 * (tests choose it).
 */

/** A reservation whose arrival day has come holds its room tonight (the database's trigger `Stay_arrival_due` decides). */
export async function dueOnTime(ctx: ServiceContext, job: StayJobData): Promise<boolean> {
  const { count } = await ctx.deps.prisma.stay.updateMany({ where: { id: job.stayId, status: 'reserved', arrivalDue: false }, data: { arrivalDue: true } });
  return count > 0;
}

/** A check-in dated ahead whose time has come is in house (only the version the job was scheduled for). */
export async function arriveOnTime(ctx: ServiceContext, job: StayJobData, now = new Date()): Promise<boolean> {
  return transaction(ctx.deps, async (tx) => {
    const [stay] = await tx.stay.updateManyAndReturn({
      where: { id: job.stayId, version: job.version, status: 'reserved', awaitsArrival: false, checkInAt: { lte: now } },
      data: { status: 'in_house' },
      select: { id: true, hotelId: true, roomId: true, hotel: { select: { currency: true } } },
    });
    if (!stay) return false;
    await recordEvent(tx, { hotelId: stay.hotelId, kind: 'stay.arrived', roomIds: [stay.roomId], stayId: stay.id });
    await followRoomCharge(tx, ctx, { hotelId: stay.hotelId, currency: stay.hotel.currency.trim(), accountId: null }, stay.id);
    await recordAudit(tx, ctx, {
      action: 'stay.arrive',
      hotelId: stay.hotelId,
      entityType: 'Stay',
      entityId: stay.id,
      after: { status: 'in_house', version: job.version },
    });
    return true;
  });
}

/** Ends the reservations of `where` whose guest has not come as no-shows, inside `tx`: each one's credentials withdrawn, each audited. */
async function markNoShows(tx: Prisma.TransactionClient, ctx: ServiceContext, where: Prisma.StayWhereInput, now: Date, by: 'job' | 'sweep' | 'close') {
  const stays = await tx.stay.updateManyAndReturn({
    where: { ...where, status: 'reserved', awaitsArrival: true, noShowAt: { lte: now } },
    data: { status: 'no_show', checkedOutAt: now },
    select: { id: true, hotelId: true, roomId: true, noShowAt: true },
  });
  for (const stay of stays) {
    await recordEvent(tx, { hotelId: stay.hotelId, kind: 'stay.cancelled', roomIds: [stay.roomId], stayId: stay.id });
    const revoked = await revokeStayCredentials(tx, stay.hotelId, { stayId: stay.id }, 'no_show');
    // The hotel's no-show policy: its first night charged as well, when the hotel says so.
    const fee = await chargeNoShowFee(tx, ctx, stay);
    await recordAudit(tx, ctx, {
      action: 'stay.noShow',
      hotelId: stay.hotelId,
      entityType: 'Stay',
      entityId: stay.id,
      before: { status: 'reserved' },
      after: {
        status: 'no_show',
        noShowAt: stay.noShowAt?.toISOString() ?? null,
        revokedCredentials: revoked,
        ...(fee ? { noShowFee: fee } : {}),
        ...(by === 'job' ? {} : { by }),
      },
    });
  }
  return stays;
}

/**
 * The no-shows of a hotel's day `[from, to)`, processed by its close (docs/reports.md) before the
 * day's figures are frozen: the reservations due that day whose no-show time has come are ended as
 * no-shows, as the stay's job or the sweep would have. How many.
 */
export async function releaseDayNoShows(tx: Prisma.TransactionClient, ctx: ServiceContext, hotelId: number, from: Date, to: Date, now: Date): Promise<number> {
  const marked = await markNoShows(tx, ctx, { hotelId, checkInAt: { gte: from, lt: to } }, now, 'close');
  if (marked.length) followCredentials(tx, ctx.deps, hotelId);
  return marked.length;
}

/** A reservation whose guest has not come by its no-show time is a no-show: its room is released, its credentials withdrawn. */
export async function noShowOnTime(ctx: ServiceContext, job: StayJobData, now = new Date()): Promise<boolean> {
  const [stay] = await transaction(ctx.deps, async (tx) => {
    const marked = await markNoShows(tx, ctx, { id: job.stayId }, now, 'job');
    for (const s of marked) followCredentials(tx, ctx.deps, s.hotelId, { stayId: s.id });
    return marked;
  });
  return stay !== undefined;
}

/** A stay past its expected check-out is expired, unless it was renewed (a newer version), ended, or awaits its guest (a no-show then). */
export async function expireOnTime(ctx: ServiceContext, job: StayJobData, now = new Date()): Promise<boolean> {
  const expired = await transaction(ctx.deps, async (tx) => {
    const [stay] = await tx.stay.updateManyAndReturn({
      where: {
        id: job.stayId,
        version: job.version,
        OR: [{ status: 'in_house' }, { status: 'reserved', awaitsArrival: false }],
        expectedCheckOutAt: { lte: now },
      },
      data: { status: 'expired' },
      select: EXPIRED_SELECT,
    });
    if (!stay) return null;
    await recordEvent(tx, { hotelId: stay.hotelId, kind: 'stay.changed', roomIds: [stay.roomId], stayId: stay.id });
    followCredentials(tx, ctx.deps, stay.hotelId, { stayId: stay.id });
    // The access rule's margin after the check-out: what it covers stays until its end (expiry-margin.ts).
    const { revoked, lapseAt } = await revokeExpiredStayCredentials(tx, stay, now);
    await recordAudit(tx, ctx, {
      action: 'stay.expire',
      hotelId: stay.hotelId,
      entityType: 'Stay',
      entityId: stay.id,
      after: { status: 'expired', version: job.version, revokedCredentials: revoked, ...(lapseAt ? { keptUntil: lapseAt.toISOString() } : {}) },
    });
    return { ...stay, lapseAt };
  });
  if (expired?.lapseAt) await scheduleLapse(ctx, { stayId: expired.id, version: job.version }, expired.lapseAt, now);
  return expired !== null;
}

const EXPIRED_SELECT = { id: true, hotelId: true, roomId: true, accessIssuedAt: true, expectedCheckOutAt: true } as const;

/** The stay's `lapse` job: its credentials kept for the rule's margin come off once their end has passed. */
async function scheduleLapse(ctx: ServiceContext, job: StayJobData, at: Date, now: Date): Promise<void> {
  const delay = Math.max(0, at.getTime() - now.getTime()) + 1_000;
  await ctx.deps.queues.stay.add('lapse', job, { jobId: `stay-${job.stayId}-v${job.version}-lapse-${at.getTime()}`, delay });
}

/** An expired stay's credentials whose end (the access rule's margin after the check-out) has passed are taken off. */
export async function lapseOnTime(ctx: ServiceContext, job: StayJobData, now = new Date()): Promise<number> {
  const hotels = await transaction(ctx.deps, async (tx) => {
    const lapsed = await removeLapsedCredentials(tx, now, { stayId: job.stayId });
    for (const hotelId of lapsed) followCredentials(tx, ctx.deps, hotelId, { stayId: job.stayId });
    return lapsed;
  });
  return hotels.size;
}

/**
 * Catches up lost jobs (a Redis restored from an old backup, a long downtime): reservations whose
 * arrival day has come, no-shows, expired and arrived stays, each change of state audited. Every
 * hotel of the install, or one (`scope.hotelId`: tests, which share one database between files).
 */
export async function sweepStays(
  ctx: ServiceContext,
  now = new Date(),
  scope: { hotelId?: number } = {},
): Promise<{ expired: number; arrived: number; noShows: number; due: number }> {
  const result = await transaction(ctx.deps, async (tx) => {
    // The arrival day in each hotel's own zone (the rule of the trigger Stay_arrival_due).
    const due = await tx.$executeRaw`
      UPDATE "Stay" s SET "arrivalDue" = true FROM "Hotel" h
      WHERE h."id" = s."hotelId" AND s."status" = 'reserved' AND NOT s."arrivalDue" AND s."checkInAt" < "Hotel_day_end"(h."timeZone", ${now}::timestamptz)
        AND (${scope.hotelId ?? null}::int IS NULL OR s."hotelId" = ${scope.hotelId ?? null}::int)`;
    const noShows = await markNoShows(tx, ctx, scope, now, 'sweep');
    const expired = await tx.stay.updateManyAndReturn({
      where: { ...scope, OR: [{ status: 'in_house' }, { status: 'reserved', awaitsArrival: false }], expectedCheckOutAt: { lte: now } },
      data: { status: 'expired' },
      select: EXPIRED_SELECT,
    });
    const arrived = await tx.stay.updateManyAndReturn({
      where: { ...scope, status: 'reserved', awaitsArrival: false, checkInAt: { lte: now } },
      data: { status: 'in_house' },
      select: { id: true, hotelId: true, roomId: true, hotel: { select: { currency: true } } },
    });
    for (const stay of expired) await recordEvent(tx, { hotelId: stay.hotelId, kind: 'stay.changed', roomIds: [stay.roomId], stayId: stay.id });
    for (const stay of arrived) await recordEvent(tx, { hotelId: stay.hotelId, kind: 'stay.arrived', roomIds: [stay.roomId], stayId: stay.id });
    for (const stay of arrived) await followRoomCharge(tx, ctx, { hotelId: stay.hotelId, currency: stay.hotel.currency.trim(), accountId: null }, stay.id);
    for (const stay of expired) await revokeExpiredStayCredentials(tx, stay, now);
    // Credentials kept for the rule's margin after an expired stay's check-out, whose end has now passed.
    const lapsed = await removeLapsedCredentials(tx, now, scope);
    for (const [action, stays, status] of [
      ['stay.expire', expired, 'expired'],
      ['stay.arrive', arrived, 'in_house'],
    ] as const) {
      for (const stay of stays) {
        await recordAudit(tx, ctx, { action, hotelId: stay.hotelId, entityType: 'Stay', entityId: stay.id, after: { status, by: 'sweep' } });
      }
    }
    for (const hotelId of new Set([...expired.map((s) => s.hotelId), ...noShows.map((s) => s.hotelId), ...lapsed])) followCredentials(tx, ctx.deps, hotelId);
    return { arrived: arrived.length, noShows: noShows.length, expiredCount: expired.length, due };
  });
  return { expired: result.expiredCount, arrived: result.arrived, noShows: result.noShows, due: result.due };
}
