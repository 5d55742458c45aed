import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { transaction } from '../../db/transaction';
import { recordEvent } from '../../db/events';
import { READER_LIMITS, ZAddDispenserInput, ZDispenserIdInput, ZDispenserStatusInput, ZRenameDispenserInput, type TDispenserStatus } from '@console/shared';

/**
 * Card dispensers (issue 8 §5, `/manage/cardDispenser/*`): a dispenser stands at a desk and is
 * driven through that desk's reader service, so the server never reaches it. The browser reads its
 * status from the reader service and reports it here (`checkDispenserStatus`): the stock, the
 * capacity, and whether it answered. The server keeps the last report and when it was made.
 *
 * Every member sees the dispensers (`room.read`); reporting a status is front-desk work
 * (`credential.manage`); adding, naming and deleting need `hotel.manage`. Scoped to the actor's
 * hotel: another hotel's dispenser is "not found".
 */

export interface CardDispenserDto {
  id: number;
  deviceId: string;
  name: string;
  stock: number;
  capacity: number | null;
  status: TDispenserStatus;
  /** When the browser last reported its status (null: never). */
  lastCheckedAt: string | null;
  createdAt: string;
}

const SELECT = { id: true, deviceId: true, name: true, stock: true, capacity: true, status: true, lastCheckedAt: true, createdAt: true } as const;
type Row = {
  id: number;
  deviceId: string;
  name: string;
  stock: number;
  capacity: number | null;
  status: TDispenserStatus;
  lastCheckedAt: Date | null;
  createdAt: Date;
};

function toDto(row: Row): CardDispenserDto {
  return { ...row, lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null, createdAt: row.createdAt.toISOString() };
}

const notFound = () => new AppError('NOT_FOUND', { messageKey: 'deskReaders.errors.dispenserNotFound' });

async function findDispenser(ctx: AuthedContext, where: { id: number } | { deviceId: string }): Promise<Row> {
  const row = await ctx.deps.prisma.cardDispenser.findFirst({ where: { ...where, hotelId: ctx.actor.hotelId }, select: SELECT });
  if (!row) throw notFound();
  return row;
}

export async function listDispensers(ctx: AuthedContext): Promise<{ items: CardDispenserDto[] }> {
  requirePermission(ctx.actor, 'room.read');
  const rows = await ctx.deps.prisma.cardDispenser.findMany({
    where: { hotelId: ctx.actor.hotelId },
    select: SELECT,
    orderBy: { id: 'asc' },
    take: READER_LIMITS.listMax,
  });
  return { items: rows.map(toDto) };
}

export async function getDispenser(ctx: AuthedContext, where: { id: number } | { deviceId: string }): Promise<CardDispenserDto> {
  requirePermission(ctx.actor, 'room.read');
  return toDto(await findDispenser(ctx, where));
}

/** Registers a dispenser by the device id of the reader that drives it; a device id is registered once per hotel. */
export async function addDispenser(ctx: AuthedContext, raw: z.input<typeof ZAddDispenserInput>): Promise<CardDispenserDto> {
  requirePermission(ctx.actor, 'hotel.manage');
  const input = ZAddDispenserInput.parse(raw);
  const existing = await ctx.deps.prisma.cardDispenser.findFirst({ where: { hotelId: ctx.actor.hotelId, deviceId: input.deviceId }, select: { id: true } });
  if (existing)
    throw new AppError('CONFLICT', { messageKey: 'deskReaders.errors.dispenserExists', fields: { deviceId: 'deskReaders.errors.dispenserExists' } });
  return transaction(ctx.deps, async (tx) => {
    const created = await tx.cardDispenser.create({
      data: { hotelId: ctx.actor.hotelId, deviceId: input.deviceId, name: input.name },
      select: SELECT,
    });
    await recordAudit(tx, ctx, {
      action: 'dispenser.add',
      entityType: 'CardDispenser',
      entityId: created.id,
      after: { deviceId: created.deviceId, name: created.name },
    });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'device.changed' });
    return toDto(created);
  });
}

export async function renameDispenser(ctx: AuthedContext, raw: z.input<typeof ZRenameDispenserInput>): Promise<CardDispenserDto> {
  requirePermission(ctx.actor, 'hotel.manage');
  const input = ZRenameDispenserInput.parse(raw);
  const dispenser = await findDispenser(ctx, { id: input.id });
  if (dispenser.name === input.name) return toDto(dispenser);
  return transaction(ctx.deps, async (tx) => {
    const updated = await tx.cardDispenser.update({ where: { id: dispenser.id }, data: { name: input.name }, select: SELECT });
    await recordAudit(tx, ctx, {
      action: 'dispenser.rename',
      entityType: 'CardDispenser',
      entityId: dispenser.id,
      before: { name: dispenser.name },
      after: { name: input.name },
    });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'device.changed' });
    return toDto(updated);
  });
}

/**
 * Records a status check the browser made through the reader service: `online` with the stock
 * (and capacity), kept as `empty` when no card is left; `offline` or `fault` keep the last known
 * stock. Not audited (a reading, not a change anyone made), but the time is kept.
 */
export async function checkDispenserStatus(ctx: AuthedContext, raw: z.input<typeof ZDispenserStatusInput>): Promise<CardDispenserDto> {
  requirePermission(ctx.actor, 'credential.manage');
  const input = ZDispenserStatusInput.parse(raw);
  const dispenser = await findDispenser(ctx, { id: input.id });
  const stock = input.stock ?? dispenser.stock;
  const status: TDispenserStatus = input.status === 'online' && stock === 0 ? 'empty' : input.status;
  const capacity = input.capacity ?? dispenser.capacity;
  return transaction(ctx.deps, async (tx) => {
    const updated = await tx.cardDispenser.update({
      where: { id: dispenser.id },
      data: { status, stock, ...(input.capacity !== undefined ? { capacity: input.capacity } : {}), lastCheckedAt: new Date() },
      select: SELECT,
    });
    // What another desk's list shows changed: said (the time of the check alone is not).
    if (status !== dispenser.status || stock !== dispenser.stock || capacity !== dispenser.capacity) {
      await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'device.changed' });
    }
    return toDto(updated);
  });
}

export async function deleteDispenser(ctx: AuthedContext, raw: z.input<typeof ZDispenserIdInput>): Promise<{ deleted: true }> {
  requirePermission(ctx.actor, 'hotel.manage');
  const input = ZDispenserIdInput.parse(raw);
  const dispenser = await findDispenser(ctx, { id: input.id });
  await transaction(ctx.deps, async (tx) => {
    await tx.cardDispenser.delete({ where: { id: dispenser.id } });
    await recordAudit(tx, ctx, {
      action: 'dispenser.delete',
      entityType: 'CardDispenser',
      entityId: dispenser.id,
      names: { name: dispenser.name || dispenser.deviceId },
      before: { deviceId: dispenser.deviceId, name: dispenser.name },
    });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'device.changed' });
  });
  return { deleted: true };
}
