import { keepPreviousData } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';
import type { RouterInputs, RouterOutputs } from '@/lib/trpc-types';

/**
 * The timeline's api (issue 28 §1, docs/timeline.md, decision 052): one query per window (a first
 * day, 7/14/30/60 days, optionally a room group: its rooms, each day's figures over the whole hotel,
 * and the first block of rooms' bars), and one per further block of TIMELINE_BLOCK rooms as the
 * grid scrolls to it (the block on screen and the next one). It has no mutations of its own: a bar moved or
 * extended and an empty range reserved go through the front desk's dialogs (the stays feature's
 * `StayActionById`), and every change of a stay, a room, a credential or a feed makes
 * `trpc.timeline` stale (lib/live-events.ts), in this tab and in every other within a second or two.
 */
export type TimelineWindowInput = RouterInputs['timeline']['window'];
export type TimelineWindow = RouterOutputs['timeline']['window'];
export type TimelineBar = TimelineWindow['bars'][number];
type TimelineBarsInput = RouterInputs['timeline']['bars'];

export const timelineQueries = {
  /** One window of rooms and days; the previous window stays on screen while the next one loads. */
  window: (input: TimelineWindowInput) => trpc.timeline.window.queryOptions(input, { placeholderData: keepPreviousData, meta: { showsErrors: true } }),
  /** The bars of one block of the window's rooms (the rows on screen, or the next ones, fetched ahead). */
  bars: (input: TimelineBarsInput) => trpc.timeline.bars.queryOptions(input, { meta: { showsErrors: true } }),
};
