import { z } from 'zod';
import { WHEN_FIELDS_VALID, ZId, ZLocalDate, ZMoneyMethod, ZOrderNote, localDate, type TMoneyMethod } from '@console/shared';
import type { TAuditChecks, TDayFigures, TDayReport, TShiftDto } from '@console/shared/dto';
import type { AuthedContext } from '../../context';
import { closeShift, currentShift, getShift, listShifts, openShift } from '../../modules/orders/shifts';
import { dayReport, reportRange } from '../../modules/reports/day-report';
import { closeDay } from '../../modules/reports/day-close';
import { auditChecks } from '../../modules/reports/audit-checks';
import { sessionAction } from './action';
import { ZLegacyMoney, ZLegacySignedMoney, legacyPage, money, toMinorOrFail, zLegacyPaging } from './convert';
import { legacyTime } from './format';
import { legacyCashLine } from './order';

/**
 * `/manage/order/*` for the manager's day (issue 26 §2; docs/orders.md "Cashier shifts",
 * docs/reports.md): cashier shifts and day reports for legacy clients, over the same services as
 * the web console's `order.shift*`, `order.dayReport`, `order.closeDay` and `order.reportRange`.
 * Money in major units, times in the hotel's zone, flags 0/1, as the rest of the protocol.
 *
 * - `shiftOpen`: the caller's shift opened with the cash float counted (`opening_float`, required:
 *   no default decides the float for the clerk); `note`: why it differs from what the last close
 *   left in the drawer (then required).
 * - `shiftCurrent`: the caller's open shift with what it has taken so far, or null.
 * - `shiftClose`: a shift closed by what was counted per way of paying (`counted`: cash, and every
 *   way the shift took money by); the difference is kept, with `note` (required when a count
 *   differs); `left_in_drawer`: the cash left for the next shift (optional: not said, no handover).
 * - `shiftInfo`, `shiftList`: one's own shifts, every clerk's with order management.
 * - `dayReport`: a hotel calendar day's figures (`date`, default today), frozen once closed.
 * - `auditChecks`: what the night audit checks before `date` is closed (its books, the shifts still
 *   open, the arrivals that did not come and the no-show fee each will be charged, the guests past
 *   their departure, the bills of reservations that never began still holding or owing money).
 * - `closeDay`: a day that is over closed (`date`, required: closing is never assumed).
 * - `report`: a range of days (`start_date`, `end_date`, at most 366 days) and their sums.
 */

function legacyShift(s: TShiftDto, ctx: AuthedContext) {
  const tz = ctx.actor.timeZone;
  return {
    shift_id: s.id,
    /** 0: open, 1: closed. */
    status: s.closedAt ? 1 : 0,
    operator_id: s.operator.id,
    operator_name: s.operator.nickname,
    open_time: legacyTime(s.openedAt, tz),
    close_time: legacyTime(s.closedAt, tz),
    closed_by_id: s.closedBy?.id ?? null,
    closed_by_name: s.closedBy?.nickname ?? null,
    opening_float: money(s.openingFloat, ctx.actor),
    currency: s.currency,
    pay_types: s.methods.map((l) => ({
      ...legacyCashLine(l, ctx),
      expected: money(l.expected, ctx.actor),
      counted: money(l.counted, ctx.actor),
      difference: money(l.difference, ctx.actor),
    })),
    expected: money(s.expected, ctx.actor),
    counted: money(s.counted, ctx.actor),
    difference: money(s.difference, ctx.actor),
    count: s.count,
    note: s.note,
  };
}

function legacyAuditChecks(c: TAuditChecks, ctx: AuthedContext) {
  const tz = ctx.actor.timeZone;
  const stay = (s: { stayId: number; roomId: number; roomName: string; guestName: string }) => ({
    stay_id: s.stayId,
    room_id: s.roomId,
    room_name: s.roomName,
    guest_name: s.guestName,
  });
  return {
    date: c.date,
    closed: c.closed ? 1 : 0,
    business_date: c.businessDate,
    over: c.over ? 1 : 0,
    no_show_policy: c.noShowPolicy,
    ties: c.ties ? 1 : 0,
    folios_off: c.foliosOff,
    open_shifts: c.openShifts.map((s) => ({
      shift_id: s.id,
      open_time: legacyTime(s.openedAt, tz),
      operator_name: s.openedBy,
      opening_float: money(s.openingFloat, ctx.actor),
    })),
    arrivals: c.arrivals.map((a) => ({ ...stay(a), no_show_time: legacyTime(a.noShowAt, tz), due: a.due ? 1 : 0, fee: money(a.fee, ctx.actor) })),
    departures: c.departures.map((d) => ({ ...stay(d), check_out_time: legacyTime(d.expectedCheckOutAt, tz) })),
    bills: c.bills.map((b) => ({ ...stay(b), folio_id: b.folioId, balance: money(b.balance, ctx.actor) })),
  };
}

function legacyFigures(f: TDayFigures, ctx: AuthedContext) {
  return {
    rooms_total: f.rooms.total,
    rooms_out_of_order: f.rooms.outOfOrder,
    rooms_available: f.rooms.available,
    rooms_sold: f.rooms.sold,
    /** Percent, one decimal. */
    occupancy: f.occupancy,
    adr: money(f.adr, ctx.actor),
    revpar: money(f.revpar, ctx.actor),
    arrivals: f.arrivals,
    departures: f.departures,
    stay_overs: f.stayOvers,
    no_shows: f.noShows,
    cancellations: f.cancellations,
    room_revenue: money(f.revenue.roomCharges, ctx.actor),
    other_revenue: money(f.revenue.charges, ctx.actor),
    /** The taxes booked that day, owed: included in the price, added on top, the city tax (revenue is net of them; added compatibly, issue 36). */
    taxes: money(f.revenue.taxes ?? 0, ctx.actor),
    revenue: money(f.revenue.total, ctx.actor),
    pay_types: f.methods.map((l) => legacyCashLine(l, ctx)),
    received: money(f.received, ctx.actor),
    refunded: money(f.refunded, ctx.actor),
    owing_count: f.owing.count,
    owing_total: money(f.owing.total, ctx.actor),
    deposits_held: money(f.depositsHeld, ctx.actor),
  };
}

function legacyDay(r: TDayReport, ctx: AuthedContext) {
  return {
    date: r.date,
    time_zone: r.timeZone,
    currency: r.currency,
    closed: r.closed ? 1 : 0,
    close_time: legacyTime(r.closedAt, r.timeZone),
    closed_by_id: r.closedBy?.id ?? null,
    closed_by_name: r.closedBy?.nickname ?? null,
    closed_automatically: r.closedAutomatically ? 1 : 0,
    ...legacyFigures(r, ctx),
  };
}

const ZShiftId = z.object({ shift_id: ZId });

export const orderReportActions = [
  sessionAction({
    path: 'order/shiftOpen',
    input: z.object({ opening_float: ZLegacyMoney, note: ZOrderNote.optional() }),
    services: [openShift],
    fields: { openingFloat: 'opening_float' },
    async handle(ctx, input) {
      return legacyShift(await openShift(ctx, { openingFloat: toMinorOrFail(input.opening_float, ctx.actor, 'opening_float'), note: input.note }), ctx);
    },
  }),

  sessionAction({
    path: 'order/shiftCurrent',
    input: z.object({}),
    services: [currentShift],
    async handle(ctx) {
      const shift = await currentShift(ctx);
      return shift ? legacyShift(shift, ctx) : null;
    },
  }),

  sessionAction({
    path: 'order/shiftClose',
    input: ZShiftId.extend({
      /** What was counted per way of paying, in major units: `{ "cash": 500, "wechat": 300 }`. */
      counted: z.partialRecord(ZMoneyMethod, ZLegacySignedMoney, {
        error: 'validation.amountInvalid',
      }),
      note: ZOrderNote,
      left_in_drawer: ZLegacyMoney.optional(),
    }),
    services: [closeShift],
    fields: { shiftId: 'shift_id', leftInDrawer: 'left_in_drawer' },
    async handle(ctx, input) {
      const counted: Partial<Record<TMoneyMethod, number>> = {};
      for (const [method, amount] of Object.entries(input.counted) as [TMoneyMethod, number | undefined][]) {
        if (amount !== undefined) counted[method] = toMinorOrFail(amount, ctx.actor, `counted.${method}`);
      }
      const leftInDrawer = input.left_in_drawer === undefined ? undefined : toMinorOrFail(input.left_in_drawer, ctx.actor, 'left_in_drawer');
      return legacyShift(await closeShift(ctx, { shiftId: input.shift_id, counted, note: input.note, leftInDrawer }), ctx);
    },
  }),

  sessionAction({
    path: 'order/shiftInfo',
    input: ZShiftId,
    services: [getShift],
    fields: { shiftId: 'shift_id' },
    async handle(ctx, input) {
      return legacyShift(await getShift(ctx, { shiftId: input.shift_id }), ctx);
    },
  }),

  sessionAction({
    path: 'order/shiftList',
    input: z
      .object({ ...zLegacyPaging(), operator_id: ZId.optional(), start_date: ZLocalDate.optional(), end_date: ZLocalDate.optional() })
      .refine((v) => !v.start_date || !v.end_date || v.start_date <= v.end_date, {
        error: 'validation.endAfterStart',
        path: ['end_date'],
        ...WHEN_FIELDS_VALID,
      }),
    services: [listShifts],
    fields: { operatorId: 'operator_id', from: 'start_date', to: 'end_date' },
    async handle(ctx, input) {
      const result = await listShifts(ctx, {
        page: input.page,
        pageSize: input.limit,
        operatorId: input.operator_id,
        from: input.start_date,
        to: input.end_date,
      });
      return legacyPage(result, (s) => legacyShift(s, ctx));
    },
  }),

  sessionAction({
    path: 'order/dayReport',
    input: z.object({ date: ZLocalDate.optional() }),
    services: [dayReport],
    async handle(ctx, input) {
      return legacyDay(await dayReport(ctx, { date: input.date ?? localDate(new Date(), ctx.actor.timeZone) }), ctx);
    },
  }),

  sessionAction({
    path: 'order/auditChecks',
    input: z.object({ date: ZLocalDate }),
    services: [auditChecks],
    async handle(ctx, input) {
      return legacyAuditChecks(await auditChecks(ctx, { date: input.date }), ctx);
    },
  }),

  sessionAction({
    path: 'order/closeDay',
    input: z.object({ date: ZLocalDate }),
    services: [closeDay],
    async handle(ctx, input) {
      return legacyDay(await closeDay(ctx, { date: input.date }), ctx);
    },
  }),

  sessionAction({
    path: 'order/report',
    input: z.object({ start_date: ZLocalDate, end_date: ZLocalDate }),
    services: [reportRange],
    fields: { from: 'start_date', to: 'end_date' },
    async handle(ctx, input) {
      const range = await reportRange(ctx, { from: input.start_date, to: input.end_date });
      return {
        start_date: range.from,
        end_date: range.to,
        currency: range.currency,
        list: range.days.map((d) => legacyDay(d, ctx)),
        total: legacyFigures(range.total, ctx),
      };
    },
  }),
];
