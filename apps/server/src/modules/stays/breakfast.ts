import { ZBreakfastListInput, ZBreakfastServeInput, zonedToInstant } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { transaction } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { roomScope } from '../base/room-access';
import { findStay } from '../base/stay-dto';
import { recordEvent } from '../../db/events';

// Breakfast: on the morning of a date, the guests of stays with breakfast who slept there.

export interface BreakfastRow {
  stayId: number;
  roomId: number;
  roomName: string;
  guestNames: string[];
  guests: number;
  servedAt: string | null;
  servedGuests: number | null;
}

async function breakfastStays(ctx: AuthedContext, date: string, stayId?: number) {
  const morning = zonedToInstant(`${date}T00:00`, ctx.actor.timeZone)!;
  return ctx.deps.prisma.stay.findMany({
    where: {
      hotelId: ctx.actor.hotelId,
      room: roomScope(ctx.actor),
      breakfast: true,
      status: { not: 'ended' },
      checkInAt: { lt: morning },
      OR: [{ checkedOutAt: { gt: morning } }, { checkedOutAt: null, expectedCheckOutAt: { gt: morning } }],
      ...(stayId !== undefined ? { id: stayId } : {}),
    },
    select: {
      id: true,
      roomId: true,
      room: { select: { name: true } },
      guests: { select: { name: true }, orderBy: [{ isPrimary: 'desc' }, { id: 'asc' }] },
      breakfastRecords: { where: { date: new Date(`${date}T00:00:00Z`) }, select: { servedAt: true, guests: true } },
    },
    orderBy: { room: { name: 'asc' } },
  });
}

export async function listBreakfast(
  ctx: AuthedContext,
  raw: z.input<typeof ZBreakfastListInput>,
): Promise<{ date: string; rows: BreakfastRow[]; guests: number; served: number }> {
  requirePermission(ctx.actor, 'room.read');
  const { date } = ZBreakfastListInput.parse(raw);
  const stays = await breakfastStays(ctx, date);
  const rows = stays.map((s) => ({
    stayId: s.id,
    roomId: s.roomId,
    roomName: s.room.name,
    guestNames: s.guests.map((g) => g.name),
    guests: s.guests.length,
    servedAt: s.breakfastRecords[0]?.servedAt?.toISOString() ?? null,
    servedGuests: s.breakfastRecords[0]?.servedAt ? s.breakfastRecords[0].guests : null,
  }));
  return { date, rows, guests: rows.reduce((n, r) => n + r.guests, 0), served: rows.reduce((n, r) => n + (r.servedGuests ?? 0), 0) };
}

/**
 * Records the breakfast of a stay on a date as served (once; serving again updates the count).
 * Serving more breakfasts than the stay has guests needs the user's confirmation.
 */
export async function serveBreakfast(ctx: AuthedContext, raw: z.input<typeof ZBreakfastServeInput>): Promise<BreakfastRow> {
  requirePermission(ctx.actor, 'stay.manage');
  const input = ZBreakfastServeInput.parse(raw);
  await findStay(ctx, input.stayId);
  const [stay] = await breakfastStays(ctx, input.date, input.stayId);
  if (!stay) throw new AppError('CONFLICT', { messageKey: 'stay.errors.noBreakfast' });
  const guests = input.guests ?? stay.guests.length;
  if (guests > stay.guests.length && !input.acknowledge.includes('more_than_guests')) {
    throw new AppError('CONFIRMATION_REQUIRED', {
      messageKey: 'stay.warnings.breakfastMoreThanGuests',
      params: { count: guests, guests: stay.guests.length, room: stay.room.name },
      details: { warnings: ['more_than_guests'] },
    });
  }
  const date = new Date(`${input.date}T00:00:00Z`);
  await transaction(ctx.deps, async (tx) => {
    await tx.breakfastRecord.upsert({
      where: { stayId_date: { stayId: stay.id, date } },
      create: { hotelId: ctx.actor.hotelId, stayId: stay.id, date, guests, servedAt: new Date() },
      update: { guests, servedAt: new Date() },
    });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'stay.changed', roomIds: [stay.roomId], stayId: stay.id });
    await recordAudit(tx, ctx, { action: 'stay.breakfast', entityType: 'Stay', entityId: stay.id, after: { date: input.date, guests } });
  });
  return (await listBreakfast(ctx, { date: input.date })).rows.find((r) => r.stayId === stay.id)!;
}
