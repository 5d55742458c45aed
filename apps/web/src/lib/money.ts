import { fromMinor, minorDigits, toMinor } from '@console/shared';
import { numberFormat } from './format';

/**
 * Money in the console: the API speaks integers in minor units (fen, cents); people read and
 * type major units in the hotel's currency.
 */
export function formatMoney(minor: number | null | undefined, currency: string): string {
  if (minor === null || minor === undefined) return '—';
  return numberFormat({ style: 'currency', currency, minimumFractionDigits: minorDigits(currency) }).format(fromMinor(minor, currency));
}

/** The text to put in a money input for an amount in minor units. */
export function moneyInputValue(minor: number | null | undefined, currency: string): string {
  if (minor === null || minor === undefined) return '';
  return fromMinor(minor, currency).toFixed(minorDigits(currency));
}

/** What a money input holds, in minor units: undefined when empty, NaN when not an amount. */
export function parseMoneyInput(text: string, currency: string): number | undefined {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return undefined;
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return Number.NaN;
  return toMinor(Number(trimmed), currency) ?? Number.NaN;
}
