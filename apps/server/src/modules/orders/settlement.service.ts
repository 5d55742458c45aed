import { ZFolioInput, ZSettleInput, type TOrderEntryKind } from '@console/shared';
import type { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client';
import type { AuthedContext } from '../../context';
import { transaction, type Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { checkOut } from '../stay/check-out';
import { findStay, isActive } from '../stay/stay-dto';
import { entrySelect, folioFigures, formatMoney, ledgerRuleError, loadVisit, openFolio, roomChargeDue, toEntryDtos, toLine, type OrderEntryDto, type RoomChargeDue, type Visit } from './folio';
import { planSettlement, type LedgerLine, type SettlementDecision, type SettlementPlan } from './ledger-facts';
import { appendEntry, balancePayer, lockCoveringBalance } from './ledger.service';

/**
 * A stay's folio and its settlement at check-out (docs/orders.md). The folio gathers the entries
 * of the guest's visit (a room change continues it). Settling it brings the room charge to what
 * the stay owes (an early departure is recomputed with the pricing function), refunds or keeps the
 * deposit (keeping needs a reason), refunds what is due back and takes the payment of what is
 * owed; then the folio is closed, and the database refuses any entry for it.
 */

export interface SettlementPreview {
  departureAt: string;
  early: boolean;
  /** The stay's price, and what is due for the room at this departure. */
  roomCharge: { full: number; due: number; posted: number };
  unusedNights: { date: string; price: number }[];
  depositHeld: number;
  /** What settling would do if the deposit is refunded, or kept. */
  ifDepositRefunded: { refunded: number; owed: number };
  ifDepositKept: { refunded: number; owed: number; kept: number };
}

export interface FolioDto {
  /** Null while nothing was ever written for the visit. */
  folioId: number | null;
  /** The visit's current stay, and every stay of it (first to current). */
  stayId: number;
  stayIds: number[];
  roomId: number;
  roomName: string;
  currency: string;
  state: 'open' | 'settled';
  settledAt: string | null;
  settlement: Prisma.JsonValue | null;
  entries: OrderEntryDto[];
  /** Signed sums per kind. */
  totals: Record<TOrderEntryKind, number>;
  /** The sum of the entries: positive is due back to the guest, negative owed by them. */
  balance: number;
  owed: number;
  dueBack: number;
  depositHeld: number;
  /** What a settlement now would do (null once settled): the check-out dialog shows it. */
  preview: SettlementPreview | null;
}

function settlementNotes(ctx: AuthedContext, reason: string): SettlementDecision['notes'] {
  const t = (key: string, params?: Record<string, unknown>) => ctx.deps.i18n.t(ctx.meta.lang, key, params);
  return {
    roomChargeRecomputed: t('orders.notes.roomChargeRecomputed'),
    depositKept: t('orders.notes.depositKept', { reason }),
    depositRefund: t('orders.notes.depositRefund'),
    refund: t('orders.notes.checkOutRefund'),
  };
}

function preview(ctx: AuthedContext, lines: LedgerLine[], due: RoomChargeDue): SettlementPreview {
  const base = { roomChargeDue: due.due, depositReason: '-', notes: settlementNotes(ctx, '-') };
  const refunded = planSettlement(lines, { ...base, deposit: 'refund' });
  const kept = planSettlement(lines, { ...base, deposit: 'keep' });
  return {
    departureAt: due.departureAt.toISOString(),
    early: due.early,
    roomCharge: { full: due.full, due: due.due, posted: refunded.roomCharge.posted },
    unusedNights: due.unusedNights,
    depositHeld: refunded.deposit.held,
    ifDepositRefunded: { refunded: refunded.refunded, owed: refunded.owed },
    ifDepositKept: { refunded: kept.refunded, owed: kept.owed, kept: kept.deposit.kept },
  };
}

const lineSelect = { id: true, kind: true, amount: true, method: true, linkedEntryId: true, customerId: true } as const;

async function folioOf(db: Tx | AuthedContext['deps']['prisma'], hotelId: number, firstStayId: number) {
  return db.folio.findFirst({ where: { hotelId, stayId: firstStayId }, select: { id: true, currency: true, settledAt: true, settlement: true } });
}

async function buildFolio(ctx: AuthedContext, visit: Visit, now: Date): Promise<FolioDto> {
  const { prisma } = ctx.deps;
  const { actor } = ctx;
  const folio = await folioOf(prisma, actor.hotelId, visit.first.id);
  const rows = folio ? await prisma.orderEntry.findMany({ where: { hotelId: actor.hotelId, folioId: folio.id }, select: entrySelect, orderBy: { id: 'asc' } }) : [];
  const lines = rows.map(toLine);
  const figures = folioFigures(lines);
  const settled = Boolean(folio?.settledAt);
  return {
    folioId: folio?.id ?? null,
    stayId: visit.current.id,
    stayIds: visit.stays.map((s) => s.id),
    roomId: visit.current.roomId,
    roomName: visit.current.room.name,
    currency: folio?.currency.trim() ?? actor.currency,
    state: settled ? 'settled' : 'open',
    settledAt: folio?.settledAt?.toISOString() ?? null,
    settlement: folio?.settlement ?? null,
    entries: await toEntryDtos(prisma, rows),
    totals: figures.totals,
    balance: figures.balance,
    owed: figures.owed,
    dueBack: figures.dueBack,
    depositHeld: figures.depositHeld,
    preview: settled ? null : preview(ctx, lines, await roomChargeDue(prisma, actor.timeZone, visit, now)),
  };
}

/** The folio of a stay's visit: its entries, what is owed or due back, and what settling now would do. */
export async function getFolio(ctx: AuthedContext, raw: z.input<typeof ZFolioInput>): Promise<FolioDto> {
  requirePermission(ctx.actor, 'stay.manage');
  const input = ZFolioInput.parse(raw);
  const stay = await findStay(ctx, input.stayId);
  return buildFolio(ctx, await loadVisit(ctx.deps.prisma, ctx.actor.hotelId, stay.id), new Date());
}

type TSettle = z.output<typeof ZSettleInput>;

/** The payment asked for must be exactly what is owed: the operator confirms the figure they saw. */
function checkPayment(ctx: AuthedContext, plan: SettlementPlan, payment: TSettle['payment']) {
  const money = (minor: number) => formatMoney(minor, ctx.actor.currency, ctx.meta.lang);
  if (plan.owed > 0 && !payment) throw new AppError('CONFLICT', { messageKey: 'orders.errors.balanceOwed', params: { amount: money(plan.owed) }, money: { currency: ctx.actor.currency, amounts: { owed: plan.owed } } });
  if (plan.owed > 0 && payment && payment.amount !== plan.owed) {
    throw new AppError('CONFLICT', { messageKey: 'orders.errors.paymentNotOwed', params: { amount: money(plan.owed) }, money: { currency: ctx.actor.currency, amounts: { owed: plan.owed } } });
  }
  if (plan.owed === 0 && payment) throw new AppError('CONFLICT', { messageKey: 'orders.errors.nothingOwed', money: { currency: ctx.actor.currency, amounts: { owed: 0 } } });
}

/**
 * Settles the folio of a stay that has ended (or checks it out first, with `checkOut`): the
 * entries of the plan, the payment of what is owed, and the folio closed, in one transaction that
 * holds the folio's lock. What is owed is checked before the check-out too, so a settlement that
 * would be refused does not check the guest out.
 */
export async function settleFolio(ctx: AuthedContext, raw: z.input<typeof ZSettleInput>): Promise<FolioDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'stay.manage');
  const input = ZSettleInput.parse(raw);
  const stay = await findStay(ctx, input.stayId);
  const decision = (due: RoomChargeDue): SettlementDecision => ({
    roomChargeDue: due.due,
    deposit: input.deposit,
    depositReason: input.depositReason,
    refundMethod: input.refundMethod,
    notes: settlementNotes(ctx, input.depositReason),
  });

  const payer = input.payment?.method === 'balance' ? await balancePayer(ctx, input.payment) : null;
  const visit = await loadVisit(deps.prisma, actor.hotelId, stay.id);
  if (isActive(visit.current.status)) {
    if (!input.checkOut) throw new AppError('CONFLICT', { messageKey: 'orders.errors.stayNotCheckedOut' });
    // What settling would ask, at a departure now: refused before the guest is checked out.
    const folio = await folioOf(deps.prisma, actor.hotelId, visit.first.id);
    if (folio?.settledAt) throw new AppError('CONFLICT', { messageKey: 'orders.errors.folioSettled' });
    const lines = folio ? (await deps.prisma.orderEntry.findMany({ where: { hotelId: actor.hotelId, folioId: folio.id }, select: lineSelect, orderBy: { id: 'asc' } })).map(toLine) : [];
    checkPayment(ctx, planSettlement(lines, decision(await roomChargeDue(deps.prisma, actor.timeZone, visit, new Date()))), input.payment);
    if (payer && input.payment) await transaction(deps, (tx) => lockCoveringBalance(tx, ctx, payer.id, input.payment!.amount));
    await checkOut(ctx, { stayId: visit.current.id });
  }

  await transaction(deps, async (tx) => {
    const current = await loadVisit(tx, actor.hotelId, stay.id);
    if (isActive(current.current.status)) throw new AppError('CONFLICT', { messageKey: 'orders.errors.stayNotCheckedOut' });
    const folio = await openFolio(tx, actor, current.first.id);
    const lines = (await tx.orderEntry.findMany({ where: { hotelId: actor.hotelId, folioId: folio.id }, select: lineSelect, orderBy: { id: 'asc' } })).map(toLine);
    const due = await roomChargeDue(tx, actor.timeZone, current, new Date());
    const plan = planSettlement(lines, decision(due));
    if (plan.unreturnable > 0) throw new AppError('CONFLICT', { messageKey: 'orders.errors.cannotBalance', money: { currency: actor.currency, amounts: { dueBack: plan.unreturnable } } });
    checkPayment(ctx, plan, input.payment);
    const on = { stayId: current.current.id, roomId: current.current.roomId, folioId: folio.id };
    const ids: number[] = [];
    for (const entry of plan.entries) ids.push(await appendEntry(tx, ctx, { ...entry, ...on }));
    if (plan.owed > 0 && input.payment) {
      if (payer) await lockCoveringBalance(tx, ctx, payer.id, plan.owed);
      ids.push(
        await appendEntry(tx, ctx, { kind: 'payment', amount: plan.owed, method: input.payment.method, customerId: payer?.id ?? null, note: deps.i18n.t(ctx.meta.lang, 'orders.notes.settlementPayment'), ...on }),
      );
    }
    const sum = await tx.orderEntry.aggregate({ where: { hotelId: actor.hotelId, folioId: folio.id }, _sum: { amount: true } });
    if ((sum._sum.amount ?? 0) !== 0) throw new AppError('CONFLICT', { messageKey: 'orders.errors.cannotBalance', money: { currency: actor.currency, amounts: { balance: sum._sum.amount ?? 0 } } });
    const settlement = {
      departureAt: due.departureAt.toISOString(),
      early: due.early,
      roomCharge: { full: due.full, due: due.due, posted: plan.roomCharge.posted },
      deposit: { decision: input.deposit, reason: input.depositReason, held: plan.deposit.held, refunded: plan.deposit.refunded, kept: plan.deposit.kept },
      refunded: plan.refunded,
      paid: plan.owed,
      entryIds: ids,
    };
    try {
      await tx.folio.update({ where: { id: folio.id }, data: { settledAt: new Date(), settledByAccountId: actor.accountId, settlement } });
    } catch (error) {
      throw ledgerRuleError(error);
    }
    await recordAudit(tx, ctx, { action: 'order.settle', entityType: 'Folio', entityId: folio.id, before: { balance: folioFigures(lines).balance }, after: settlement });
  });
  return buildFolio(ctx, await loadVisit(deps.prisma, actor.hotelId, stay.id), new Date());
}
