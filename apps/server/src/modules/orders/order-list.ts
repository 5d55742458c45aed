import { PAYMENT_METHODS, ZCashReportInput, ZOrderListInput, type TOrderEntryKind, type TPaymentMethod } from '@console/shared';
import type { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client';
import type { Actor, AuthedContext } from '../../context';
import { descAfter, type KeysetCursor } from '../../db/keyset';
import { AppError } from '../../errors';
import { readerOf } from '../../infra/system-text';
import { requirePermission } from '../../permissions';
import { entryScope, entrySelect, toEntryDtos, type OrderEntryDto } from './entries';
import { addTo, emptyLine, hotelDay, type CashLine } from './cash-lines';

/**
 * Reading the ledger: the order list (filters, pages, the sum of what matches) and a day's cash
 * report per operator for the shift hand-over, both in the hotel's calendar and time zone and
 * within the rooms the actor may see.
 */

export interface OrderListResult {
  items: OrderEntryDto[];
  total: number;
  page: number;
  pageSize: number;
  /** The sum of the amounts of everything that matches (not only this page). */
  sum: number;
  /**
   * What matches, by what the money did (not only this page), each net of the corrections that match
   * (a correction counts with the kind of the entry it reverses): received (deposits, payments,
   * recharges), refunded (negative), charged (room charges and charges, negative), corrected (the
   * corrections' sum, for the record), and net (received + refunded: the money that stayed with the
   * hotel).
   */
  totals: { received: number; refunded: number; charged: number; corrected: number; net: number };
  currency: string;
}

/** The conditions of the order list: the entries in the actor's scope that match the filters. */
function orderListWhere(actor: Actor, input: z.output<typeof ZOrderListInput>): Prisma.OrderEntryWhereInput {
  const createdAt: Prisma.DateTimeFilter = {};
  if (input.from) createdAt.gte = hotelDay(input.from, actor.timeZone).from;
  if (input.to) createdAt.lt = hotelDay(input.to, actor.timeZone).to;
  return {
    AND: [
      entryScope(actor),
      {
        ...(input.kinds?.length ? { kind: { in: input.kinds } } : {}),
        ...(input.method ? { method: input.method } : {}),
        ...(input.stayId ? { stayId: input.stayId } : {}),
        ...(input.roomId ? { roomId: input.roomId } : {}),
        ...(input.customerId ? { customerId: input.customerId } : {}),
        ...(input.operatorId ? { createdByAccountId: input.operatorId } : {}),
        ...(input.from || input.to ? { createdAt } : {}),
      },
    ],
  };
}

const orderOrder: Prisma.OrderEntryOrderByWithRelationInput[] = [{ createdAt: 'desc' }, { id: 'desc' }];

/** Every entry of the hotel that matches, newest first. Needs `order.manage`. */
export async function listOrders(ctx: AuthedContext, raw: z.input<typeof ZOrderListInput>): Promise<OrderListResult> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'order.manage');
  const input = ZOrderListInput.parse(raw);
  const where = orderListWhere(actor, input);
  // A correction counts with the kind of the entry it reverses (as Today's takings and the reports
  // count it): a charge reversed is no charge, a payment corrected as never received no money received.
  const corrections = (kinds: TOrderEntryKind[]) =>
    deps.prisma.orderEntry
      .aggregate({ where: { AND: [where, { kind: 'correction', linked: { kind: { in: kinds } } }] }, _sum: { amount: true } })
      .then((a) => a._sum.amount ?? 0);
  const [total, byKind, rows, receivedBack, refundedBack, chargedBack] = await Promise.all([
    deps.prisma.orderEntry.count({ where }),
    deps.prisma.orderEntry.groupBy({ by: ['kind'], where, _sum: { amount: true } }),
    deps.prisma.orderEntry.findMany({ where, select: entrySelect, orderBy: orderOrder, skip: (input.page - 1) * input.pageSize, take: input.pageSize }),
    corrections(['deposit', 'payment', 'recharge']),
    corrections(['refund']),
    corrections(['room_charge', 'charge']),
  ]);
  const of = (...kinds: string[]) => byKind.filter((g) => kinds.includes(g.kind)).reduce((sum, g) => sum + (g._sum.amount ?? 0), 0);
  const received = of('deposit', 'payment', 'recharge') + receivedBack;
  const refunded = of('refund') + refundedBack;
  return {
    items: await toEntryDtos(deps.prisma, rows, readerOf(ctx)),
    total,
    page: input.page,
    pageSize: input.pageSize,
    sum: byKind.reduce((sum, g) => sum + (g._sum.amount ?? 0), 0),
    totals: { received, refunded, charged: of('room_charge', 'charge') + chargedBack, corrected: of('correction'), net: received + refunded },
    currency: actor.currency,
  };
}

/**
 * The order list read whole, for an export: up to `limit` entries after `after` (from the first
 * when null), newest first, by keyset (db/keyset.ts), same checks and conditions as `listOrders`;
 * and how many match (`countOrders`).
 */
export async function listOrdersAfter(
  ctx: AuthedContext,
  raw: z.input<typeof ZOrderListInput>,
  after: KeysetCursor | null,
  limit: number,
): Promise<OrderEntryDto[]> {
  requirePermission(ctx.actor, 'order.manage');
  const where: Prisma.OrderEntryWhereInput = {
    AND: [orderListWhere(ctx.actor, ZOrderListInput.parse(raw)), descAfter<Prisma.OrderEntryWhereInput>('createdAt', after)],
  };
  const rows = await ctx.deps.prisma.orderEntry.findMany({ where, select: entrySelect, orderBy: orderOrder, take: limit });
  return toEntryDtos(ctx.deps.prisma, rows, readerOf(ctx));
}

export async function countOrders(ctx: AuthedContext, raw: z.input<typeof ZOrderListInput>): Promise<number> {
  requirePermission(ctx.actor, 'order.manage');
  return ctx.deps.prisma.orderEntry.count({ where: orderListWhere(ctx.actor, ZOrderListInput.parse(raw)) });
}

export interface CashReport {
  date: string;
  timeZone: string;
  currency: string;
  from: string;
  to: string;
  operators: { operator: { id: number; nickname: string } | null; methods: CashLine[]; net: number; cash: number; count: number }[];
  methods: CashLine[];
  net: number;
  cash: number;
}

const byMethod = (lines: Map<TPaymentMethod, CashLine>) => PAYMENT_METHODS.filter((m) => lines.has(m)).map((m) => lines.get(m)!);
/** What is handed over: every way of paying but a customer's balance (its money came in when it was recharged). */
const handedOver = (lines: CashLine[]) => lines.reduce((sum, l) => (l.method === 'balance' ? sum : sum + l.net), 0);

/** Whose money the actor may see in a report: everyone's with `order.manage`, else their own (front desk). */
function reportOperator(actor: Actor, operatorId: number | undefined): number | undefined {
  if (actor.permissions.has('order.manage')) return operatorId;
  requirePermission(actor, 'stay.manage');
  if (operatorId !== undefined && operatorId !== actor.accountId) throw new AppError('FORBIDDEN');
  return actor.accountId;
}

/**
 * A day's cash report for the shift hand-over: the money that changed hands on one hotel calendar
 * day (deposits, payments, recharges in; refunds out; corrections of mistakes), per operator and
 * per way of payment, with what each hands over (`net`, and `cash` of it). Charges move no money
 * and are not in it; money taken from customers' balances is shown on its own line and is not
 * handed over (it came in with the recharge). The front desk sees its own; `order.manage` sees every operator.
 */
export async function cashReport(ctx: AuthedContext, raw: z.input<typeof ZCashReportInput>): Promise<CashReport> {
  const { deps, actor } = ctx;
  const input = ZCashReportInput.parse(raw);
  const operatorId = reportOperator(actor, input.operatorId);
  const { from, to } = hotelDay(input.date, actor.timeZone);
  const groups = await deps.prisma.orderEntry.groupBy({
    by: ['createdByAccountId', 'method', 'kind'],
    where: {
      AND: [
        entryScope(actor),
        { createdAt: { gte: from, lt: to }, method: { not: null }, ...(operatorId !== undefined ? { createdByAccountId: operatorId } : {}) },
      ],
    },
    _sum: { amount: true },
    _count: { _all: true },
    orderBy: [{ createdByAccountId: 'asc' }, { method: 'asc' }, { kind: 'asc' }],
  });
  const perOperator = new Map<number | null, Map<TPaymentMethod, CashLine>>();
  const total = new Map<TPaymentMethod, CashLine>();
  for (const g of groups) {
    const method = g.method!;
    const lines = perOperator.get(g.createdByAccountId) ?? new Map<TPaymentMethod, CashLine>();
    perOperator.set(g.createdByAccountId, lines);
    const line = lines.get(method) ?? emptyLine(method);
    lines.set(method, line);
    const all = total.get(method) ?? emptyLine(method);
    total.set(method, all);
    addTo(line, g.kind, g._sum.amount ?? 0, g._count._all);
    addTo(all, g.kind, g._sum.amount ?? 0, g._count._all);
  }
  const ids = [...perOperator.keys()].filter((id): id is number => id !== null);
  const accounts = ids.length ? await deps.prisma.account.findMany({ where: { id: { in: ids } }, select: { id: true, nickname: true } }) : [];
  const names = new Map(accounts.map((a) => [a.id, a.nickname]));
  const operators = [...perOperator.entries()].map(([id, lines]) => {
    const methods = byMethod(lines);
    return {
      operator: id !== null ? { id, nickname: names.get(id) ?? '' } : null,
      methods,
      net: handedOver(methods),
      cash: lines.get('cash')?.net ?? 0,
      count: methods.reduce((s, l) => s + l.count, 0),
    };
  });
  const methods = byMethod(total);
  return {
    date: input.date,
    timeZone: actor.timeZone,
    currency: actor.currency,
    from: from.toISOString(),
    to: to.toISOString(),
    operators,
    methods,
    net: handedOver(methods),
    cash: total.get('cash')?.net ?? 0,
  };
}
