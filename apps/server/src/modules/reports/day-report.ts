import { PAYMENT_METHODS, ZDayReportInput, ZReportRangeInput, addDays, type TPaymentMethod } from '@console/shared';
import type { TCashLine, TDayFigures, TDayReport, TReportRange } from '@console/shared/dto';
import type { z } from 'zod';
import type { Actor, AuthedContext, Deps } from '../../context';
import type { TPrisma } from '../../db/client';
import type { Tx } from '../../db/transaction';
import { requirePermission } from '../../permissions';
import { emptyLine, hotelDay } from '../orders/cash-lines';
import { figuresOf, rangeFigures } from './day-figures';
import { keptDays } from './kept-sums';

/**
 * The manager's day (issue 26 §2, docs/reports.md): a hotel calendar day's report, and a range of
 * days summed. A closed day's figures are those its close froze (day-close.ts: a closed day is never
 * changed, a correction made later lands on the day it is made); an open day's are computed from the
 * stays and the ledger (day-figures.ts, its statements in figures-sql.ts, the ledger's sums of the days
 * that are over kept in kept-sums.ts). Hotel-wide, so for managers of every room (`order.manage` and all rooms).
 */

type Db = TPrisma | Tx;

/** Hotel-wide figures: for managers of every room (not a member limited to some rooms). */
export function requireManager(actor: Actor) {
  requirePermission(actor, 'order.manage', { wholeHotel: true });
}

async function closerName(db: Db, id: number | null) {
  if (id === null) return null;
  const account = await db.account.findUnique({ where: { id }, select: { id: true, nickname: true } });
  return account ?? { id, nickname: '' };
}

export async function reportOf(deps: Deps, actor: Actor, date: string): Promise<TDayReport> {
  const db = deps.prisma;
  const closed = await db.dayClose.findUnique({ where: { hotelId_date: { hotelId: actor.hotelId, date } } });
  const head = { date, timeZone: actor.timeZone, currency: actor.currency };
  if (closed) {
    return {
      ...(closed.report as unknown as TDayFigures),
      ...head,
      closed: true,
      closedAt: closed.closedAt.toISOString(),
      closedBy: await closerName(db, closed.closedByAccountId),
      closedAutomatically: closed.automatic,
    };
  }
  const { from, to } = hotelDay(date, actor.timeZone);
  const [figures] = await rangeFigures(db, actor.hotelId, [from, to], [date], keptDays(deps, actor.hotelId, [date], [from, to]));
  return { ...figures!, ...head, closed: false, closedAt: null, closedBy: null, closedAutomatically: false };
}

/** A day's report: frozen when the day is closed, else as the stays and the ledger say now. */
export async function dayReport(ctx: AuthedContext, raw: z.input<typeof ZDayReportInput>): Promise<TDayReport> {
  requireManager(ctx.actor);
  const { date } = ZDayReportInput.parse(raw);
  return reportOf(ctx.deps, ctx.actor, date);
}

/** The days of a range (a week, a month) and their sums: room-nights, revenue and money summed; owing and deposits as of the last day. */
export async function reportRange(ctx: AuthedContext, raw: z.input<typeof ZReportRangeInput>): Promise<TReportRange> {
  requireManager(ctx.actor);
  const { from, to } = ZReportRangeInput.parse(raw);
  const { prisma } = ctx.deps;
  const { hotelId, timeZone, currency } = ctx.actor;
  const dates: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) dates.push(d);
  // The closed days' frozen rows and their closers at once; the open days' figures in three statements
  // for all of them (`rangeFigures`, over the span from the first open day to the last).
  const closedRows = await prisma.dayClose.findMany({ where: { hotelId, date: { in: dates } } });
  const closedOn = new Map(closedRows.map((c) => [c.date, c]));
  const closerIds = [...new Set(closedRows.flatMap((c) => (c.closedByAccountId === null ? [] : [c.closedByAccountId])))];
  const closers = new Map(
    (closerIds.length ? await prisma.account.findMany({ where: { id: { in: closerIds } }, select: { id: true, nickname: true } }) : []).map((a) => [a.id, a]),
  );
  const open = dates.filter((d) => !closedOn.has(d));
  const openFigures = new Map<string, TDayFigures>();
  if (open.length) {
    const span = dates.slice(dates.indexOf(open[0]!), dates.indexOf(open[open.length - 1]!) + 1);
    const bounds = [...span.map((d) => hotelDay(d, timeZone).from), hotelDay(span[span.length - 1]!, timeZone).to];
    const figures = await rangeFigures(prisma, hotelId, bounds, span, keptDays(ctx.deps, hotelId, span, bounds));
    span.forEach((d, i) => openFigures.set(d, figures[i]!));
  }
  const days: TDayReport[] = dates.map((date) => {
    const head = { date, timeZone, currency };
    const closed = closedOn.get(date);
    if (!closed) return { ...openFigures.get(date)!, ...head, closed: false, closedAt: null, closedBy: null, closedAutomatically: false };
    const closer = closed.closedByAccountId === null ? null : (closers.get(closed.closedByAccountId) ?? { id: closed.closedByAccountId, nickname: '' });
    return {
      ...(closed.report as unknown as TDayFigures),
      ...head,
      closed: true,
      closedAt: closed.closedAt.toISOString(),
      closedBy: closer,
      closedAutomatically: closed.automatic,
    };
  });
  const sum = (f: (d: TDayReport) => number) => days.reduce((s, d) => s + f(d), 0);
  const lines = new Map<TPaymentMethod, TCashLine>();
  for (const day of days) {
    for (const l of day.methods) {
      const line = lines.get(l.method) ?? emptyLine(l.method);
      lines.set(l.method, line);
      for (const k of ['deposits', 'payments', 'recharges', 'refunds', 'corrections', 'net', 'count'] as const) line[k] += l[k];
    }
  }
  const last = days[days.length - 1]!;
  const total = figuresOf({
    rooms: {
      total: sum((d) => d.rooms.total),
      outOfOrder: sum((d) => d.rooms.outOfOrder),
      available: sum((d) => d.rooms.available),
      sold: sum((d) => d.rooms.sold),
    },
    arrivals: sum((d) => d.arrivals),
    departures: sum((d) => d.departures),
    stayOvers: sum((d) => d.stayOvers),
    noShows: sum((d) => d.noShows),
    cancellations: sum((d) => d.cancellations),
    roomCharges: sum((d) => d.revenue.roomCharges),
    charges: sum((d) => d.revenue.charges),
    taxes: sum((d) => d.revenue.taxes ?? 0),
    methods: PAYMENT_METHODS.filter((m) => lines.has(m)).map((m) => lines.get(m)!),
    owing: last.owing,
    depositsHeld: last.depositsHeld,
  });
  return { from, to, currency, days, total };
}
