import { z } from 'zod';
import { WHEN_FIELDS_VALID, ZLocalDate } from './primitives';

/**
 * The manager's reports (issue 26 §2, docs/reports.md): a hotel calendar day's figures (rooms sold,
 * occupancy, ADR, RevPAR, arrivals, departures, revenue by kind, money by way of paying, bills left
 * owing, deposits held), the day close that freezes them, and a range of days summed.
 */

/** The longest range of days a report sums (a year and a day: a leap year's whole). */
export const REPORT_MAX_DAYS = 366;

export const ZDayReportInput = z.object({ date: ZLocalDate });
export type TDayReportInput = z.input<typeof ZDayReportInput>;

export const ZReportRangeInput = z
  .object({ from: ZLocalDate, to: ZLocalDate })
  .refine((v) => v.from <= v.to, { error: 'validation.endAfterStart', path: ['to'], ...WHEN_FIELDS_VALID })
  .refine((v) => (Date.parse(`${v.to}T00:00:00Z`) - Date.parse(`${v.from}T00:00:00Z`)) / 86_400_000 < REPORT_MAX_DAYS, {
    error: 'reports.validation.rangeTooLong',
    path: ['to'],
    ...WHEN_FIELDS_VALID,
  });
export type TReportRangeInput = z.input<typeof ZReportRangeInput>;

/** The files a range's report downloads as (GET /api/reports/export, docs/reports.md "Export"). */
export const REPORT_FILE_FORMATS = ['xlsx', 'csv'] as const;
export type TReportFileFormat = (typeof REPORT_FILE_FORMATS)[number];
export const ZReportFileInput = z.intersection(ZReportRangeInput, z.object({ format: z.enum(REPORT_FILE_FORMATS) }));
