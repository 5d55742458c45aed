import { keepPreviousData } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';
import type { RouterInputs, RouterOutputs } from '@/lib/trpc-types';

/**
 * The timeline's api (issue 28 §1, docs/timeline.md): one query per visible window (a first day,
 * 7/14/30/60 days, optionally a room group). It has no mutations of its own: a bar moved or
 * extended and an empty range reserved go through the front desk's dialogs (the stays feature's
 * `StayActionById`), and every change of a stay, a room, a credential or a feed makes
 * `trpc.timeline` stale (lib/live-events.ts), in this tab and in every other within a second or two.
 */
export type TimelineWindowInput = RouterInputs['timeline']['window'];
export type TimelineWindow = RouterOutputs['timeline']['window'];
export type TimelineBar = TimelineWindow['bars'][number];

export const timelineQueries = {
  /** One window of rooms and days; the previous window stays on screen while the next one loads. */
  window: (input: TimelineWindowInput) => trpc.timeline.window.queryOptions(input, { placeholderData: keepPreviousData, meta: { showsErrors: true } }),
};
