import {
  ORDER_LIMITS,
  ZChargeInput,
  ZCorrectInput,
  ZCustomerBalanceInput,
  ZFolioInput,
  ZRechargeInput,
  ZRefundInput,
  ZStayMoneyInput,
  type TOrderEntryKind,
  type TPaymentMethod,
} from '@console/shared';
import type { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client';
import type { AuthedContext } from '../../context';
import { isUniqueViolation } from '../../db/errors';
import { lockRow, transaction, type Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { findStay } from '../stay/stay-dto';
import {
  entrySelect,
  findEntry,
  folioFigures,
  formatMoney,
  ledgerRuleError,
  loadVisit,
  lockEntry,
  lockFolio,
  openFolio,
  refundableNow,
  toEntryDtos,
  toLine,
  type OrderEntryDto,
} from './folio';
import { isRefundableKind, refundMethod } from './ledger-facts';

/**
 * The orders ledger's entries (docs/orders.md): room charges, charges, deposits and payments of a
 * stay's folio; refunds of a payment; corrections; recharges of a customer's balance. Every entry is
 * appended (the table refuses updates and deletes), in a transaction that first locks the folio or
 * the entry it refers to, and is audited. Balances are always summed from the entries.
 *
 * Who may do what: the front desk (`stay.manage`) records what happens at the desk on a stay of
 * its rooms; refunds, corrections and recharges need `order.manage`.
 */

export interface FolioSummary {
  folioId: number;
  balance: number;
  owed: number;
  dueBack: number;
  depositHeld: number;
  settled: boolean;
}

export interface EntryResult {
  entry: OrderEntryDto;
  folio: FolioSummary | null;
  /** True when the same request id was sent before: nothing new was recorded. */
  replayed: boolean;
}

type NewEntry = {
  kind: TOrderEntryKind;
  amount: number;
  method: TPaymentMethod | null;
  note: string;
  stayId?: number | null;
  roomId?: number | null;
  customerId?: number | null;
  folioId?: number | null;
  linkedEntryId?: number | null;
  idempotencyKey?: string | null;
};

/** Appends one entry of the actor's hotel, in its currency, by the actor; the database's rules become user errors. */
export async function appendEntry(tx: Tx, ctx: AuthedContext, entry: NewEntry): Promise<number> {
  try {
    const row = await tx.orderEntry.create({
      data: {
        hotelId: ctx.actor.hotelId,
        currency: ctx.actor.currency,
        createdByAccountId: ctx.actor.accountId,
        kind: entry.kind,
        amount: entry.amount,
        method: entry.method,
        note: entry.note,
        stayId: entry.stayId ?? null,
        roomId: entry.roomId ?? null,
        customerId: entry.customerId ?? null,
        folioId: entry.folioId ?? null,
        linkedEntryId: entry.linkedEntryId ?? null,
        idempotencyKey: entry.idempotencyKey ?? null,
      },
      select: { id: true },
    });
    return row.id;
  } catch (error) {
    throw ledgerRuleError(error);
  }
}

export async function folioSummary(db: Tx | AuthedContext['deps']['prisma'], hotelId: number, folioId: number): Promise<FolioSummary> {
  const [folio, lines] = await Promise.all([
    db.folio.findFirstOrThrow({ where: { hotelId, id: folioId }, select: { settledAt: true } }),
    db.orderEntry.findMany({ where: { hotelId, folioId }, select: { id: true, kind: true, amount: true, method: true, linkedEntryId: true }, orderBy: { id: 'asc' } }),
  ]);
  const figures = folioFigures(lines.map(toLine));
  return { folioId, balance: figures.balance, owed: figures.owed, dueBack: figures.dueBack, depositHeld: figures.depositHeld, settled: folio.settledAt !== null };
}

async function entryResult(ctx: AuthedContext, entryId: number, replayed: boolean): Promise<EntryResult> {
  const { prisma } = ctx.deps;
  const row = await prisma.orderEntry.findFirstOrThrow({ where: { id: entryId, hotelId: ctx.actor.hotelId }, select: entrySelect });
  const [entry] = await toEntryDtos(prisma, [row]);
  return { entry: entry!, folio: row.folioId !== null ? await folioSummary(prisma, ctx.actor.hotelId, row.folioId) : null, replayed };
}

/**
 * A request sent again with the same request id: the entry it recorded, when it is the same
 * kind of entry, for the same thing, by the same amount; CONFLICT when the id was used otherwise.
 */
async function replayOf(ctx: AuthedContext, requestId: string | undefined, same: (e: { kind: string; amount: number; stayId: number | null; linkedEntryId: number | null; customerId: number | null }) => boolean): Promise<EntryResult | null> {
  if (!requestId) return null;
  const existing = await ctx.deps.prisma.orderEntry.findFirst({
    where: { hotelId: ctx.actor.hotelId, idempotencyKey: requestId },
    select: { id: true, kind: true, amount: true, stayId: true, linkedEntryId: true, customerId: true },
  });
  if (!existing) return null;
  if (!same(existing)) throw new AppError('CONFLICT', { messageKey: 'orders.errors.requestIdReused' });
  return entryResult(ctx, existing.id, true);
}

/** Runs a write that records one entry; a second request with the same id, at the same moment, gets the first one's entry. */
async function recordOnce(ctx: AuthedContext, requestId: string | undefined, same: Parameters<typeof replayOf>[2], write: () => Promise<number>): Promise<EntryResult> {
  const earlier = await replayOf(ctx, requestId, same);
  if (earlier) return earlier;
  try {
    return await entryResult(ctx, await write(), false);
  } catch (error) {
    if (requestId && isUniqueViolation(error, 'idempotencyKey')) {
      const raced = await replayOf(ctx, requestId, same);
      if (raced) return raced;
    }
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// A stay's folio: deposits, payments, charges, the room charge

async function recordStayMoney(ctx: AuthedContext, kind: 'deposit' | 'payment', raw: z.input<typeof ZStayMoneyInput>): Promise<EntryResult> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'stay.manage');
  const input = ZStayMoneyInput.parse(raw);
  const stay = await findStay(ctx, input.stayId);
  const payer = input.method === 'balance' ? await balancePayer(ctx, input) : null;
  return recordOnce(
    ctx,
    input.requestId,
    (e) => e.kind === kind && e.amount === input.amount && e.stayId === stay.id && e.customerId === (payer?.id ?? null),
    () =>
      transaction(deps, async (tx) => {
        const visit = await loadVisit(tx, actor.hotelId, stay.id);
        const folio = await openFolio(tx, actor, visit.first.id);
        const balance = payer ? await lockCoveringBalance(tx, ctx, payer.id, input.amount) : null;
        const id = await appendEntry(tx, ctx, {
          kind,
          amount: input.amount,
          method: input.method,
          note: input.note,
          stayId: visit.current.id,
          roomId: visit.current.roomId,
          customerId: payer?.id ?? null,
          folioId: folio.id,
          idempotencyKey: input.requestId,
        });
        await recordAudit(tx, ctx, {
          action: `order.${kind}`,
          entityType: 'OrderEntry',
          entityId: id,
          ...(balance !== null ? { before: { customerId: payer!.id, balance } } : {}),
          after: { stayId: visit.current.id, folioId: folio.id, amount: input.amount, method: input.method, note: input.note, ...(balance !== null ? { customerId: payer!.id, balance: balance - input.amount } : {}) },
        });
        return id;
      }),
  );
}

/** A deposit received for a stay (kept on its folio until check-out refunds or keeps it). */
export async function recordDeposit(ctx: AuthedContext, raw: z.input<typeof ZStayMoneyInput>): Promise<EntryResult> {
  return recordStayMoney(ctx, 'deposit', raw);
}

/** A payment received for a stay. */
export async function recordPayment(ctx: AuthedContext, raw: z.input<typeof ZStayMoneyInput>): Promise<EntryResult> {
  return recordStayMoney(ctx, 'payment', raw);
}

/** A charge to a stay other than the room (minibar, damage, a late check-out), with what it is for. */
export async function recordCharge(ctx: AuthedContext, raw: z.input<typeof ZChargeInput>): Promise<EntryResult> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'stay.manage');
  const input = ZChargeInput.parse(raw);
  const stay = await findStay(ctx, input.stayId);
  return recordOnce(
    ctx,
    input.requestId,
    (e) => e.kind === 'charge' && e.amount === -input.amount && e.stayId === stay.id,
    () =>
      transaction(deps, async (tx) => {
        const visit = await loadVisit(tx, actor.hotelId, stay.id);
        const folio = await openFolio(tx, actor, visit.first.id);
        const id = await appendEntry(tx, ctx, { kind: 'charge', amount: -input.amount, method: null, note: input.note, stayId: visit.current.id, roomId: visit.current.roomId, folioId: folio.id, idempotencyKey: input.requestId });
        await recordAudit(tx, ctx, { action: 'order.charge', entityType: 'OrderEntry', entityId: id, after: { stayId: visit.current.id, folioId: folio.id, amount: -input.amount, note: input.note } });
        return id;
      }),
  );
}

/**
 * Charges the stay's room: brings the room charges standing on the folio to the stay's price (what
 * the pricing function computed at check-in, with renewals and room changes). Nothing is written
 * when they already agree; a price that went down (a cheaper room) reverses the charges and charges
 * the new price. Check-out recomputes it for an early departure (`settleFolio`).
 */
export async function postRoomCharge(ctx: AuthedContext, raw: z.input<typeof ZFolioInput>): Promise<{ entries: OrderEntryDto[]; folio: FolioSummary }> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'stay.manage');
  const input = ZFolioInput.parse(raw);
  const stay = await findStay(ctx, input.stayId);
  const note = deps.i18n.t(ctx.meta.lang, 'orders.notes.roomChargeRecomputed');
  const { ids, folioId } = await transaction(deps, async (tx) => {
    const visit = await loadVisit(tx, actor.hotelId, stay.id);
    const folio = await openFolio(tx, actor, visit.first.id);
    const lines = (await tx.orderEntry.findMany({ where: { hotelId: actor.hotelId, folioId: folio.id }, select: { id: true, kind: true, amount: true, method: true, linkedEntryId: true }, orderBy: { id: 'asc' } })).map(toLine);
    const figures = folioFigures(lines);
    const target = visit.current.status === 'ended' ? 0 : visit.current.priceAmount;
    const written: number[] = [];
    const on = { stayId: visit.current.id, roomId: visit.current.roomId, folioId: folio.id };
    let posted = figures.roomChargePosted;
    if (posted > target) {
      const corrected = new Set(lines.filter((l) => l.kind === 'correction').map((l) => l.linkedEntryId));
      for (const line of lines.filter((l) => l.kind === 'room_charge' && !corrected.has(l.id))) {
        written.push(await appendEntry(tx, ctx, { kind: 'correction', amount: -line.amount, method: null, note, linkedEntryId: line.id, ...on }));
      }
      posted = 0;
    }
    if (target > posted) written.push(await appendEntry(tx, ctx, { kind: 'room_charge', amount: -(target - posted), method: null, note: figures.roomChargePosted > 0 ? note : '', ...on }));
    if (written.length) {
      await recordAudit(tx, ctx, { action: 'order.roomCharge', entityType: 'Folio', entityId: folio.id, before: { roomChargePosted: figures.roomChargePosted }, after: { roomCharge: target, entryIds: written } });
    }
    return { ids: written, folioId: folio.id };
  });
  const rows = await deps.prisma.orderEntry.findMany({ where: { hotelId: actor.hotelId, id: { in: ids } }, select: entrySelect, orderBy: { id: 'asc' } });
  return { entries: await toEntryDtos(deps.prisma, rows), folio: await folioSummary(deps.prisma, actor.hotelId, folioId) };
}

// ---------------------------------------------------------------------------------------------
// Refunds and corrections


/**
 * Refunds part or all of a payment, deposit or recharge, with a reason: never more than what is
 * left of it (checked under a lock on it here, and by the database's rule whatever the path). A
 * refund of a settled folio's payment is refused: the folio is closed.
 */
export async function refundEntry(ctx: AuthedContext, raw: z.input<typeof ZRefundInput>): Promise<EntryResult & { refundableLeft: number }> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'order.manage');
  const input = ZRefundInput.parse(raw);
  const target = await findEntry(ctx, input.entryId);
  if (target.method === 'balance' && input.method !== undefined) throw new AppError('CONFLICT', { messageKey: 'orders.errors.balanceRefundsToBalance' });
  const result = await recordOnce(
    ctx,
    input.requestId,
    (e) => e.kind === 'refund' && e.linkedEntryId === target.id && e.amount === -input.amount,
    () =>
      transaction(deps, async (tx) => {
        if (target.folioId !== null) await lockFolio(tx, actor.hotelId, target.folioId);
        if (!isRefundableKind(target.kind)) throw new AppError('CONFLICT', { messageKey: 'orders.errors.notRefundable' });
        await lockEntry(tx, actor.hotelId, target.id);
        const left = await refundableNow(tx, actor.hotelId, target.id);
        if (input.amount > left) {
          throw new AppError('CONFLICT', {
            messageKey: left > 0 ? 'orders.errors.refundExceedsPayment' : 'orders.errors.nothingLeftToRefund',
            params: { amount: formatMoney(left, target.currency.trim(), ctx.meta.lang) },
            money: { currency: target.currency.trim(), amounts: { refundable: left } },
          });
        }
        const id = await appendEntry(tx, ctx, {
          kind: 'refund',
          amount: -input.amount,
          method: refundMethod(target, input.method),
          note: input.reason,
          stayId: target.stayId,
          roomId: target.roomId,
          customerId: target.customerId,
          folioId: target.folioId,
          linkedEntryId: target.id,
          idempotencyKey: input.requestId,
        });
        await recordAudit(tx, ctx, { action: 'order.refund', entityType: 'OrderEntry', entityId: id, before: { entryId: target.id, refundable: left }, after: { amount: -input.amount, reason: input.reason, refundable: left - input.amount } });
        return id;
      }),
  );
  const left = await deps.prisma.$queryRaw<{ left: bigint | null }[]>`SELECT "OrderEntry_refundable"(${actor.hotelId}::int, ${target.id}::int) AS "left"`;
  return { ...result, refundableLeft: Number(left[0]?.left ?? 0) };
}

/**
 * Reverses an entry recorded by mistake with a correction of the opposite amount, with a reason.
 * An entry is corrected once; a correction is not corrected; a payment with refunds still standing
 * is corrected after them (its refunds first).
 */
export async function correctEntry(ctx: AuthedContext, raw: z.input<typeof ZCorrectInput>): Promise<EntryResult> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'order.manage');
  const input = ZCorrectInput.parse(raw);
  const target = await findEntry(ctx, input.entryId);
  const id = await transaction(deps, async (tx) => {
    if (target.folioId !== null) await lockFolio(tx, actor.hotelId, target.folioId);
    if (target.kind === 'correction') throw new AppError('CONFLICT', { messageKey: 'orders.errors.cannotCorrectCorrection' });
    await lockEntry(tx, actor.hotelId, target.id);
    const corrected = await tx.orderEntry.findFirst({ where: { hotelId: actor.hotelId, linkedEntryId: target.id, kind: 'correction' }, select: { id: true } });
    if (corrected) throw new AppError('CONFLICT', { messageKey: 'orders.errors.alreadyCorrected' });
    if (isRefundableKind(target.kind) && (await refundableNow(tx, actor.hotelId, target.id)) !== target.amount) {
      throw new AppError('CONFLICT', { messageKey: 'orders.errors.correctRefundsFirst' });
    }
    const id = await appendEntry(tx, ctx, {
      kind: 'correction',
      amount: -target.amount,
      method: target.method,
      note: input.reason,
      stayId: target.stayId,
      roomId: target.roomId,
      customerId: target.customerId,
      folioId: target.folioId,
      linkedEntryId: target.id,
    });
    await recordAudit(tx, ctx, { action: 'order.correct', entityType: 'OrderEntry', entityId: id, before: { entryId: target.id, kind: target.kind, amount: target.amount }, after: { amount: -target.amount, reason: input.reason } });
    return id;
  });
  return entryResult(ctx, id, false);
}

// ---------------------------------------------------------------------------------------------
// Customers' balances

async function findCustomer(ctx: AuthedContext, ref: { customerId?: number; mobile?: string }) {
  const customer = await ctx.deps.prisma.customer.findFirst({
    where: { hotelId: ctx.actor.hotelId, ...(ref.customerId !== undefined ? { id: ref.customerId } : {}), ...(ref.mobile !== undefined ? { mobile: ref.mobile } : {}) },
    select: { id: true, nickname: true, mobile: true, frozenAt: true },
  });
  if (!customer) throw new AppError('NOT_FOUND', { messageKey: 'orders.errors.customerNotFound' });
  return customer;
}

/** A customer's balance, as the database's rule computes it (`Customer_balance`: recharges in, money taken for stays out). */
export async function customerBalanceOf(db: Tx | AuthedContext['deps']['prisma'], hotelId: number, customerId: number): Promise<number> {
  const [row] = await db.$queryRaw<{ balance: bigint }[]>`SELECT "Customer_balance"(${hotelId}::int, ${customerId}::int) AS "balance"`;
  return Number(row?.balance ?? 0);
}

/** The customer a deposit or payment from a balance is taken from: the hotel's, and not frozen. */
export async function balancePayer(ctx: AuthedContext, ref: { customerId?: number; mobile?: string }) {
  const customer = await findCustomer(ctx, ref);
  if (customer.frozenAt) throw new AppError('CONFLICT', { messageKey: 'orders.errors.balanceFrozen' });
  return customer;
}

/**
 * Before `amount` is taken from a customer's balance, inside the caller's transaction (after its
 * folio's lock): locks the customer for the rest of it, and checks they are still unfrozen and hold
 * that much. Answers the balance. The database's rule (`OrderEntry_balance_covers`) refuses the
 * entry too, whatever the path.
 */
export async function lockCoveringBalance(tx: Tx, ctx: AuthedContext, customerId: number, amount: number): Promise<number> {
  const { actor } = ctx;
  await lockRow(tx, 'Customer', actor.hotelId, customerId);
  const customer = await tx.customer.findFirst({ where: { id: customerId, hotelId: actor.hotelId }, select: { frozenAt: true } });
  if (!customer) throw new AppError('NOT_FOUND', { messageKey: 'orders.errors.customerNotFound' });
  if (customer.frozenAt) throw new AppError('CONFLICT', { messageKey: 'orders.errors.balanceFrozen' });
  const balance = await customerBalanceOf(tx, actor.hotelId, customerId);
  if (balance < amount) {
    throw new AppError('CONFLICT', { messageKey: 'orders.errors.balanceInsufficient', params: { amount: formatMoney(balance, actor.currency, ctx.meta.lang) }, money: { currency: actor.currency, amounts: { balance } } });
  }
  return balance;
}

/** Money put on a customer's balance (the guest app's wallet). A frozen customer cannot be recharged. */
export async function rechargeCustomer(ctx: AuthedContext, raw: z.input<typeof ZRechargeInput>): Promise<EntryResult & { balance: number }> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'order.manage');
  const input = ZRechargeInput.parse(raw);
  const customer = await findCustomer(ctx, input);
  if (customer.frozenAt) throw new AppError('CONFLICT', { messageKey: 'orders.errors.customerFrozen' });
  const result = await recordOnce(
    ctx,
    input.requestId,
    (e) => e.kind === 'recharge' && e.customerId === customer.id && e.amount === input.amount,
    () =>
      transaction(deps, async (tx) => {
        await lockRow(tx, 'Customer', actor.hotelId, customer.id);
        const frozen = await tx.customer.findFirst({ where: { id: customer.id, hotelId: actor.hotelId }, select: { frozenAt: true } });
        if (!frozen) throw new AppError('NOT_FOUND', { messageKey: 'orders.errors.customerNotFound' });
        if (frozen.frozenAt) throw new AppError('CONFLICT', { messageKey: 'orders.errors.customerFrozen' });
        const before = await customerBalanceOf(tx, actor.hotelId, customer.id);
        const id = await appendEntry(tx, ctx, { kind: 'recharge', amount: input.amount, method: input.method, note: input.note, customerId: customer.id, idempotencyKey: input.requestId });
        await recordAudit(tx, ctx, { action: 'order.recharge', entityType: 'OrderEntry', entityId: id, before: { customerId: customer.id, balance: before }, after: { amount: input.amount, method: input.method, balance: before + input.amount } });
        return id;
      }),
  );
  return { ...result, balance: await customerBalanceOf(deps.prisma, actor.hotelId, customer.id) };
}

export interface CustomerBalanceDto {
  customer: { id: number; nickname: string; mobile: string | null; frozen: boolean };
  balance: number;
  currency: string;
  /** The newest entries of the customer (ORDER_LIMITS.recentEntries); the order list has them all. */
  recent: OrderEntryDto[];
}

/** A customer's balance, summed from their entries, with the newest of them. */
export async function customerBalance(ctx: AuthedContext, raw: z.input<typeof ZCustomerBalanceInput>): Promise<CustomerBalanceDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'customer.read');
  const input = ZCustomerBalanceInput.parse(raw);
  const customer = await findCustomer(ctx, input);
  const where: Prisma.OrderEntryWhereInput = { hotelId: actor.hotelId, customerId: customer.id };
  const [balance, rows] = await Promise.all([
    customerBalanceOf(deps.prisma, actor.hotelId, customer.id),
    deps.prisma.orderEntry.findMany({ where, select: entrySelect, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: ORDER_LIMITS.recentEntries }),
  ]);
  return {
    customer: { id: customer.id, nickname: customer.nickname, mobile: customer.mobile, frozen: customer.frozenAt !== null },
    balance,
    currency: actor.currency,
    recent: await toEntryDtos(deps.prisma, rows),
  };
}
