import {
  ZApplyPriceTemplateInput,
  ZPriceTemplateIdInput,
  ZQuoteInput,
  ZRoomIdInput,
  ZRoomPriceInput,
  ZSavePriceTemplateInput,
  localDate,
  minPriceMinor,
  type TRoomPriceInput,
  type TSavePriceTemplateInput,
} from '@console/shared';
import type { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client';
import type { AuthedContext } from '../../context';
import type { TPrisma } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { lockRooms, lockRow, transaction } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { findRoom, roomScope } from '../base/room-access';
import { priceRenewal, priceStay, type PriceQuote, type Rates } from './pricing';
import { recordEvent } from '../../db/events';

type Db = TPrisma | Prisma.TransactionClient;

/** The rates of a room, with its specific-date prices between two instants (hotel dates). */
export async function loadRates(db: Db, roomId: number, timeZone: string, from: Date, to: Date): Promise<Rates> {
  // One statement: the room's rates and its dates' prices beside them.
  const [room] = await db.$queryRaw<{ usualPrice: number; weekendPrice: number | null; renewalPrice: number | null; dates: [string, number][] }[]>`
    SELECT r."usualPrice", r."weekendPrice", r."renewalPrice",
      COALESCE((SELECT json_agg(json_build_array(to_char(d."date", 'YYYY-MM-DD'), d."price"))
                FROM "RoomDatePrice" d WHERE d."roomId" = r."id" AND d."date" BETWEEN ${localDate(from, timeZone)}::date AND ${localDate(to, timeZone)}::date), '[]') AS "dates"
    FROM "Room" r WHERE r."id" = ${roomId}`;
  if (!room) throw new AppError('NOT_FOUND', { messageKey: 'room.errors.notFound' });
  const { dates, ...rates } = room;
  return { ...rates, datePrices: new Map(dates) };
}

export async function quoteStay(db: Db, roomId: number, timeZone: string, checkIn: Date, checkOut: Date): Promise<PriceQuote> {
  return priceStay(checkIn, checkOut, timeZone, await loadRates(db, roomId, timeZone, checkIn, checkOut));
}

export async function quoteRenewal(db: Db, roomId: number, timeZone: string, from: Date, to: Date): Promise<PriceQuote> {
  return priceRenewal(from, to, timeZone, await loadRates(db, roomId, timeZone, from, to));
}

/** The price of a stay of a room, as the check-in form and the legacy `countRoomPriceNew` show it. */
export async function quote(ctx: AuthedContext, raw: z.input<typeof ZQuoteInput>) {
  requirePermission(ctx.actor, 'room.read');
  const input = ZQuoteInput.parse(raw);
  const room = await findRoom(ctx, input.roomId, { id: true, depositAmount: true });
  const result =
    input.kind === 'renewal'
      ? await quoteRenewal(ctx.deps.prisma, room.id, ctx.actor.timeZone, input.checkInAt, input.expectedCheckOutAt)
      : await quoteStay(ctx.deps.prisma, room.id, ctx.actor.timeZone, input.checkInAt, input.expectedCheckOutAt);
  return { ...result, depositAmount: room.depositAmount, currency: ctx.actor.currency };
}

/** Spec §5: a price is required and not less than 1 (in the hotel's currency). Field errors for each. */
function assertPrices(
  currency: string,
  rates: { usualPrice: number; weekendPrice: number | null; renewalPrice: number | null; datePrices: { price: number }[] },
) {
  const min = minPriceMinor(currency);
  const fields: Record<string, string> = {};
  if (rates.usualPrice < min) fields.usualPrice = 'validation.priceMin';
  if (rates.weekendPrice !== null && rates.weekendPrice < min) fields.weekendPrice = 'validation.priceMin';
  if (rates.renewalPrice !== null && rates.renewalPrice < min) fields.renewalPrice = 'validation.priceMin';
  rates.datePrices.forEach((p, i) => {
    if (p.price < min) fields[`datePrices.${i}.price`] = 'validation.priceMin';
  });
  const first = Object.values(fields)[0];
  if (first) throw new AppError('VALIDATION', { messageKey: first, fields });
}

const dateOf = (date: string) => new Date(`${date}T00:00:00Z`);
const rateSelect = { depositAmount: true, usualPrice: true, weekendPrice: true, renewalPrice: true, priceTemplateId: true } as const;

export interface RoomPriceDto {
  roomId: number;
  depositAmount: number;
  usualPrice: number;
  weekendPrice: number | null;
  renewalPrice: number | null;
  priceTemplateId: number | null;
  datePrices: { date: string; price: number }[];
  currency: string;
}

export async function getRoomPrice(ctx: AuthedContext, raw: z.input<typeof ZRoomIdInput>): Promise<RoomPriceDto> {
  requirePermission(ctx.actor, 'room.read');
  const { roomId } = ZRoomIdInput.parse(raw);
  const room = await findRoom(ctx, roomId, { id: true, ...rateSelect, datePrices: { select: { date: true, price: true }, orderBy: { date: 'asc' } } });
  return {
    roomId: room.id,
    depositAmount: room.depositAmount,
    usualPrice: room.usualPrice,
    weekendPrice: room.weekendPrice,
    renewalPrice: room.renewalPrice,
    priceTemplateId: room.priceTemplateId,
    datePrices: room.datePrices.map((d) => ({ date: d.date.toISOString().slice(0, 10), price: d.price })),
    currency: ctx.actor.currency,
  };
}

/** Sets a room's prices by hand; the room no longer follows a template. */
export async function setRoomPrice(ctx: AuthedContext, raw: TRoomPriceInput): Promise<RoomPriceDto> {
  requirePermission(ctx.actor, 'price.manage');
  const input = ZRoomPriceInput.parse(raw);
  assertPrices(ctx.actor.currency, input);
  const before = await getRoomPrice(ctx, { roomId: input.roomId });
  await transaction(ctx.deps, async (tx) => {
    await lockRooms(tx, ctx.actor.hotelId, [input.roomId]);
    await tx.room.update({
      where: { id: input.roomId },
      data: {
        depositAmount: input.depositAmount,
        usualPrice: input.usualPrice,
        weekendPrice: input.weekendPrice,
        renewalPrice: input.renewalPrice,
        priceTemplateId: null,
      },
    });
    await tx.roomDatePrice.deleteMany({ where: { roomId: input.roomId } });
    await tx.roomDatePrice.createMany({
      data: input.datePrices.map((d) => ({ hotelId: ctx.actor.hotelId, roomId: input.roomId, date: dateOf(d.date), price: d.price })),
    });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'price.changed', roomIds: [input.roomId] });
    await recordAudit(tx, ctx, { action: 'room.price', entityType: 'Room', entityId: input.roomId, before: { ...before }, after: { ...input } });
  });
  return getRoomPrice(ctx, { roomId: input.roomId });
}

// ---------------------------------------------------------------------------------------------
// Price templates

export interface PriceTemplateDto {
  id: number;
  name: string;
  depositAmount: number;
  usualPrice: number;
  weekendPrice: number | null;
  renewalPrice: number | null;
  datePrices: { date: string; price: number }[];
  roomCount: number;
}

const templateSelect = {
  id: true,
  name: true,
  depositAmount: true,
  usualPrice: true,
  weekendPrice: true,
  renewalPrice: true,
  datePrices: { select: { date: true, price: true }, orderBy: { date: 'asc' } },
  _count: { select: { rooms: { where: { deletedAt: null } } } },
} satisfies Prisma.PriceTemplateSelect;

function toTemplateDto(t: Prisma.PriceTemplateGetPayload<{ select: typeof templateSelect }>): PriceTemplateDto {
  const { _count, datePrices, ...rest } = t;
  return { ...rest, datePrices: datePrices.map((d) => ({ date: d.date.toISOString().slice(0, 10), price: d.price })), roomCount: _count.rooms };
}

export async function listPriceTemplates(ctx: AuthedContext): Promise<PriceTemplateDto[]> {
  requirePermission(ctx.actor, 'room.read');
  const templates = await ctx.deps.prisma.priceTemplate.findMany({ where: { hotelId: ctx.actor.hotelId }, select: templateSelect, orderBy: { name: 'asc' } });
  return templates.map(toTemplateDto);
}

export async function getPriceTemplate(ctx: AuthedContext, raw: z.input<typeof ZPriceTemplateIdInput>): Promise<PriceTemplateDto> {
  requirePermission(ctx.actor, 'room.read');
  const { id } = ZPriceTemplateIdInput.parse(raw);
  const template = await ctx.deps.prisma.priceTemplate.findFirst({ where: { id, hotelId: ctx.actor.hotelId }, select: templateSelect });
  if (!template) throw new AppError('NOT_FOUND', { messageKey: 'price.errors.templateNotFound' });
  return toTemplateDto(template);
}

/** Creates a template, or replaces one when `id` is given. */
export async function savePriceTemplate(ctx: AuthedContext, raw: TSavePriceTemplateInput): Promise<PriceTemplateDto> {
  requirePermission(ctx.actor, 'price.manage');
  const input = ZSavePriceTemplateInput.parse(raw);
  assertPrices(ctx.actor.currency, input);
  if (input.id !== undefined) await getPriceTemplate(ctx, { id: input.id });
  const data = {
    name: input.name,
    depositAmount: input.depositAmount,
    usualPrice: input.usualPrice,
    weekendPrice: input.weekendPrice,
    renewalPrice: input.renewalPrice,
  };
  try {
    const id = await transaction(ctx.deps, async (tx) => {
      if (input.id !== undefined) await lockRow(tx, 'PriceTemplate', ctx.actor.hotelId, input.id);
      const template =
        input.id !== undefined
          ? await tx.priceTemplate.update({ where: { id: input.id }, data })
          : await tx.priceTemplate.create({ data: { hotelId: ctx.actor.hotelId, ...data } });
      await tx.priceTemplateDatePrice.deleteMany({ where: { templateId: template.id } });
      await tx.priceTemplateDatePrice.createMany({ data: input.datePrices.map((d) => ({ templateId: template.id, date: dateOf(d.date), price: d.price })) });
      await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'price.changed' });
      await recordAudit(tx, ctx, {
        action: input.id !== undefined ? 'priceTemplate.update' : 'priceTemplate.create',
        entityType: 'PriceTemplate',
        entityId: template.id,
        after: { ...input },
      });
      return template.id;
    });
    return getPriceTemplate(ctx, { id });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', { messageKey: 'price.errors.templateNameTaken', params: { name: input.name } });
    throw error;
  }
}

/** Deletes a template; the rooms that used it keep the prices they were given. */
export async function deletePriceTemplate(ctx: AuthedContext, raw: z.input<typeof ZPriceTemplateIdInput>): Promise<void> {
  requirePermission(ctx.actor, 'price.manage');
  const { id } = ZPriceTemplateIdInput.parse(raw);
  const before = await getPriceTemplate(ctx, { id });
  await transaction(ctx.deps, async (tx) => {
    await lockRow(tx, 'PriceTemplate', ctx.actor.hotelId, id);
    await tx.room.updateMany({ where: { hotelId: ctx.actor.hotelId, priceTemplateId: id }, data: { priceTemplateId: null } });
    await tx.priceTemplate.delete({ where: { id } });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'price.changed' });
    await recordAudit(tx, ctx, {
      action: 'priceTemplate.delete',
      entityType: 'PriceTemplate',
      entityId: id,
      before: { ...before },
      names: { name: before.name },
    });
  });
}

/** Gives rooms (listed, or every room of a group) the template's prices. */
export async function applyPriceTemplate(ctx: AuthedContext, raw: z.input<typeof ZApplyPriceTemplateInput>): Promise<{ rooms: number }> {
  requirePermission(ctx.actor, 'price.manage');
  const input = ZApplyPriceTemplateInput.parse(raw);
  const template = await getPriceTemplate(ctx, { id: input.templateId });
  const rooms = await ctx.deps.prisma.room.findMany({
    where: { ...roomScope(ctx.actor), ...(input.roomIds?.length ? { id: { in: input.roomIds } } : { groupId: input.groupId }) },
    select: { id: true },
  });
  if (input.roomIds?.length && rooms.length !== new Set(input.roomIds).size) throw new AppError('NOT_FOUND', { messageKey: 'room.errors.notFound' });
  if (input.groupId !== undefined && !input.roomIds?.length) {
    const group = await ctx.deps.prisma.roomGroup.count({ where: { id: input.groupId, hotelId: ctx.actor.hotelId } });
    if (!group) throw new AppError('NOT_FOUND', { messageKey: 'roomGroup.errors.notFound' });
  }
  const roomIds = rooms.map((r) => r.id);
  await transaction(ctx.deps, async (tx) => {
    await lockRow(tx, 'PriceTemplate', ctx.actor.hotelId, template.id);
    if ((await tx.priceTemplate.count({ where: { id: template.id, hotelId: ctx.actor.hotelId } })) === 0)
      throw new AppError('NOT_FOUND', { messageKey: 'price.errors.templateNotFound' });
    await lockRooms(tx, ctx.actor.hotelId, roomIds);
    await tx.room.updateMany({
      where: { id: { in: roomIds } },
      data: {
        depositAmount: template.depositAmount,
        usualPrice: template.usualPrice,
        weekendPrice: template.weekendPrice,
        renewalPrice: template.renewalPrice,
        priceTemplateId: template.id,
      },
    });
    await tx.roomDatePrice.deleteMany({ where: { roomId: { in: roomIds } } });
    await tx.roomDatePrice.createMany({
      data: roomIds.flatMap((roomId) => template.datePrices.map((d) => ({ hotelId: ctx.actor.hotelId, roomId, date: dateOf(d.date), price: d.price }))),
    });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'price.changed', roomIds: roomIds });
    await recordAudit(tx, ctx, { action: 'priceTemplate.apply', entityType: 'PriceTemplate', entityId: template.id, after: { roomIds } });
  });
  return { rooms: roomIds.length };
}
