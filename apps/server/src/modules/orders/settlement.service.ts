import { ZFolioInput, ZSettleInput, type TOrderEntryKind, type TOwingReason } from '@console/shared';
import type { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client';
import type { AuthedContext } from '../../context';
import { transaction, type Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { readerOf, systemText } from '../../infra/system-text';
import { recordAudit } from '../audit/audit.service';
import { findStay, isActive, type StayDto } from '../base/stay-dto';
import { appendEntry, folioFigures, formatMoney, ledgerRuleError, loadVisit, openFolio, roomChargeDue, type RoomChargeDue, type Visit } from './folio';
import { entrySelect, toEntryDtos, toLine, type OrderEntryDto } from './entries';
import { planSettlement, type LedgerLine, type SettlementDecision, type SettlementPlan, type SettlementTaxes } from './ledger-facts';
import { settlementTaxes } from './city-tax';
import type { TPrisma } from '../../db/client';
import { balancePayer, lockCoveringBalance } from './balances';
import { recordEvent } from '../../db/events';

/**
 * The stay module's check-out, which a settlement "with check-out" runs first. Stay registers it at
 * start-up (wireModules, createDeps): stay imports orders (room charges, folios), so orders imports
 * no stay module (docs/decisions/042-one-credential-writer.md, the folder-level cycle check).
 */
type CheckOut = (ctx: AuthedContext, input: { stayId: number }) => Promise<StayDto & { revokedCredentials: number }>;
let checkOutStay: CheckOut | null = null;

export function registerCheckOut(checkOut: CheckOut): void {
  checkOutStay = checkOut;
}

export function checkOut(ctx: AuthedContext, input: { stayId: number }) {
  if (!checkOutStay) throw new Error('no check-out registered with orders (wireModules registers it)');
  return checkOutStay(ctx, input);
}

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
  ifDepositRefunded: { refunded: number; handedBack: number; towardBill: number; owed: number };
  ifDepositKept: { refunded: number; handedBack: number; owed: number; kept: number };
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
  /** Open; left owing at check-out (takes only payments of what is owed); settled (final). */
  state: 'open' | 'owing' | 'settled';
  settledAt: string | null;
  /** Left owing: when, how much was owed then, why (OWING_REASONS) and the clerk's note. */
  owing: { at: string; amount: number; reason: TOwingReason; note: string } | null;
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

/** The notes of a settlement's entries: codes, each read in its reader's language (the clerk's reason kept as typed). */
function settlementNotes(reason: string): SettlementDecision['notes'] {
  return {
    roomChargeRecomputed: systemText('orders.notes.roomChargeRecomputed'),
    depositKept: systemText('orders.notes.depositKept', { reason }),
    depositRefund: systemText('orders.notes.depositRefund'),
    refund: systemText('orders.notes.checkOutRefund'),
  };
}

function preview(lines: LedgerLine[], due: RoomChargeDue, taxes: SettlementTaxes): SettlementPreview {
  const base = { roomChargeDue: due.due, taxes, depositReason: '-', notes: settlementNotes('-') };
  const refunded = planSettlement(lines, { ...base, deposit: 'refund' });
  const kept = planSettlement(lines, { ...base, deposit: 'keep' });
  return {
    departureAt: due.departureAt.toISOString(),
    early: due.early,
    roomCharge: { full: due.full, due: due.due, posted: refunded.roomCharge.posted },
    unusedNights: due.unusedNights,
    depositHeld: refunded.deposit.held,
    ifDepositRefunded: {
      refunded: refunded.refunded,
      handedBack: refunded.handedBack,
      towardBill: refunded.deposit.held - refunded.deposit.refunded,
      owed: refunded.owed,
    },
    ifDepositKept: { refunded: kept.refunded, handedBack: kept.handedBack, owed: kept.owed, kept: kept.deposit.kept },
  };
}

export const lineSelect = { id: true, kind: true, amount: true, method: true, linkedEntryId: true, customerId: true, taxedEntryId: true } as const;

export async function folioOf(db: Tx | AuthedContext['deps']['prisma'], hotelId: number, firstStayId: number) {
  return db.folio.findFirst({
    where: { hotelId, stayId: firstStayId },
    select: { id: true, currency: true, settledAt: true, settlement: true, owedAt: true, owedAmount: true, owedReason: true, owedNote: true },
  });
}

async function buildFolio(ctx: AuthedContext, visit: Visit, now: Date): Promise<FolioDto> {
  const { prisma } = ctx.deps;
  const { actor } = ctx;
  const folio = await folioOf(prisma, actor.hotelId, visit.first.id);
  const rows = folio
    ? await prisma.orderEntry.findMany({ where: { hotelId: actor.hotelId, folioId: folio.id }, select: entrySelect, orderBy: { id: 'asc' } })
    : [];
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
    state: settled ? 'settled' : folio?.owedAt ? 'owing' : 'open',
    settledAt: folio?.settledAt?.toISOString() ?? null,
    owing: folio?.owedAt
      ? { at: folio.owedAt.toISOString(), amount: folio.owedAmount ?? 0, reason: (folio.owedReason ?? 'unpaid') as TOwingReason, note: folio.owedNote }
      : null,
    settlement: folio?.settlement ?? null,
    entries: await toEntryDtos(prisma, rows, readerOf(ctx)),
    totals: figures.totals,
    balance: figures.balance,
    owed: figures.owed,
    dueBack: figures.dueBack,
    depositHeld: figures.depositHeld,
    preview: settled || folio?.owedAt ? null : await previewOf(prisma, actor.hotelId, folio?.id ?? null, visit, lines, now, actor.timeZone),
  };
}

/** What a settlement at `now` would do, with the taxes it follows. */
async function previewOf(db: TPrisma, hotelId: number, folioId: number | null, visit: Visit, lines: LedgerLine[], now: Date, timeZone: string) {
  const due = await roomChargeDue(db, timeZone, visit, now);
  return preview(lines, due, await settlementTaxes(db, hotelId, folioId, visit, due.departureAt));
}

/** The folio of a stay's visit: its entries, what is owed or due back, and what settling now would do. */
export async function getFolio(ctx: AuthedContext, raw: z.input<typeof ZFolioInput>): Promise<FolioDto> {
  requirePermission(ctx.actor, 'stay.manage');
  const input = ZFolioInput.parse(raw);
  const stay = await findStay(ctx, input.stayId);
  return buildFolio(ctx, await loadVisit(ctx.deps.prisma, ctx.actor.hotelId, stay.id), new Date());
}

type TSettle = z.output<typeof ZSettleInput>;

/** The payment asked for must be exactly what is owed (the operator confirms the figure they saw), or the guest leaves owing it with a reason. */
function checkPayment(ctx: AuthedContext, plan: SettlementPlan, payment: TSettle['payment'], leaveOwing?: TSettle['leaveOwing']) {
  const money = (minor: number) => formatMoney(minor, ctx.actor.currency, ctx.meta.lang);
  if (leaveOwing) {
    if (plan.owed === 0)
      throw new AppError('CONFLICT', { messageKey: 'orders.errors.nothingOwed', money: { currency: ctx.actor.currency, amounts: { owed: 0 } } });
    return;
  }
  if (plan.owed > 0 && !payment)
    throw new AppError('CONFLICT', {
      messageKey: 'orders.errors.balanceOwed',
      params: { amount: money(plan.owed) },
      money: { currency: ctx.actor.currency, amounts: { owed: plan.owed } },
    });
  if (plan.owed > 0 && payment && payment.amount !== plan.owed) {
    throw new AppError('CONFLICT', {
      messageKey: 'orders.errors.paymentNotOwed',
      params: { amount: money(plan.owed) },
      money: { currency: ctx.actor.currency, amounts: { owed: plan.owed } },
    });
  }
  if (plan.owed === 0 && payment)
    throw new AppError('CONFLICT', { messageKey: 'orders.errors.nothingOwed', money: { currency: ctx.actor.currency, amounts: { owed: 0 } } });
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
  const decision = (due: RoomChargeDue, taxes: SettlementTaxes): SettlementDecision => ({
    roomChargeDue: due.due,
    taxes,
    // Without a deposit held there is nothing to decide; with one, the decision is required (checkDecisions).
    deposit: input.deposit ?? 'refund',
    depositReason: input.depositReason,
    refundMethod: input.refundMethod,
    notes: settlementNotes(input.depositReason),
  });

  const payer = input.payment?.method === 'balance' ? await balancePayer(ctx, input.payment) : null;
  const visit = await loadVisit(deps.prisma, actor.hotelId, stay.id);
  if (isActive(visit.current.status)) {
    if (!input.checkOut) throw new AppError('CONFLICT', { messageKey: 'orders.errors.stayNotCheckedOut' });
    // What settling would ask, at a departure now: refused before the guest is checked out.
    const folio = await folioOf(deps.prisma, actor.hotelId, visit.first.id);
    if (folio?.settledAt) throw new AppError('CONFLICT', { messageKey: 'orders.errors.folioSettled' });
    const lines = folio
      ? (await deps.prisma.orderEntry.findMany({ where: { hotelId: actor.hotelId, folioId: folio.id }, select: lineSelect, orderBy: { id: 'asc' } })).map(
          toLine,
        )
      : [];
    const due = await roomChargeDue(deps.prisma, actor.timeZone, visit, new Date());
    const preview = planSettlement(lines, decision(due, await settlementTaxes(deps.prisma, actor.hotelId, folio?.id ?? null, visit, due.departureAt)));
    checkDecisions(preview, input);
    checkPayment(ctx, preview, input.payment, input.leaveOwing);
    if (payer && input.payment) await transaction(deps, (tx) => lockCoveringBalance(tx, ctx, payer.id, input.payment!.amount));
    await checkOut(ctx, { stayId: visit.current.id });
  }

  await transaction(deps, async (tx) => {
    const current = await loadVisit(tx, actor.hotelId, stay.id);
    if (isActive(current.current.status)) throw new AppError('CONFLICT', { messageKey: 'orders.errors.stayNotCheckedOut' });
    const folio = await openFolio(tx, actor, current.first.id);
    const lines = (await tx.orderEntry.findMany({ where: { hotelId: actor.hotelId, folioId: folio.id }, select: lineSelect, orderBy: { id: 'asc' } })).map(
      toLine,
    );
    const due = await roomChargeDue(tx, actor.timeZone, current, new Date());
    const plan = planSettlement(lines, decision(due, await settlementTaxes(tx, actor.hotelId, folio.id, current, due.departureAt)));
    if (plan.unreturnable > 0)
      throw new AppError('CONFLICT', {
        messageKey: 'orders.errors.cannotBalance',
        money: { currency: actor.currency, amounts: { dueBack: plan.unreturnable } },
      });
    checkDecisions(plan, input);
    checkPayment(ctx, plan, input.payment, input.leaveOwing);
    const on = { stayId: current.current.id, roomId: current.current.roomId, folioId: folio.id };
    const ids: number[] = [];
    for (const entry of plan.entries) ids.push(await appendEntry(tx, ctx.actor, { ...entry, ...on }));
    if (plan.owed > 0 && input.payment) {
      if (payer) await lockCoveringBalance(tx, ctx, payer.id, plan.owed);
      ids.push(
        await appendEntry(tx, ctx.actor, {
          kind: 'payment',
          amount: plan.owed,
          method: input.payment.method,
          customerId: payer?.id ?? null,
          note: systemText('orders.notes.settlementPayment'),
          ...on,
        }),
      );
    }
    await repriceStay(tx, current, due.due);
    if (plan.owed > 0 && input.leaveOwing) {
      await leaveFolioOwing(tx, ctx, folio.id, plan.owed, input.leaveOwing.reason, input.leaveOwing.note, {
        departureAt: due.departureAt.toISOString(),
        early: due.early,
        entryIds: ids,
      });
      return;
    }
    const sum = await tx.orderEntry.aggregate({ where: { hotelId: actor.hotelId, folioId: folio.id }, _sum: { amount: true } });
    if ((sum._sum.amount ?? 0) !== 0)
      throw new AppError('CONFLICT', {
        messageKey: 'orders.errors.cannotBalance',
        money: { currency: actor.currency, amounts: { balance: sum._sum.amount ?? 0 } },
      });
    const settlement = {
      departureAt: due.departureAt.toISOString(),
      early: due.early,
      roomCharge: { full: due.full, due: due.due, posted: plan.roomCharge.posted },
      deposit: {
        decision: input.deposit ?? null,
        reason: input.depositReason,
        held: plan.deposit.held,
        refunded: plan.deposit.refunded,
        kept: plan.deposit.kept,
      },
      refunded: plan.refunded,
      paid: plan.owed,
      entryIds: ids,
    };
    try {
      await tx.folio.update({ where: { id: folio.id }, data: { settledAt: new Date(), settledByAccountId: actor.accountId, settlement } });
    } catch (error) {
      throw ledgerRuleError(error);
    }
    await recordEvent(tx, { hotelId: actor.hotelId, kind: 'ledger.changed', roomIds: [current.current.roomId], stayId: current.current.id });
    await recordAudit(tx, ctx, {
      action: 'order.settle',
      entityType: 'Folio',
      entityId: folio.id,
      before: { balance: folioFigures(lines).balance },
      after: settlement,
    });
  });
  return buildFolio(ctx, await loadVisit(deps.prisma, actor.hotelId, stay.id), new Date());
}

/** A deposit held is refunded or kept only as the clerk says: a settlement that does not say is refused, never decided for them. */
/**
 * What the clerk decides is never assumed (issue 36): the deposit's fate when one is held, and the
 * way money handed back goes (cash, card, ...; money from a customer's balance goes back to it).
 */
function checkDecisions(plan: Pick<SettlementPlan, 'deposit' | 'handedBack'>, input: TSettle): void {
  if (plan.deposit.held > 0 && input.deposit === undefined)
    throw new AppError('VALIDATION', { messageKey: 'validation.depositDecisionInvalid', fields: { deposit: 'validation.depositDecisionInvalid' } });
  if (plan.handedBack > 0 && input.refundMethod === undefined)
    throw new AppError('VALIDATION', { messageKey: 'validation.refundMethodRequired', fields: { refundMethod: 'validation.refundMethodRequired' } });
}

/**
 * A stay re-priced at its departure (an early one credits the nights not used): the stay's amount
 * becomes what it cost, so the guest list, its exports and the stay card say what the bill says.
 */
export async function repriceStay(tx: Tx, visit: Visit, due: number): Promise<void> {
  if (visit.current.priceAmount === due || visit.current.status === 'ended') return;
  await tx.stay.update({ where: { id: visit.current.id }, data: { priceAmount: due } });
}

/** The bill is left owing `owed`, and why: it takes only payments of what is owed from now on (audited). */
export async function leaveFolioOwing(
  tx: Tx,
  ctx: AuthedContext,
  folioId: number,
  owed: number,
  reason: TOwingReason,
  note: string,
  facts: Record<string, unknown>,
): Promise<void> {
  const { actor } = ctx;
  await tx.folio.update({
    where: { id: folioId },
    data: { owedAt: new Date(), owedAmount: owed, owedReason: reason, owedNote: note, owedByAccountId: actor.accountId },
  });
  await recordEvent(tx, { hotelId: actor.hotelId, kind: 'ledger.changed' });
  await recordAudit(tx, ctx, { action: 'order.leftOwing', entityType: 'Folio', entityId: folioId, after: { owed, reason, note, ...facts } });
}
