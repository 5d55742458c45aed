import { addDays, isLocalDate } from '@console/shared';

/**
 * The reports' periods (issue 26 §2): a day, its week (Monday to Sunday, as ISO weeks) or its
 * calendar month; the range sent to `order.reportRange`, and the period before or after.
 */
export const REPORT_PERIODS = ['day', 'week', 'month'] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];

interface PeriodRange {
  from: string;
  to: string;
}

const parts = (date: string) => date.split('-').map(Number) as [number, number, number];
const pad = (n: number) => String(n).padStart(2, '0');

/** Days in a month (1-12) of a year. */
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The days of the period that holds `date`. */
export function periodRange(period: ReportPeriod, date: string): PeriodRange {
  if (period === 'day') return { from: date, to: date };
  const [y, m, d] = parts(date);
  if (period === 'month') return { from: `${y}-${pad(m)}-01`, to: `${y}-${pad(m)}-${pad(daysIn(y, m))}` };
  // Monday = 0 … Sunday = 6.
  const weekday = (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
  const from = addDays(date, -weekday);
  return { from, to: addDays(from, 6) };
}

/** A day of the period before (`-1`) or after (`1`): the same day of the month where it exists, else the month's last. */
export function shiftPeriod(period: ReportPeriod, date: string, step: -1 | 1): string {
  if (period === 'day') return addDays(date, step);
  if (period === 'week') return addDays(date, 7 * step);
  const [y, m, d] = parts(date);
  const month = m - 1 + step;
  const year = y + Math.floor(month / 12);
  const mm = ((month % 12) + 12) % 12;
  return `${year}-${pad(mm + 1)}-${pad(Math.min(d, daysIn(year, mm + 1)))}`;
}

/** Whether `date` can be sent: a real day. */
export const canSendDay = (date: string | undefined): date is string => date !== undefined && isLocalDate(date);
