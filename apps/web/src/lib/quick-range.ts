import { addDays, type QUICK_RANGES } from '@console/shared';

/** The quick ranges of unlock records (spec §4): today, yesterday, a week ago. */
export type QuickRange = (typeof QUICK_RANGES)[number];

/** The dates of a quick range in the hotel's calendar; "a week ago" is the last 7 days up to today. */
export function quickRange(range: QuickRange, today: string): { from: string; to: string } {
  if (range === 'today') return { from: today, to: today };
  if (range === 'yesterday') return { from: addDays(today, -1), to: addDays(today, -1) };
  return { from: addDays(today, -6), to: today };
}
