import { useState } from 'react';
import { isLocalDate } from '@console/shared';

/**
 * A day filter kept in the URL (`YYYY-MM-DD` or absent) and typed into the date field: the field's
 * value is the draft (what it gave last, a day or text that is not one yet), the URL takes only a
 * whole day or nothing. A text that is not a day stays in the field, for the page to say so
 * (`isLocalDate(draft)` is false), and the list keeps the last day it had. Another day in the URL
 * (a quick range, filters cleared, the back button) replaces the draft.
 */
export function useDateDraft(value: string | undefined, commit: (value: string | undefined) => void): [string, (next: string) => void] {
  const [draft, setDraft] = useState(value ?? '');
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setDraft(value ?? '');
  }
  const change = (next: string) => {
    setDraft(next);
    if (next === '') commit(undefined);
    else if (isLocalDate(next) && next !== value) commit(next);
  };
  return [draft, change];
}

/** Why a period of two days as typed cannot be asked for: a text that is not a day, or an end before its start; null when it can. */
export function periodErrorOf(from: string, to: string): 'validation.dateInvalid' | 'validation.endAfterStart' | null {
  if ([from, to].some((date) => date !== '' && !isLocalDate(date))) return 'validation.dateInvalid';
  return !from || !to || from <= to ? null : 'validation.endAfterStart';
}

/**
 * A list's period filter kept in the URL: the "From" and "To" days as typed (each a `useDateDraft`),
 * `commit` taking the day that reaches the URL, and why the period cannot be asked for (said under
 * the fields; the list waits for a period it can send).
 */
export function usePeriodDraft(period: { from?: string; to?: string }, commit: (patch: { from?: string } | { to?: string }) => void) {
  const [from, setFrom] = useDateDraft(period.from, (value) => commit({ from: value }));
  const [to, setTo] = useDateDraft(period.to, (value) => commit({ to: value }));
  return { from, setFrom, to, setTo, periodError: periodErrorOf(from, to) };
}
