import { z } from 'zod';
import { LIMITS } from './limits';
import { UNPAIRED_SURROGATE, ZPage, zPageSize } from './primitives';

/**
 * Data export (issue 9 §5, spec §1 "current page, page size, export name"): a list of the console
 * written to .xlsx (or .csv) by a background job. Each name is an entry of the server's export
 * registry (apps/server/src/modules/export/lists.ts), which reads the list through its own service.
 * `trialBalance` and `generalLedger` are the journal's (docs/journal.md): a day's trial balance,
 * and the journal lines of a range of days under the hotel's chart-of-accounts codes.
 */
export const EXPORT_LISTS = [
  'rooms',
  'stays',
  'guests',
  'customers',
  'passwords',
  'unlockRecords',
  'auditLog',
  'orders',
  'trialBalance',
  'generalLedger',
] as const;
export type TExportList = (typeof EXPORT_LISTS)[number];

/** The files an export is written as: a workbook, or comma-separated text (UTF-8 with a byte order mark, CRLF, RFC 4180). */
export const EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export type TExportFormat = (typeof EXPORT_FORMATS)[number];

/** What is exported: the page being shown, or every row that matches the list's filters. */
export const EXPORT_SCOPES = ['page', 'all'] as const;
export type TExportScope = (typeof EXPORT_SCOPES)[number];

export const EXPORT_LIMITS = {
  /** The longest file name (without `.xlsx` or `.csv`), in characters. */
  fileNameMax: 100,
  /** Rows of an export of everything, at most. */
  rowsMax: 500_000,
  /** How long a finished file can be downloaded. */
  keepMs: 60 * 60 * 1000,
  /** How many of an operator's recent exports `export.list` shows. */
  recentMax: 20,
} as const;

/**
 * A file name an operator may give: unpaired surrogates, characters that are not allowed in file names on Windows,
 * macOS or Linux, control characters, and leading or trailing dots and spaces are removed; an
 * ending `.xlsx` or `.csv` is dropped (the server adds the format's). Empty when nothing usable is left.
 */
export function sanitizeExportFileName(raw: string): string {
  const cleaned = raw
    .replace(new RegExp(UNPAIRED_SURROGATE.source, 'g'), ' ')
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, ' ')
    .replace(/\.(xlsx|csv)$/i, '')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  return [...cleaned].slice(0, EXPORT_LIMITS.fileNameMax).join('').trim();
}

export const ZExportStartInput = z.object({
  list: z.enum(EXPORT_LISTS, { error: 'validation.invalid' }),
  /** The list's own filters, exactly as its list procedure takes them (page and page size aside): each one a plain value or a list of words. */
  filters: z
    .record(z.string().max(40), z.union([z.string(), z.number(), z.boolean(), z.array(z.string().max(40)).max(20)]), { error: 'validation.invalid' })
    .default({}),
  scope: z.enum(EXPORT_SCOPES, { error: 'validation.invalid' }).default('page'),
  format: z.enum(EXPORT_FORMATS, { error: 'validation.invalid' }).default('xlsx'),
  page: ZPage,
  pageSize: zPageSize(LIMITS.pageSizeDefault),
  fileName: z
    .string({ error: 'validation.textInvalid' })
    .max(EXPORT_LIMITS.fileNameMax * 2, { error: 'validation.textTooLong' })
    .optional(),
});
export type TExportStartInput = z.input<typeof ZExportStartInput>;

export const ZExportIdInput = z.object({
  id: z.string({ error: 'validation.invalid' }).regex(/^exp-[0-9a-f-]{36}$/, { error: 'validation.invalid' }),
});

export type TExportState = 'waiting' | 'running' | 'done' | 'failed' | 'expired';
