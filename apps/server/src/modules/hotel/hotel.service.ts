import { HOTEL_FIELDS, isCurrencyChangeSafe, noShowDeadline, type TNoShowPolicy, type TUpdateHotelInput } from '@console/shared';
import type { Prisma } from '../../generated/prisma/client';
import type { AuthedContext } from '../../context';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { transaction } from '../../db/transaction';
import { recordEvent } from '../../db/events';

/** The hotel's information and settings as every face shows them (a DTO, never the row). */
export interface HotelInfo {
  id: number;
  name: string;
  address: string;
  tel: string;
  latitude: number | null;
  longitude: number | null;
  /** IANA time zone: every time of the console is shown in it. */
  timeZone: string;
  /** ISO 4217; amounts are integers in its minor unit. */
  currency: string;
  /** Default check-in and check-out times of day, `HH:mm`. */
  checkInTime: string;
  checkOutTime: string;
  /** When a reservation whose guest has not come becomes a no-show (`noShowDeadline`), `HH:mm`. */
  noShowTime: string;
  /** When the day before closes by itself, `HH:mm`; null: a manager closes each day. */
  dayCloseTime: string | null;
  /** What the night audit does with a no-show: release its room, or charge its first night as well. */
  noShowPolicy: TNoShowPolicy;
  updatedAt: Date;
}

const SELECT = {
  id: true,
  name: true,
  address: true,
  tel: true,
  latitude: true,
  longitude: true,
  timeZone: true,
  currency: true,
  checkInTime: true,
  checkOutTime: true,
  noShowTime: true,
  dayCloseTime: true,
  noShowPolicy: true,
  updatedAt: true,
} as const;

type Row = { [K in keyof HotelInfo]: K extends 'latitude' | 'longitude' ? { toNumber(): number } | null : K extends 'noShowPolicy' ? string : HotelInfo[K] };

function toInfo(row: Row): HotelInfo {
  return {
    ...row,
    noShowPolicy: row.noShowPolicy as TNoShowPolicy,
    latitude: row.latitude === null ? null : row.latitude.toNumber(),
    longitude: row.longitude === null ? null : row.longitude.toNumber(),
  };
}

function ownHotel(ctx: AuthedContext, hotelId: number | undefined): number {
  if (hotelId !== undefined && hotelId !== ctx.actor.hotelId) throw new AppError('NOT_FOUND');
  return ctx.actor.hotelId;
}

/** The actor's hotel: every member may read it (the console shows times in its zone). */
export async function getHotelInfo(ctx: AuthedContext, input: { hotelId?: number } = {}): Promise<HotelInfo> {
  const id = ownHotel(ctx, input.hotelId);
  const row = await ctx.deps.prisma.hotel.findUnique({ where: { id }, select: SELECT });
  if (!row) throw new AppError('NOT_FOUND');
  return toInfo(row);
}

/**
 * Changes the actor's hotel (owners and administrators: `hotel.manage`). Only the fields given
 * change; the audit log records what each was and became. A currency change must keep the number
 * of minor digits (amounts are stored in minor units: 200.00 CNY must not become 20000 JPY).
 */
export async function updateHotelInfo(ctx: AuthedContext, input: TUpdateHotelInput): Promise<HotelInfo> {
  const { deps } = ctx;
  requirePermission(ctx.actor, 'hotel.manage');
  const id = ownHotel(ctx, input.hotelId);
  let moved: { id: number; noShowAt: Date }[] = [];
  const after = await transaction(deps, async (tx) => {
    const [locked] = await tx.$queryRaw<{ id: number }[]>`SELECT "id" FROM "Hotel" WHERE "id" = ${id} FOR UPDATE`;
    if (!locked) throw new AppError('NOT_FOUND');
    const before = toInfo(await tx.hotel.findUniqueOrThrow({ where: { id }, select: SELECT }));
    if (input.currency !== undefined && input.currency !== before.currency && !isCurrencyChangeSafe(before.currency, input.currency)) {
      throw new AppError('VALIDATION', {
        messageKey: 'settings.validation.currencyDigitsDiffer',
        fields: { currency: 'settings.validation.currencyDigitsDiffer' },
      });
    }
    const changed = HOTEL_FIELDS.filter((f) => input[f] !== undefined && input[f] !== before[f]);
    if (changed.length === 0) return before;
    const data: Prisma.HotelUpdateInput = Object.fromEntries(changed.map((f) => [f, input[f]]));
    const after = toInfo(await tx.hotel.update({ where: { id }, data, select: SELECT }));
    if (changed.includes('noShowTime') || changed.includes('timeZone')) moved = await followNoShowTime(tx, after);
    await recordAudit(tx, ctx, {
      action: 'hotel.update',
      entityType: 'Hotel',
      entityId: id,
      before: Object.fromEntries(changed.map((f) => [f, before[f]])),
      after: { ...Object.fromEntries(changed.map((f) => [f, after[f]])), ...(moved.length ? { reservationsNoShowMoved: moved.length } : {}) },
    });
    await recordEvent(tx, { hotelId: id, kind: 'hotel.changed' });
    return after;
  });
  // Each moved reservation's no-show job at its new time (the stay sweep catches up any not scheduled).
  await deps.queues.stay.addBulk(
    moved.map((m) => ({
      name: 'noShow',
      data: { stayId: m.id, version: 0 },
      opts: { jobId: `stay-${m.id}-noshow-${m.noShowAt.getTime()}`, delay: Math.max(0, m.noShowAt.getTime() - Date.now()) },
    })),
  );
  return after;
}

/**
 * The reservations awaiting their guest follow a new no-show time (or time zone): each one's
 * no-show time is computed again by the one rule (`noShowDeadline`). Returns those that moved.
 */
async function followNoShowTime(tx: Prisma.TransactionClient, hotel: HotelInfo): Promise<{ id: number; noShowAt: Date }[]> {
  const pending = await tx.stay.findMany({
    where: { hotelId: hotel.id, status: 'reserved', awaitsArrival: true },
    select: { id: true, checkInAt: true, expectedCheckOutAt: true, noShowAt: true },
  });
  const moved = pending
    .map((s) => ({ id: s.id, was: s.noShowAt, noShowAt: noShowDeadline(s.checkInAt, s.expectedCheckOutAt, hotel.noShowTime, hotel.timeZone) }))
    .filter((s) => s.was?.getTime() !== s.noShowAt.getTime());
  if (moved.length) {
    await tx.$executeRaw`UPDATE "Stay" s SET "noShowAt" = v."at" FROM unnest(${moved.map((m) => m.id)}::int[], ${moved.map((m) => m.noShowAt)}::timestamptz[]) AS v("id", "at") WHERE s."id" = v."id" AND s."hotelId" = ${hotel.id}`;
  }
  return moved.map(({ id, noShowAt }) => ({ id, noShowAt }));
}
