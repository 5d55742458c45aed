import {
  MONEY_METHODS,
  shiftCountDiffers,
  ZShiftCloseInput,
  ZShiftIdInput,
  ZShiftListInput,
  ZShiftOpenInput,
  type TMoneyMethod,
  type TPaymentMethod,
} from '@console/shared';
import type { TShiftDto, TShiftHandover, TShiftLine } from '@console/shared/dto';
import type { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client';
import type { Actor, AuthedContext } from '../../context';
import type { TPrisma } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { recordEvent } from '../../db/events';
import { transaction, type Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission, requireSession } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { addTo, emptyLine, hotelDay } from './cash-lines';

/**
 * Cashier shifts (issue 26 §2, docs/orders.md "Cashier shifts"): a clerk opens a shift with the
 * cash float counted; every entry of money the clerk records while it is open belongs to it
 * (`appendEntry` takes the shift under a share lock, so an entry at the instant of the close lands
 * either in the shift, counted by the close, or after it, in none); the clerk closes it by counting
 * what is in hand per way of paying, and the difference against the ledger is kept and audited. A
 * closed shift is final (the database refuses any change). A clerk sees their own shifts; a manager
 * (`order.manage`) sees and may close every clerk's.
 */

const handoverSelect = {
  id: true,
  closedAt: true,
  leftInDrawer: true,
  account: { select: { id: true, nickname: true } },
} satisfies Prisma.CashierShiftSelect;
type HandoverRow = Prisma.CashierShiftGetPayload<{ select: typeof handoverSelect }>;

function toHandover(row: HandoverRow | null): TShiftHandover | null {
  if (!row?.closedAt || row.leftInDrawer === null) return null;
  return {
    shiftId: row.id,
    operator: { id: row.account.id, nickname: row.account.nickname },
    closedAt: row.closedAt.toISOString(),
    leftInDrawer: row.leftInDrawer,
  };
}

/** The hotel's latest close that said what it left in the drawer: the drawer the next shift takes over. */
async function lastHandover(db: TPrisma | Tx, hotelId: number): Promise<HandoverRow | null> {
  return db.cashierShift.findFirst({
    where: { hotelId, closedAt: { not: null }, leftInDrawer: { not: null } },
    orderBy: [{ closedAt: 'desc' }, { id: 'desc' }],
    select: handoverSelect,
  });
}

const shiftSelect = {
  id: true,
  accountId: true,
  openingFloat: true,
  openedAt: true,
  closedAt: true,
  closedByAccountId: true,
  expected: true,
  counted: true,
  difference: true,
  note: true,
  leftInDrawer: true,
  openingNote: true,
  account: { select: { id: true, nickname: true } },
  handedOverFrom: { select: handoverSelect },
} satisfies Prisma.CashierShiftSelect;
type ShiftRow = Prisma.CashierShiftGetPayload<{ select: typeof shiftSelect }>;

type Counts = Partial<Record<TMoneyMethod, number>>;

const notFound = () => new AppError('NOT_FOUND', { messageKey: 'shifts.errors.notFound' });

/** Whose shifts the actor may see: everyone's with `order.manage`; their own with `stay.manage`. */
function canSeeAll(actor: Actor): boolean {
  if (actor.permissions.has('order.manage')) return true;
  requirePermission(actor, 'stay.manage');
  return false;
}

/** The open shift of the poster in the hotel, under a share lock (a close waits for this entry, or this entry sees it closed). */
export async function openShiftFor(tx: Tx, hotelId: number, accountId: number): Promise<number | null> {
  const [row] = await tx.$queryRaw<{ id: number }[]>`
    SELECT "id" FROM "CashierShift" WHERE "hotelId" = ${hotelId} AND "accountId" = ${accountId} AND "closedAt" IS NULL FOR SHARE`;
  return row?.id ?? null;
}

/**
 * The shift a correction of `entryId` belongs to: the corrected entry's, while it is open (a
 * manager who corrects a clerk's payment as never received takes it out of what the clerk's drawer
 * is expected to hold), under a share lock as `openShiftFor`; null when that shift is closed (the
 * closed shift's report shows it reversed after its close) or the entry had none.
 */
export async function openShiftOfEntry(tx: Tx, hotelId: number, entryId: number): Promise<number | null> {
  const [row] = await tx.$queryRaw<{ id: number }[]>`
    SELECT s."id" FROM "OrderEntry" e JOIN "CashierShift" s ON s."hotelId" = e."hotelId" AND s."id" = e."shiftId"
    WHERE e."hotelId" = ${hotelId} AND e."id" = ${entryId} AND s."closedAt" IS NULL FOR SHARE OF s`;
  return row?.id ?? null;
}

/** What moved in each shift, per way of paying and kind (as the cash report counts it). */
async function linesOf(db: TPrisma | Tx, hotelId: number, shiftIds: number[]) {
  const byShift = new Map<number, Map<TPaymentMethod, ReturnType<typeof emptyLine>>>();
  if (!shiftIds.length) return byShift;
  const groups = await db.orderEntry.groupBy({
    by: ['shiftId', 'method', 'kind'],
    where: { hotelId, shiftId: { in: shiftIds }, method: { not: null } },
    _sum: { amount: true },
    _count: { _all: true },
  });
  for (const g of groups) {
    const lines = byShift.get(g.shiftId!) ?? new Map();
    byShift.set(g.shiftId!, lines);
    const line = lines.get(g.method!) ?? emptyLine(g.method!);
    lines.set(g.method!, line);
    addTo(line, g.kind, g._sum.amount ?? 0, g._count._all);
  }
  return byShift;
}

/** A shift's lines: cash always (the float is there), every way it moved money by; expected in hand, counted, difference. */
function shiftLines(row: Pick<ShiftRow, 'openingFloat' | 'counted'>, moved: Map<TPaymentMethod, ReturnType<typeof emptyLine>> | undefined): TShiftLine[] {
  const counted = (row.counted ?? null) as Counts | null;
  const methods = [...new Set<TPaymentMethod>(['cash', ...(moved?.keys() ?? []), ...(Object.keys(counted ?? {}) as TPaymentMethod[])])];
  const order = [...MONEY_METHODS, 'balance'] as TPaymentMethod[];
  methods.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  return methods.map((method) => {
    const line = moved?.get(method) ?? emptyLine(method);
    // Money taken from a customer's balance is not in hand: it came in with the recharge.
    const expected = method === 'balance' ? 0 : line.net + (method === 'cash' ? row.openingFloat : 0);
    const count = method === 'balance' ? null : (counted?.[method as TMoneyMethod] ?? (counted ? 0 : null));
    return { ...line, expected, counted: count, difference: count === null ? null : count - expected };
  });
}

async function toDtos(db: TPrisma | Tx, actor: Actor, rows: ShiftRow[]): Promise<TShiftDto[]> {
  const moved = await linesOf(
    db,
    actor.hotelId,
    rows.map((r) => r.id),
  );
  const closers = [...new Set(rows.map((r) => r.closedByAccountId).filter((id): id is number => id !== null))];
  const names = new Map(
    (closers.length ? await db.account.findMany({ where: { id: { in: closers } }, select: { id: true, nickname: true } }) : []).map((a) => [a.id, a.nickname]),
  );
  return rows.map((row) => {
    const methods = shiftLines(row, moved.get(row.id));
    const handed = methods.filter((l) => l.method !== 'balance');
    return {
      id: row.id,
      operator: { id: row.account.id, nickname: row.account.nickname },
      openedAt: row.openedAt.toISOString(),
      closedAt: row.closedAt?.toISOString() ?? null,
      closedBy: row.closedByAccountId !== null ? { id: row.closedByAccountId, nickname: names.get(row.closedByAccountId) ?? '' } : null,
      openingFloat: row.openingFloat,
      currency: actor.currency,
      methods,
      expected: handed.reduce((s, l) => s + l.expected, 0),
      counted: row.counted ? handed.reduce((s, l) => s + (l.counted ?? 0), 0) : null,
      difference: row.difference,
      count: methods.reduce((s, l) => s + l.count, 0),
      note: row.note,
      leftInDrawer: row.leftInDrawer,
      toSafe: row.leftInDrawer === null ? null : ((row.counted as Counts | null)?.cash ?? 0) - row.leftInDrawer,
      handedOver: toHandover(row.handedOverFrom),
      openingNote: row.openingNote,
    };
  });
}

/** Opens the actor's shift with the float counted; one open at a time (a second is refused, also by the database). */
export async function openShift(ctx: AuthedContext, raw: z.input<typeof ZShiftOpenInput>): Promise<TShiftDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'stay.manage');
  // A shift is a person's cash drawer: a third-party key (acting for the member who made it) holds none.
  requireSession(actor);
  const input = ZShiftOpenInput.parse(raw);
  const alreadyOpen = (cause?: unknown) => new AppError('CONFLICT', { messageKey: 'shifts.errors.alreadyOpen', cause });
  try {
    const row = await transaction(deps, async (tx) => {
      if ((await openShiftFor(tx, actor.hotelId, actor.accountId)) !== null) throw alreadyOpen();
      // The drawer the last close left: a float counted otherwise is opened with why, never bare.
      const handover = await lastHandover(tx, actor.hotelId);
      const note = input.note?.trim() ?? '';
      if (handover && handover.leftInDrawer !== input.openingFloat && !note) {
        throw new AppError('VALIDATION', { messageKey: 'shifts.validation.floatNoteRequired', fields: { note: 'shifts.validation.floatNoteRequired' } });
      }
      const made = await tx.cashierShift.create({
        data: {
          hotelId: actor.hotelId,
          accountId: actor.accountId,
          openingFloat: input.openingFloat,
          handedOverFromId: handover?.id ?? null,
          openingNote: note,
        },
        select: shiftSelect,
      });
      await recordEvent(tx, { hotelId: actor.hotelId, kind: 'shift.changed' });
      await recordAudit(tx, ctx, {
        action: 'order.shiftOpen',
        entityType: 'CashierShift',
        entityId: made.id,
        after: { openingFloat: input.openingFloat, handedOverFromId: handover?.id ?? null, leftInDrawer: handover?.leftInDrawer ?? null, note },
      });
      return made;
    });
    return (await toDtos(deps.prisma, actor, [row]))[0]!;
  } catch (error) {
    if (isUniqueViolation(error, 'CashierShift_one_open_key')) throw alreadyOpen(error);
    throw error;
  }
}

/** The actor's open shift, with what it has taken so far; null when none is open. */
export async function currentShift(ctx: AuthedContext): Promise<TShiftDto | null> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'stay.manage');
  requireSession(actor);
  const row = await deps.prisma.cashierShift.findFirst({ where: { hotelId: actor.hotelId, accountId: actor.accountId, closedAt: null }, select: shiftSelect });
  return row ? (await toDtos(deps.prisma, actor, [row]))[0]! : null;
}

/** What the next shift takes over: the hotel's latest close that said what it left in the drawer (any clerk's: the desk has one drawer). */
export async function shiftHandover(ctx: AuthedContext): Promise<TShiftHandover | null> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'stay.manage');
  requireSession(actor);
  return toHandover(await lastHandover(deps.prisma, actor.hotelId));
}

/** A shift the actor may see (their own; any with `order.manage`), or NOT_FOUND (another hotel's too). */
async function findShift(db: TPrisma | Tx, actor: Actor, shiftId: number): Promise<ShiftRow> {
  const all = canSeeAll(actor);
  const row = await db.cashierShift.findFirst({
    where: { id: shiftId, hotelId: actor.hotelId, ...(all ? {} : { accountId: actor.accountId }) },
    select: shiftSelect,
  });
  if (!row) throw notFound();
  return row;
}

export async function getShift(ctx: AuthedContext, raw: z.input<typeof ZShiftIdInput>): Promise<TShiftDto> {
  const { shiftId } = ZShiftIdInput.parse(raw);
  return (await toDtos(ctx.deps.prisma, ctx.actor, [await findShift(ctx.deps.prisma, ctx.actor, shiftId)]))[0]!;
}

/**
 * Closes a shift by what was counted: cash, and every way of paying the shift moved money by (a
 * missing count is asked for, never taken as zero). The shift is locked first: an entry being
 * recorded in it is waited for and counted; one after it lands in no shift. Closed once: a second
 * close (two at once) is refused.
 */
export async function closeShift(ctx: AuthedContext, raw: z.input<typeof ZShiftCloseInput>): Promise<TShiftDto> {
  const { deps, actor } = ctx;
  // Counted by a person at the drawer, never by a third-party key.
  requireSession(actor);
  const input = ZShiftCloseInput.parse(raw);
  await findShift(deps.prisma, actor, input.shiftId);
  const closed = await transaction(deps, async (tx) => {
    await tx.$queryRaw`SELECT "id" FROM "CashierShift" WHERE "hotelId" = ${actor.hotelId} AND "id" = ${input.shiftId} FOR UPDATE`;
    const row = await findShift(tx, actor, input.shiftId);
    if (row.closedAt) throw new AppError('CONFLICT', { messageKey: 'shifts.errors.closed' });
    const lines = shiftLines(row, (await linesOf(tx, actor.hotelId, [row.id])).get(row.id)).filter((l) => l.method !== 'balance');
    const missing = lines.filter((l) => input.counted[l.method as TMoneyMethod] === undefined);
    if (missing.length) {
      throw new AppError('VALIDATION', {
        messageKey: 'shifts.validation.countMissing',
        fields: Object.fromEntries(missing.map((l) => [`counted.${l.method}`, 'validation.amountRequired'])),
      });
    }
    const expected = Object.fromEntries(lines.map((l) => [l.method, l.expected]));
    const counted = Object.fromEntries(Object.entries(input.counted).filter(([, v]) => v !== undefined)) as Counts;
    // Counted beyond the shift's ways of paying (money by a way it never took) is a difference too.
    const difference = Object.entries(counted).reduce((sum, [m, v]) => sum + v - (expected[m] ?? 0), 0);
    // A count that differs is closed with the reason, never bare (the closed shift is final).
    if (shiftCountDiffers(expected, counted) && !input.note.trim()) {
      throw new AppError('VALIDATION', { messageKey: 'shifts.validation.noteRequired', fields: { note: 'shifts.validation.noteRequired' } });
    }
    const now = new Date();
    await tx.cashierShift.update({
      where: { id: row.id },
      data: { closedAt: now, closedByAccountId: actor.accountId, expected, counted, difference, note: input.note, leftInDrawer: input.leftInDrawer ?? null },
    });
    await recordEvent(tx, { hotelId: actor.hotelId, kind: 'shift.changed' });
    await recordAudit(tx, ctx, {
      action: 'order.shiftClose',
      entityType: 'CashierShift',
      entityId: row.id,
      before: { expected },
      after: { counted, difference, note: input.note, operatorId: row.accountId, leftInDrawer: input.leftInDrawer ?? null },
    });
    return tx.cashierShift.findUniqueOrThrow({ where: { id: row.id }, select: shiftSelect });
  });
  return (await toDtos(deps.prisma, actor, [closed]))[0]!;
}

/** Shifts opened within the dates (hotel calendar), newest first: the actor's own, or every clerk's with `order.manage`. */
export async function listShifts(ctx: AuthedContext, raw: z.input<typeof ZShiftListInput>) {
  const { deps, actor } = ctx;
  const input = ZShiftListInput.parse(raw);
  const all = canSeeAll(actor);
  if (!all && input.operatorId !== undefined && input.operatorId !== actor.accountId) throw new AppError('FORBIDDEN');
  const operatorId = all ? input.operatorId : actor.accountId;
  const where: Prisma.CashierShiftWhereInput = {
    hotelId: actor.hotelId,
    ...(operatorId !== undefined ? { accountId: operatorId } : {}),
    openedAt: {
      ...(input.from ? { gte: hotelDay(input.from, actor.timeZone).from } : {}),
      ...(input.to ? { lt: hotelDay(input.to, actor.timeZone).to } : {}),
    },
  };
  const [total, rows] = await Promise.all([
    deps.prisma.cashierShift.count({ where }),
    deps.prisma.cashierShift.findMany({
      where,
      select: shiftSelect,
      orderBy: [{ openedAt: 'desc' }, { id: 'desc' }],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
    }),
  ]);
  return { items: await toDtos(deps.prisma, actor, rows), total, page: input.page, pageSize: input.pageSize };
}
