import { keepPreviousData, type QueryClient } from '@tanstack/react-query';
import { isLocalDate, type TLedgerAccount, type TMoneyMethod } from '@console/shared';
import { todayInHotel } from '@/lib/hotel-time';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import type { SearchOf } from '@/lib/url-search';
import { readUserInfo } from '@/lib/user-info';
import { trialBalanceSearchSchema } from './trial-balance-search';

/**
 * The journal's api (issue 36, docs/journal.md): a business date's trial balance, its drill-down to
 * the day's lines of one account, and the hotel's chart-of-accounts codes (the mutation is
 * `trpc.order.setAccountCodes`). Every ledger event invalidates the `order` router, and a change of
 * the codes (`hotel.changed`) too (lib/live-events.ts): an open day follows without a reload.
 */
export const LINES_PAGE_SIZE = 20;

export const journalQueries = {
  trialBalance: (date: string, enabled = true) =>
    trpc.order.trialBalance.queryOptions({ date }, { placeholderData: keepPreviousData, enabled, meta: { showsErrors: true } }),
  lines: (input: LinesInput, enabled = true) =>
    trpc.order.journalLines.queryOptions(
      { ...input, shiftId: input.shift === undefined ? undefined : input.shift === 'none' ? null : input.shift, pageSize: LINES_PAGE_SIZE },
      { placeholderData: keepPreviousData, enabled, meta: { showsErrors: true } },
    ),
  codes: () => trpc.order.accountCodes.queryOptions(undefined, { meta: { showsErrors: true } }),
};

export type TrialBalance = RouterOutputs['order']['trialBalance'];
export type JournalLines = RouterOutputs['order']['journalLines'];
export type TrialBalanceSearch = SearchOf<typeof trialBalanceSearchSchema>;

/** A row of the trial balance the page drills down to: an account, or a way of paying of the money account, or one of its shifts (`none`: its lines of no shift). */
export interface Selection {
  account: TLedgerAccount;
  method?: TMoneyMethod;
  shift?: number | 'none';
}
type LinesInput = Selection & { date: string; page: number };

/** The day and the drill-down as the URL holds them (read by the page and its loader, not by the route). */
export function readTrialBalanceSearch(raw: unknown): TrialBalanceSearch {
  const result = trialBalanceSearchSchema['~standard'].validate(raw);
  return 'value' in result ? result.value : readTrialBalanceSearch({});
}

/** The URL's drill-down, when it names one the server takes (a way or a shift: the money account's only). */
export function selectionOf(search: TrialBalanceSearch): Selection | null {
  if (!search.account) return null;
  if (search.account !== 'money') return { account: search.account };
  const shift = search.shift === undefined ? undefined : search.shift === 'none' ? 'none' : Number(search.shift);
  return { account: 'money', method: search.method, shift: search.method ? shift : undefined };
}

/** The trial balance route's loader: the URL's day (and its drill-down) start loading with the navigation. */
export function prefetchTrialBalance(queryClient: QueryClient, raw: unknown): void {
  const search = readTrialBalanceSearch(raw);
  const date = search.date ?? todayInHotel(readUserInfo()?.hotel.timeZone ?? 'UTC');
  if (!isLocalDate(date)) return;
  void queryClient.ensureQueryData(journalQueries.trialBalance(date)).catch(() => undefined);
  const selection = selectionOf(search);
  if (selection) void queryClient.ensureQueryData(journalQueries.lines({ ...selection, date, page: search.page })).catch(() => undefined);
}

/** The codes saved: the order router's queries are stale (the codes, and the trial balance's). */
export const invalidateJournal = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.order.pathKey() });
