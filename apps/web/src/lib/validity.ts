import { fromInputValue, toInputValue } from './hotel-time';

/**
 * How long a credential sent to a lock (a card number over the air, a face) is valid: for the
 * room's current stay (until its check-out, ended with it) or for a period the desk sets. The
 * choice, its default values and its rules are the same in every dialog that offers it.
 */
export type ValidityMode = 'stay' | 'period';
export const VALIDITY_MODES: readonly ValidityMode[] = ['stay', 'period'];

export interface ValidityValues {
  mode: ValidityMode;
  validFrom: string;
  validUntil: string;
}

/** For the stay when there is one, else a period from now to this time tomorrow (hotel wall clock). */
export function validityDefaults(timeZone: string, hasStay: boolean, now = new Date()): ValidityValues {
  return {
    mode: hasStay ? 'stay' : 'period',
    validFrom: toInputValue(now, timeZone),
    validUntil: toInputValue(new Date(now.getTime() + 24 * 3_600_000), timeZone),
  };
}

/** The period's rules (message keys of `validation.*`), reported through `add(field, key)`; nothing for a stay. */
export function checkValidity(v: ValidityValues, timeZone: string, add: (path: 'validFrom' | 'validUntil', message: string) => void): void {
  if (v.mode === 'stay') return;
  const from = v.validFrom.trim() ? fromInputValue(v.validFrom, timeZone) : undefined;
  const until = v.validUntil.trim() ? fromInputValue(v.validUntil, timeZone) : undefined;
  if (!v.validFrom.trim()) add('validFrom', 'validation.dateTimeRequired');
  else if (!from) add('validFrom', 'validation.dateTimeInvalid');
  if (!v.validUntil.trim()) add('validUntil', 'validation.dateTimeRequired');
  else if (!until) add('validUntil', 'validation.dateTimeInvalid');
  else if (from && Date.parse(until) <= Date.parse(from)) add('validUntil', 'validation.endAfterStart');
}
