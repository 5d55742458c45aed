import { keepPreviousData, type QueryClient } from '@tanstack/react-query';
import type { TReportFileFormat } from '@console/shared';
import { todayInHotel } from '@/lib/hotel-time';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import type { SearchOf } from '@/lib/url-search';
import { readUserInfo } from '@/lib/user-info';
import { canSendDay, periodRange, type ReportPeriod } from './period';
import { reportsSearchSchema } from './reports-search';

/**
 * The reports' api (issue 26 §2, docs/reports.md): a day's report (frozen once closed) and a range
 * of days with its sums, the day close, and the file of a range. Every ledger, stay or close event
 * invalidates the `order` router (lib/live-events.ts): an open day's figures follow without a reload.
 */
export const reportQueries = {
  day: (date: string, enabled = true) =>
    trpc.order.dayReport.queryOptions({ date }, { placeholderData: keepPreviousData, enabled, meta: { showsErrors: true } }),
  range: (from: string, to: string, enabled = true) =>
    trpc.order.reportRange.queryOptions({ from, to }, { placeholderData: keepPreviousData, enabled, meta: { showsErrors: true } }),
  /** What the night audit finds before a day's close (the close's dialog). */
  auditChecks: (date: string) => trpc.order.auditChecks.queryOptions({ date }),
};

export type DayReport = RouterOutputs['order']['dayReport'];
export type ReportRange = RouterOutputs['order']['reportRange'];
export type DayFigures = ReportRange['total'];
export type ReportsSearch = SearchOf<typeof reportsSearchSchema>;

/** The period and day as the URL holds them (read by the page and its loader, not by the route). */
export function readReportsSearch(raw: unknown): ReportsSearch {
  const result = reportsSearchSchema['~standard'].validate(raw);
  return 'value' in result ? result.value : readReportsSearch({});
}

/** Where the browser downloads a range's report as .xlsx or .csv, headed in the console's language. */
export function reportFileUrl(from: string, to: string, format: TReportFileFormat, lang: string): string {
  return `/api/reports/export?${new URLSearchParams({ from, to, format, lang }).toString()}`;
}

/** The reports route's loader: the URL's report starts loading with the navigation. */
export function prefetchReports(queryClient: QueryClient, raw: unknown): void {
  const search = readReportsSearch(raw);
  const date = search.date ?? todayInHotel(readUserInfo()?.hotel.timeZone ?? 'UTC');
  if (!canSendDay(date)) return;
  const load = (period: ReportPeriod) => {
    if (period === 'day') return queryClient.ensureQueryData(reportQueries.day(date));
    const { from, to } = periodRange(period, date);
    return queryClient.ensureQueryData(reportQueries.range(from, to));
  };
  void load(search.period).catch(() => undefined);
}

/** A day closed makes the order router's queries stale (the day, its weeks and months). */
export const invalidateReports = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.order.pathKey() });
