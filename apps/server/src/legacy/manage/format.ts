/** One formatter per time zone: building an Intl.DateTimeFormat costs far more than using it. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('sv-SE', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Legacy clients show times as `YYYY-MM-DD HH:mm:ss` in the hotel's time zone. */
export function legacyTime(value: string | Date | null, timeZone: string): string | null {
  if (value === null) return null;
  return formatterFor(timeZone).format(typeof value === 'string' ? new Date(value) : value);
}
