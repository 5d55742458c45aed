/** Legacy clients show times as `YYYY-MM-DD HH:mm:ss` in the hotel's time zone. */
export function legacyTime(value: string | Date | null, timeZone: string): string | null {
  if (value === null) return null;
  const date = typeof value === 'string' ? new Date(value) : value;
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(date);
}
