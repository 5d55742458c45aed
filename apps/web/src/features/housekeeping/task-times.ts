/**
 * A housekeeping task's times as the board and the attendant's phone show them (issue 28 §2,
 * docs/housekeeping-keys.md): "Entered 10:02 · Done 10:31". `enteredAt` is the first opening of the
 * room's lock by the code the rota gave the task's attendant (the server's `enteredAtOfTasks`), in
 * the hotel's time zone; a task started but never opened by that code says "Not entered yet" (the
 * attendant may have come in behind someone else). Nothing is shown for a task not begun.
 */
type Translate = (key: string, params?: Record<string, string>) => string;

interface TaskTimes {
  enteredAt: string | null;
  doneAt: string | null;
  startedAt?: string | null;
}

const timeFormats = new Map<string, Intl.DateTimeFormat>();
/** A moment as the hotel's clock shows it (HH:mm), in the interface's language. */
export function hotelTime(iso: string, timeZone: string, locale: string): string {
  const key = `${locale}|${timeZone}`;
  let format = timeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone });
    timeFormats.set(key, format);
  }
  return format.format(new Date(iso));
}

/** The parts to show, in order (joined by the page with a middle dot, or one per line on a phone). */
export function taskTimesText(task: TaskTimes, timeZone: string, locale: string, t: Translate): string[] {
  const parts: string[] = [];
  if (task.enteredAt) parts.push(t('housekeepingKeys.entered', { time: hotelTime(task.enteredAt, timeZone, locale) }));
  else if (task.startedAt || task.doneAt) parts.push(t('housekeepingKeys.notEntered'));
  if (task.doneAt) parts.push(t('housekeepingKeys.done', { time: hotelTime(task.doneAt, timeZone, locale) }));
  return parts;
}
