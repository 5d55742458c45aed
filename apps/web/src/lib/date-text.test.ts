import { describe, expect, it } from 'vitest';
import { parseTypedDate, parseTypedTime, typedText, valueOfText } from './date-text';

describe('a date-time typed into the console', () => {
  it('reads the format the field shows, space included, and a T', () => {
    expect(parseTypedDate('2026-11-26 12:00', true)).toBe('2026-11-26T12:00');
    expect(parseTypedDate('2026-11-26T12:00', true)).toBe('2026-11-26T12:00');
    expect(parseTypedDate('2026-11-26t12:00', true)).toBe('2026-11-26T12:00');
    expect(parseTypedDate('  2026-11-26   12:00  ', true)).toBe('2026-11-26T12:00');
    expect(parseTypedDate('2026-11-26\t12:00', true)).toBe('2026-11-26T12:00');
  });

  it('reads one-digit months, days and hours, slashes and dots, and the Chinese way of writing a date', () => {
    expect(parseTypedDate('2026-1-5 9:05', true)).toBe('2026-01-05T09:05');
    expect(parseTypedDate('2026/11/26 12:00', true)).toBe('2026-11-26T12:00');
    expect(parseTypedDate('2026.11.26 08:30', true)).toBe('2026-11-26T08:30');
    expect(parseTypedDate('2026年11月26日 12:00', true)).toBe('2026-11-26T12:00');
    expect(parseTypedDate('2026年11月26日12:00', true)).toBe('2026-11-26T12:00');
    expect(parseTypedDate('2026年1月5日', false)).toBe('2026-01-05');
  });

  it('reads the full-width text of a Chinese or Japanese input method and Arabic-Indic digits', () => {
    expect(parseTypedDate('２０２６－１１－２６　１２：００', true)).toBe('2026-11-26T12:00');
    expect(parseTypedDate('٢٠٢٦-١١-٢٦ ١٢:٠٠', true)).toBe('2026-11-26T12:00');
    expect(parseTypedDate('۲۰۲۶-۱۱-۲۶', false)).toBe('2026-11-26');
  });

  it('never guesses: two-digit years, day or month first, missing or extra parts, days and hours that do not exist', () => {
    for (const text of [
      '26-11-26 12:00',
      '26/11/2026 12:00',
      '03/04/2026 12:00',
      'Nov 26 2026 12:00',
      '2026-11-26',
      '2026-11-26 12',
      '2026-11-26 12:0',
      '2026-11-26 12:00:00',
      '2026-11-26 24:00',
      '2026-11-26 12:60',
      '2026-02-30 12:00',
      '2026-13-01 12:00',
      '2026-11/26 12:00',
      '2026-11-2612:00',
      '1899-12-31 12:00',
      '2026-11-26 12:00 pm',
      '',
      '   ',
      '\u0000',
      '\ud800',
      '1e308',
      '%',
    ]) {
      expect(parseTypedDate(text, true), text).toBeUndefined();
    }
    expect(parseTypedDate('2026-11-26 12:00', false)).toBeUndefined();
    expect(parseTypedDate('2026-02-29', false)).toBeUndefined();
    expect(parseTypedDate('2028-02-29', false)).toBe('2028-02-29');
  });

  it('reads a partial date only once it is left: 2026-11-2 is on its way to 2026-11-26', () => {
    expect(parseTypedDate('2026-11-2', false, { typing: true })).toBeUndefined();
    expect(parseTypedDate('2026-11-2', false)).toBe('2026-11-02');
    expect(parseTypedDate('2026-11-26', false, { typing: true })).toBe('2026-11-26');
    expect(parseTypedDate('2026-11', false)).toBeUndefined();
    expect(parseTypedDate('2026-11-26 1', true, { typing: true })).toBeUndefined();
  });

  it('gives the form the value, blank as blank, and text that is not a time as it is (the form then says so)', () => {
    expect(valueOfText('2026-11-26 12:00', true)).toBe('2026-11-26T12:00');
    expect(valueOfText('  ', true)).toBe('');
    expect(valueOfText('2026-11-26 12', true)).toBe('2026-11-26 12');
    expect(valueOfText('2026-11-26 ', true)).toBe('2026-11-26 ');
    expect(valueOfText('2026-11-2', false, { typing: true })).toBe('2026-11-2');
    expect(valueOfText('2026-11-2', false)).toBe('2026-11-02');
  });

  it('shows a value as the placeholder writes it', () => {
    expect(typedText('2026-11-26T12:00')).toBe('2026-11-26 12:00');
    expect(typedText('2026-11-26')).toBe('2026-11-26');
    expect(typedText('2026-11-26 1')).toBe('2026-11-26 1');
    expect(typedText('')).toBe('');
  });

  it('reads a time of day the same way', () => {
    expect(parseTypedTime('9:30')).toBe('09:30');
    expect(parseTypedTime(' 14:00 ')).toBe('14:00');
    expect(parseTypedTime('１２：００')).toBe('12:00');
    expect(parseTypedTime('٠٩:٣٠')).toBe('09:30');
    for (const text of ['24:00', '12:60', '12', '1200', '12:0', '12:00:00', '', 'noon']) expect(parseTypedTime(text), text).toBeUndefined();
  });
});
