import { fromMinor, minorDigits, toMinor } from '@console/shared';
import { numberFormat } from './format';

/**
 * Money in the console: the API speaks integers in minor units (fen, cents); people read and
 * type major units in the hotel's currency. `narrow` writes the shortest symbol ("¥" for "CN¥"),
 * for places as tight as a phone's tile. In a right-to-left page the currency symbol is isolated
 * (U+2066…U+2069): "CN¥" next to Arabic text would otherwise be reordered to "¥CN".
 */
export function formatMoney(minor: number | null | undefined, currency: string, options: { narrow?: boolean } = {}): string {
  if (minor === null || minor === undefined) return '—';
  const format = numberFormat({
    style: 'currency',
    currency,
    minimumFractionDigits: minorDigits(currency),
    ...(options.narrow ? { currencyDisplay: 'narrowSymbol' } : {}),
  });
  const amount = fromMinor(minor, currency);
  if (typeof document === 'undefined' || document.documentElement.dir !== 'rtl') return format.format(amount);
  return format
    .formatToParts(amount)
    .map((part) => (part.type === 'currency' ? `\u2066${part.value}\u2069` : part.value))
    .join('');
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
