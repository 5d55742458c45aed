import ExcelJS from 'exceljs';
import { fromMinor, minorDigits, ZReportFileInput } from '@console/shared';
import type { TCashLine, TDayFigures, TDayReport } from '@console/shared/dto';
import { sanitizeExportFileName } from '@console/shared/export';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { recordAudit } from '../audit/audit.service';
import { amountCell, amountFormat, csvField } from '../export/cells';
import { reportRange } from './day-report';

/**
 * A range of days' report as a file (issue 26 §2, docs/reports.md "Export"): one row per day and a
 * row of the range's sums, as .xlsx (with a second sheet of money by way of paying) or .csv (UTF-8
 * with a byte order mark, CRLF, RFC 4180 quoting). The same figures as `order.reportRange`, with
 * the same rules (`order.manage` and every room), headed in the operator's language. Small: at most
 * 366 days, so made at once rather than by an export job. Audited, as every export is.
 */

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const CSV_TYPE = 'text/csv; charset=utf-8';

type Cell = string | number | null;
interface Column {
  key: string;
  amount?: boolean;
  value(f: TDayFigures): number;
}

/** The day's figures, in the order of the screen's table. */
const COLUMNS: Column[] = [
  { key: 'available', value: (f) => f.rooms.available },
  { key: 'sold', value: (f) => f.rooms.sold },
  { key: 'occupancy', value: (f) => f.occupancy },
  { key: 'adr', amount: true, value: (f) => f.adr },
  { key: 'revpar', amount: true, value: (f) => f.revpar },
  { key: 'arrivals', value: (f) => f.arrivals },
  { key: 'departures', value: (f) => f.departures },
  { key: 'stayOvers', value: (f) => f.stayOvers },
  { key: 'noShows', value: (f) => f.noShows },
  { key: 'cancellations', value: (f) => f.cancellations },
  { key: 'roomRevenue', amount: true, value: (f) => f.revenue.roomCharges },
  { key: 'otherRevenue', amount: true, value: (f) => f.revenue.charges },
  { key: 'revenue', amount: true, value: (f) => f.revenue.total },
  { key: 'taxes', amount: true, value: (f) => f.revenue.taxes ?? 0 },
  { key: 'received', amount: true, value: (f) => f.received },
  { key: 'refunded', amount: true, value: (f) => f.refunded },
  { key: 'owingCount', value: (f) => f.owing.count },
  { key: 'owingTotal', amount: true, value: (f) => f.owing.total },
  { key: 'depositsHeld', amount: true, value: (f) => f.depositsHeld },
];

const METHOD_COLUMNS = ['deposits', 'payments', 'recharges', 'refunds', 'corrections', 'net'] as const;

interface ReportFile {
  fileName: string;
  type: string;
  body: Buffer;
}

export async function reportFile(ctx: AuthedContext, raw: z.input<typeof ZReportFileInput>): Promise<ReportFile> {
  const { from, to, format } = ZReportFileInput.parse(raw);
  const report = await reportRange(ctx, { from, to });
  const t = (key: string, params?: Record<string, unknown>) => ctx.deps.i18n.t(ctx.meta.lang, key, params);
  const currency = report.currency;
  const name = sanitizeExportFileName(`${t('reports.file.name')} ${from === to ? from : `${from} ${to}`}`) || 'report';
  const header = [t('reports.columns.date'), t('reports.columns.state'), ...COLUMNS.map((c) => t(`reports.columns.${c.key}`, { currency }))];
  const stateOf = (day: TDayReport) => t(day.closed ? 'reports.state.closed' : 'reports.state.open');
  await recordAudit(ctx.deps.prisma, ctx, { action: 'order.reportExport', entityType: 'DayClose', after: { from, to, format } });

  if (format === 'csv') {
    // Amounts in the currency's unit with its decimals, never grouped: a file other programs read.
    const text = (f: TDayFigures, c: Column): string => (c.amount ? fromMinor(c.value(f), currency).toFixed(minorDigits(currency)) : String(c.value(f)));
    const lines: Cell[][] = [
      header,
      ...report.days.map((day) => [day.date, stateOf(day), ...COLUMNS.map((c) => text(day, c))]),
      [t('reports.total'), '', ...COLUMNS.map((c) => text(report.total, c))],
    ];
    const body = `\ufeff${lines.map((line) => line.map(csvField).join(',')).join('\r\n')}\r\n`;
    return { fileName: `${name}.csv`, type: CSV_TYPE, body: Buffer.from(body, 'utf8') };
  }

  const workbook = new ExcelJS.Workbook();
  workbook.created = new Date();
  const rightToLeft = ctx.meta.lang === 'ar';
  const days = workbook.addWorksheet(sheetName(t('reports.file.days')), { views: [{ state: 'frozen', ySplit: 1, xSplit: 1, rightToLeft }] });
  days.addRow(header).font = { bold: true };
  const cells = (f: TDayFigures) => COLUMNS.map((c) => (c.amount ? amountCell(c.value(f), currency) : c.value(f)));
  for (const day of report.days) days.addRow([day.date, stateOf(day), ...cells(day)]);
  days.addRow([t('reports.total'), null, ...cells(report.total)]).font = { bold: true };
  COLUMNS.forEach((c, i) => {
    const column = days.getColumn(i + 3);
    column.width = Math.max(12, header[i + 2]!.length + 2);
    if (c.amount) column.numFmt = amountFormat(currency);
    else if (c.key === 'occupancy') column.numFmt = '0.0';
  });
  days.getColumn(1).width = 12;
  days.getColumn(2).width = 12;

  const money = workbook.addWorksheet(sheetName(t('reports.file.methods')), { views: [{ state: 'frozen', ySplit: 1, rightToLeft }] });
  money.addRow([t('orders.columns.method'), ...METHOD_COLUMNS.map((k) => t(`reports.methods.${k}`, { currency })), t('reports.methods.count')]).font = {
    bold: true,
  };
  for (const line of report.total.methods) money.addRow([t(`orders.methods.${line.method}`), ...methodCells(line, currency), line.count]);
  METHOD_COLUMNS.forEach((_, i) => {
    money.getColumn(i + 2).numFmt = amountFormat(currency);
    money.getColumn(i + 2).width = 16;
  });
  money.getColumn(1).width = 18;
  const body = Buffer.from(await workbook.xlsx.writeBuffer());
  return { fileName: `${name}.xlsx`, type: XLSX_TYPE, body };
}

function methodCells(line: TCashLine, currency: string): (number | null)[] {
  return METHOD_COLUMNS.map((k) => amountCell(line[k], currency));
}

/** A worksheet's name: at most 31 characters, none of `[]:*?/\`. */
function sheetName(name: string): string {
  return [...name.replace(/[[\]:*?/\\]/g, ' ')].slice(0, 31).join('') || 'Sheet';
}
