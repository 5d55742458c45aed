import { describe, expect, it } from 'vitest';
import { sanitizeExportFileName } from '@console/shared/export';
import { amountCell, amountFormat, escapeText, textCell, zonedCell } from './cells';

describe('export cells', () => {
  it('escapes text a spreadsheet would read as a formula, and nothing else', () => {
    for (const text of ['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\t=1', '\r=1']) expect(escapeText(text)).toBe(`'${text}`);
    for (const text of ['A101', '1+1', "'quoted", ' =1', '张三', 'مرحبا']) expect(escapeText(text)).toBe(text);
    expect(textCell(null)).toBeNull();
    expect(textCell('')).toBeNull();
    expect(textCell(-5)).toBe("'-5");
  });

  it('writes times as the hotel wall clock', () => {
    expect(zonedCell('2026-07-04T13:05:09Z', 'America/New_York')!.toISOString()).toBe('2026-07-04T09:05:09.000Z');
    expect(zonedCell('2026-01-04T13:05:09Z', 'America/New_York')!.toISOString()).toBe('2026-01-04T08:05:09.000Z');
    expect(zonedCell('2026-07-04T20:00:00Z', 'Asia/Shanghai')!.toISOString()).toBe('2026-07-05T04:00:00.000Z');
    expect(zonedCell('2026-07-04T23:30:00Z', 'Asia/Kolkata')!.toISOString()).toBe('2026-07-05T05:00:00.000Z');
    expect(zonedCell(null, 'UTC')).toBeNull();
    expect(zonedCell('not a time', 'UTC')).toBeNull();
  });

  it('writes amounts in major units with the currency decimals', () => {
    expect(amountCell(12_345, 'CNY')).toBe(123.45);
    expect(amountCell(12_345, 'JPY')).toBe(12_345);
    expect(amountCell(null, 'CNY')).toBeNull();
    expect(amountFormat('CNY')).toBe('#,##0.00');
    expect(amountFormat('JPY')).toBe('#,##0');
  });

  it('sanitises file names', () => {
    expect(sanitizeExportFileName('Rooms: "all"/today.xlsx')).toBe('Rooms all today');
    expect(sanitizeExportFileName('..\\..\\etc/passwd')).toBe('etc passwd');
    expect(sanitizeExportFileName('  .hidden. ')).toBe('hidden');
    expect(sanitizeExportFileName('a\u0000b\nc')).toBe('a b c');
    expect(sanitizeExportFileName('住客 2026-11-22')).toBe('住客 2026-11-22');
    expect([...sanitizeExportFileName('字'.repeat(300))]).toHaveLength(100);
    expect(sanitizeExportFileName('///')).toBe('');
  });
});
