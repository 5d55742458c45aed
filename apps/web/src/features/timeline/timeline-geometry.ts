import { TIMELINE_BLOCK, daysBetween } from '@console/shared';

/** The widths of a day column for each window (px): a week is read, two months are scanned. */
export const COLUMN_WIDTH: Record<number, number> = { 7: 132, 14: 92, 30: 60, 60: 44 };
export const ROW_HEIGHT = 40;
export const GROUP_HEIGHT = 34;
export const HEADER_HEIGHT = 76;

/**
 * Where a bar lies in a window of `days` days from `from`, in day columns: it begins in the middle
 * of its arrival day and ends in the middle of its departure day (the afternoon in, the morning
 * out, as tape charts draw them), cut at the window's edges. Null when it is outside the window.
 */
export function barSpan(
  from: string,
  days: number,
  startDate: string,
  endDate: string,
): { start: number; end: number; cutStart: boolean; cutEnd: boolean } | null {
  const rawStart = daysBetween(from, startDate) + 0.5;
  let rawEnd = daysBetween(from, endDate) + 0.5;
  // A stay of hours begins and ends on one day: half a column, so that it can be seen and pressed.
  if (rawEnd - rawStart < 0.5) rawEnd = rawStart + 0.5;
  const start = Math.max(rawStart, 0);
  const end = Math.min(rawEnd, days);
  if (end <= start) return null;
  return { start, end, cutStart: rawStart < 0, cutEnd: rawEnd > days };
}

/**
 * The blocks of rooms (TIMELINE_BLOCK rooms each, in the grid's order) whose bars the grid asks
 * `timeline.bars` for, when the rooms `firstRoom` to `lastRoom` are drawn (-1: none): those blocks,
 * and the next or previous one when the rows drawn are within a quarter of a block of it (25
 * rooms, two screens or so), so that it has
 * come before it is scrolled to. Never block 0: its bars come with the window's answer.
 */
export function blocksToFetch(firstRoom: number, lastRoom: number, blocks: number, size = TIMELINE_BLOCK): number[] {
  if (lastRoom < 0) return [];
  const ahead = size / 4;
  const from = Math.floor(Math.max(0, firstRoom - ahead) / size);
  const to = Math.min(blocks - 1, Math.floor((lastRoom + ahead) / size));
  const out: number[] = [];
  for (let b = Math.max(1, from); b <= to; b++) out.push(b);
  return out;
}
