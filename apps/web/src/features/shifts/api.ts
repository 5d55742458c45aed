import { keepPreviousData, type QueryClient } from '@tanstack/react-query';
import { isLocalDate } from '@console/shared';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import type { SearchOf } from '@/lib/url-search';
import { shiftsSearchSchema } from './shifts-search';

/**
 * The cashier shifts' api (issue 26 §2, docs/orders.md "Cashier shifts"): the clerk's open shift,
 * a page of shifts (the clerk's own, every clerk's with `order.manage`) and one shift, the list's
 * page and days read from the URL, and what opening or closing a shift makes stale. Mutations are
 * the tRPC ones (`trpc.order.shiftOpen`, `trpc.order.shiftClose`). Every payment, refund or shift
 * event invalidates the `order` router (lib/live-events.ts): the figures follow without a reload.
 */
export const shiftQueries = {
  /** The signed-in clerk's open shift with what it has taken so far; null when none is open. */
  current: () => trpc.order.shiftCurrent.queryOptions(undefined, { meta: { showsErrors: true } }),
  /** What the next shift takes over: the hotel's latest close that said what it left in the drawer (null: none). */
  handover: () => trpc.order.shiftHandover.queryOptions(undefined, { meta: { showsErrors: true } }),
  /** A page of shifts opened within the days, newest first; `enabled`: the days can be sent. */
  list: (input: ShiftListInput, enabled = true) =>
    trpc.order.shifts.queryOptions(input, { placeholderData: keepPreviousData, enabled, meta: { showsErrors: true } }),
  /** One shift with its lines per way of paying (shown while it loads: what the list or the card had). */
  one: (shift: Shift) => trpc.order.shift.queryOptions({ shiftId: shift.id }, { placeholderData: shift, meta: { showsErrors: true } }),
};

export type Shift = RouterOutputs['order']['shift'];
export type ShiftsSearch = SearchOf<typeof shiftsSearchSchema>;
type ShiftListInput = { page: number; pageSize: number; from?: string; to?: string };

/** The page and days as the URL holds them (read by the page and its loader, not by the route: bench/bundle-size.ts). */
export function readShiftsSearch(raw: unknown): ShiftsSearch {
  const result = shiftsSearchSchema['~standard'].validate(raw);
  return 'value' in result ? result.value : readShiftsSearch({});
}

/** The days can be sent: each a day or none, the end not before the start. */
const canSendDays = (from: string, to: string) => [from, to].every((day) => day === '' || isLocalDate(day)) && (!from || !to || from <= to);

/** The shifts route's loader: the clerk's open shift and the URL's page of shifts start loading with the navigation. */
export function prefetchShifts(queryClient: QueryClient, raw: unknown): void {
  void queryClient.ensureQueryData(shiftQueries.current()).catch(() => undefined);
  const search = readShiftsSearch(raw);
  if (!canSendDays(search.from ?? '', search.to ?? '')) return;
  void queryClient
    .ensureQueryData(shiftQueries.list({ page: search.page, pageSize: search.pageSize, from: search.from, to: search.to }))
    .catch(() => undefined);
}

/** Opening or closing a shift makes the order router's queries stale (the card, the list, the cash report). */
export const invalidateShifts = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.order.pathKey() });
