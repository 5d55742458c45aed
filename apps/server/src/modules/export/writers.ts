import fs from 'node:fs';
import { once } from 'node:events';
import ExcelJS from 'exceljs';
import { fromMinor, minorDigits } from '@console/shared';
import type { TExportFormat } from '@console/shared/export';
import type { Actor } from '../../context';
import { amountCell, amountFormat, csvField, DATE_TIME_FORMAT, textCell, zonedCell } from './cells';
import type { CellScope, ExportColumn } from './lists';

/**
 * The file an export job writes its rows into (export.service.ts): an .xlsx workbook streamed to
 * disk, or a .csv (UTF-8 with a byte order mark, so spreadsheets read it as UTF-8; CRLF; RFC 4180
 * quoting; text a spreadsheet would run as a formula escaped; amounts in the currency's unit with
 * its decimals, never grouped; times in the hotel's time zone as `YYYY-MM-DD HH:mm:ss`). The same
 * columns and headers for both, in the operator's language.
 */
export interface ExportFile {
  write(row: unknown): void;
  /** Waits until what was written so far has left the memory (between chunks of rows). */
  drained(): Promise<void>;
  finish(): Promise<void>;
  /** Lets go of the file of an export that failed (the staged file is discarded then). */
  abandon(): void;
}

export const FILE_TYPES: Record<TExportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
};

interface FileSpec {
  format: TExportFormat;
  path: string;
  /** The worksheet's name (already translated). */
  title: string;
  columns: ExportColumn<unknown>[];
  scope: CellScope;
  actor: Actor;
  rightToLeft: boolean;
}

/** A worksheet's name: at most 31 characters, none of `[]:*?/\`. */
function sheetName(text: string): string {
  return [...text.replace(/[[\]:*?/\\]/g, ' ').trim()].slice(0, 31).join('') || 'Sheet1';
}

const headerOf = (c: ExportColumn<unknown>, scope: CellScope, currency: string) =>
  c.kind === 'money' ? `${scope.t(c.header)} (${currency})` : scope.t(c.header);

export function openExportFile(spec: FileSpec): ExportFile {
  return spec.format === 'csv' ? csvFile(spec) : xlsxFile(spec);
}

function xlsxFile({ path, title, columns, scope, actor, rightToLeft }: FileSpec): ExportFile {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useStyles: true, useSharedStrings: false });
  workbook.creator = 'smart-lock-console';
  const sheet = workbook.addWorksheet(sheetName(title), { views: [{ state: 'frozen', ySplit: 1, rightToLeft }] });
  sheet.columns = columns.map((c, i) => ({ header: headerOf(c, scope, actor.currency), key: String(i), width: c.width ?? (c.kind === 'time' ? 20 : 14) }));
  sheet.getRow(1).font = { bold: true };
  const moneyFormat = amountFormat(actor.currency);
  return {
    write(row) {
      const written = sheet.addRow(columns.map((c) => xlsxValue(c, row, scope, actor)));
      columns.forEach((c, i) => {
        if (c.kind === 'time') written.getCell(i + 1).numFmt = DATE_TIME_FORMAT;
        else if (c.kind === 'money') written.getCell(i + 1).numFmt = moneyFormat;
      });
      written.commit();
    },
    drained: async () => undefined,
    async finish() {
      sheet.commit();
      await workbook.commit();
    },
    abandon: () => undefined,
  };
}

function xlsxValue(column: ExportColumn<unknown>, row: unknown, scope: CellScope, actor: Actor): string | number | Date | null {
  const value = column.value(row, scope);
  switch (column.kind) {
    case 'time':
      return typeof value === 'string' ? zonedCell(value, actor.timeZone) : null;
    case 'money':
      return typeof value === 'number' ? amountCell(value, actor.currency) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    default:
      return textCell(value);
  }
}

function csvFile({ path, columns, scope, actor }: FileSpec): ExportFile {
  const stream = fs.createWriteStream(path, { encoding: 'utf8' });
  const failed = new Promise<never>((_, reject) => stream.once('error', reject));
  failed.catch(() => undefined);
  const line = (cells: (string | number | null)[]) => stream.write(`${cells.map(csvField).join(',')}\r\n`);
  stream.write('\ufeff');
  line(columns.map((c) => headerOf(c, scope, actor.currency)));
  const digits = minorDigits(actor.currency);
  return {
    write(row) {
      line(columns.map((c) => csvValue(c, row, scope, actor, digits)));
    },
    async drained() {
      if (stream.writableNeedDrain) await Promise.race([once(stream, 'drain'), failed]);
    },
    async finish() {
      stream.end();
      await Promise.race([once(stream, 'finish'), failed]);
    },
    abandon: () => void stream.destroy(),
  };
}

function csvValue(column: ExportColumn<unknown>, row: unknown, scope: CellScope, actor: Actor, digits: number): string | number | null {
  const value = column.value(row, scope);
  switch (column.kind) {
    case 'time': {
      const wall = typeof value === 'string' ? zonedCell(value, actor.timeZone) : null;
      return wall ? wall.toISOString().slice(0, 19).replace('T', ' ') : null;
    }
    case 'money':
      return typeof value === 'number' ? fromMinor(value, actor.currency).toFixed(digits) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    default:
      return value === null || value === undefined || value === '' ? null : String(value);
  }
}
