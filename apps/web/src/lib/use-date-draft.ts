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
