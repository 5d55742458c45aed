import { ZDayReportInput, addDays, localDate, zonedToInstant } from '@console/shared';
import type { TDayReport } from '@console/shared/dto';
import type { z } from 'zod';
import type { AuthedContext, ServiceContext } from '../../context';
import { recordEvent } from '../../db/events';
import { lockLedgerDay } from '../../db/ledger-day-lock';
import { transaction } from '../../db/transaction';
import { AppError } from '../../errors';
import { recordAudit } from '../audit/audit.service';
import { businessDateOf } from '../journal/business-date';
import { checkpointInClose, keepCheckpoint } from '../journal/ledger-checkpoint';
import { trialBalanceOf } from '../journal/trial-balance';
import { hotelDay } from '../orders/cash-lines';
import { releaseDayNoShows } from '../stays/transitions';
import { dayFigures } from './day-figures';
import { keptDays } from './kept-sums';
import { reportOf, requireManager } from './day-report';

/**
 * The day close (docs/reports.md): a manager's, or the hotel's set hour's; the day's no-shows
 * released first, a day whose books do not tie refused, the figures frozen.
 */

/**
 * Closes a day that is over: its figures frozen, audited. Closed once: a second close, or two at
 * once, answers the same closed report. Every ledger entry waits for the close (the shared lock),
 * so an entry at the instant of the close is in the frozen figures or dated after the day.
 */
export async function closeDay(ctx: AuthedContext, raw: z.input<typeof ZDayReportInput>): Promise<TDayReport> {
  const { deps, actor } = ctx;
  requireManager(actor);
  const { date } = ZDayReportInput.parse(raw);
  if (new Date() < hotelDay(date, actor.timeZone).to) {
    throw new AppError('VALIDATION', { messageKey: 'reports.validation.dayNotOver', fields: { date: 'reports.validation.dayNotOver' } });
  }
  if ((await freezeDay(ctx, { id: actor.hotelId, timeZone: actor.timeZone }, date, actor.accountId)) === 'untied') {
    throw new AppError('CONFLICT', { messageKey: 'reports.validation.booksDoNotTie' });
  }
  return reportOf(deps, actor, date);
}

/**
 * The close itself, by a manager (`accountId`) or by the hotel's set hour (null): the day's no-shows
 * whose time has come are released first, so its figures count them; a day whose trial balance does
 * not tie is not closed. Whether this call closed it (`closed`), found it closed, or refused it.
 */
async function freezeDay(
  ctx: ServiceContext,
  hotel: { id: number; timeZone: string },
  date: string,
  accountId: number | null,
): Promise<'closed' | 'already' | 'untied'> {
  const { from, to } = hotelDay(date, hotel.timeZone);
  // The day before kept as the books' checkpoint first, outside the close's transaction (the first
  // of a hotel reads its whole journal): the close's own trial balance then reads one day.
  await keepCheckpoint(ctx.deps, hotel.id, addDays(date, -1));
  // A day the books have left behind (closed late): its ledger sums and what it stood at at its end,
  // kept outside the transaction too (a day weeks back reads every bill settled since it); the
  // no-shows the close charges are dated on the open day, not on it. The open day is computed inside.
  const kept = date < (await businessDateOf(ctx.deps.prisma, hotel.id)) ? await keptDays(ctx.deps, hotel.id, [date], [from, to]) : undefined;
  return transaction(ctx.deps, async (tx) => {
    await lockLedgerDay(tx, hotel.id);
    if (await tx.dayClose.findUnique({ where: { hotelId_date: { hotelId: hotel.id, date } }, select: { id: true } })) return 'already';
    if (!(await trialBalanceOf(tx, hotel.id, date)).ties) return 'untied';
    const noShows = await releaseDayNoShows(tx, ctx, hotel.id, from, to, new Date());
    const figures = await dayFigures(tx, hotel.id, date, from, to, kept);
    const row = await tx.dayClose.create({
      data: { hotelId: hotel.id, date, closedByAccountId: accountId, automatic: accountId === null, report: figures as object },
      select: { id: true },
    });
    // The day's end, its no-shows charged, where the next trial balance starts.
    await checkpointInClose(tx, hotel.id, date);
    await recordEvent(tx, { hotelId: hotel.id, kind: 'day.closed' });
    await recordAudit(tx, ctx, {
      hotelId: hotel.id,
      action: 'order.closeDay',
      entityType: 'DayClose',
      entityId: row.id,
      after: {
        date,
        automatic: accountId === null,
        roomsSold: figures.rooms.sold,
        revenue: figures.revenue.total,
        received: figures.received,
        refunded: figures.refunded,
        noShowsReleased: noShows,
      },
    });
    return 'closed';
  });
}

/**
 * The day closed by itself (docs/reports.md): for each hotel with a `dayCloseTime`, once the hotel's
 * clock has passed that time today, the day before is closed if no manager closed it (run by the
 * install's stay sweep, after it released the no-shows due). Only the day before: a day left open
 * longer (the install was down) waits for a manager. Returns how many days it closed.
 */
export async function closeDaysOnTime(ctx: ServiceContext, now: Date, scope: { hotelId?: number } = {}): Promise<number> {
  const hotels = await ctx.deps.prisma.hotel.findMany({
    where: { dayCloseTime: { not: null }, ...(scope.hotelId === undefined ? {} : { id: scope.hotelId }) },
    select: { id: true, timeZone: true, dayCloseTime: true },
  });
  let closed = 0;
  for (const hotel of hotels) {
    const today = localDate(now, hotel.timeZone);
    const due = zonedToInstant(`${today}T${hotel.dayCloseTime}`, hotel.timeZone);
    if (!due || now < due) continue;
    const done = await freezeDay(ctx, hotel, addDays(today, -1), null);
    if (done === 'closed') closed += 1;
    // The books of the day do not tie: left open for a manager, whose close says so.
    if (done === 'untied')
      ctx.deps.log.error({ hotelId: hotel.id, date: addDays(today, -1) }, 'day close: the trial balance does not tie; the day is left open');
  }
  return closed;
}
