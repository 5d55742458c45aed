import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { UNPAIRED_SURROGATE } from '@console/shared';
import { roomCalendar } from './feed-export';
import { parseFeed } from './ical-parse';

/**
 * The room's exported calendar (issue 27 §9): a room's name can write no line of its own into it,
 * every TEXT value is escaped (RFC 5545 §3.3.11) and every line folded at 75 octets (§3.1) without
 * cutting a character, so a channel reads the bookings it carries and nothing else.
 */
const ZONE = 'Asia/Shanghai';
const hotel = { timeZone: ZONE, checkInTime: '14:00', checkOutTime: '12:00' };
const NOW = new Date('2027-03-01T00:00:00Z');
const stays = [
  { id: 1, checkInAt: new Date('2027-03-02T06:00:00Z'), expectedCheckOutAt: new Date('2027-03-04T04:00:00Z'), updatedAt: NOW },
  { id: 2, checkInAt: new Date('2027-03-06T06:00:00Z'), expectedCheckOutAt: new Date('2027-03-07T04:00:00Z'), updatedAt: NOW },
];

/** The physical lines of a calendar (CRLF-separated, the last CRLF included). */
function physicalLines(text: string): string[] {
  expect(text.endsWith('\r\n')).toBe(true);
  expect(text.slice(0, -2).split('\r\n').join('')).not.toMatch(/[\r\n]/);
  return text.slice(0, -2).split('\r\n');
}

/** The calendar's name as a reader of TEXT values reads it: ical.js's own parser and its TEXT decoding. */
function calendarName(text: string): string {
  const root = new ICAL.Component(ICAL.parse(text) as unknown[]);
  const raw = root.getFirstProperty('x-wr-calname')!;
  const value = raw.getFirstValue() as string;
  // An x-property is untyped for ical.js: decode it as the TEXT every calendar application takes it for.
  return raw.type === 'text' ? value : (ICAL.design.icalendar.value.text as { fromICAL: (v: string) => string }).fromICAL(value);
}

describe('roomCalendar', () => {
  it('escapes a room name that would write lines into the calendar: one calendar, the bookings all there', () => {
    const text = roomCalendar(stays, ZONE, 'R\nEND:VCALENDAR', NOW);
    const lines = physicalLines(text);
    expect(lines.filter((l) => l === 'END:VCALENDAR')).toHaveLength(1);
    expect(lines.at(-1)).toBe('END:VCALENDAR');
    expect(lines).toContain('X-WR-CALNAME:R\\nEND:VCALENDAR');
    expect(calendarName(text)).toBe('R\nEND:VCALENDAR');
    expect(parseFeed(text, hotel).events.map((e) => e.uid)).toEqual(['stay-1@smart-lock-console', 'stay-2@smart-lock-console']);
  });

  it.each([
    ['a semicolon, a comma, a backslash', 'Suite;1,2\\3', 'Suite\\;1\\,2\\\\3'],
    ['a backslash and an n', 'C:\\new', 'C:\\\\new'],
    ['a carriage return and a line feed', 'A\r\nB', 'A\\nB'],
  ])('escapes %s in the calendar name', (_what, name, written) => {
    const text = roomCalendar(stays, ZONE, name, NOW);
    expect(physicalLines(text)).toContain(`X-WR-CALNAME:${written}`);
    expect(calendarName(text)).toBe(name.replace(/\r\n/g, '\n'));
  });

  // Names long enough to fold, each shifted by 0-3 ASCII characters so that the 75th octet falls on
  // every byte of a 2-, 3- and 4-byte UTF-8 sequence in turn.
  const scripts = {
    Latin: 'Harbour View Suite; Sea Side, Upper Deck \\ Room Nineteen Twenty-One',
    Chinese: '海景大床房;海景大床房,海景大床房海景大床房海景大床房海景大床房',
    Arabic: 'غرفة مطلة على البحر; غرفة مطلة على البحر, غرفة مطلة على البحر',
    emoji: '🏨🌊🛏️🔑;🏨🌊🛏️🔑,🏨🌊🛏️🔑🏨🌊🛏️🔑🏨🌊',
    mixed: 'R;1,\\ 海景 🏨 البحر 🌊 Suite;2,\\ 海景 🏨 البحر 🌊',
  };
  it.each(Object.entries(scripts).flatMap(([script, base]) => [0, 1, 2, 3].map((pad) => [script, pad, `${'x'.repeat(pad)}${base}`] as const)))(
    'folds %s at 75 octets without cutting a character (shifted by %i)',
    (_script, _pad, name) => {
      const text = roomCalendar(stays, ZONE, name, NOW);
      const lines = physicalLines(text);
      for (const line of lines) {
        expect(Buffer.byteLength(line, 'utf8'), line).toBeLessThanOrEqual(75);
        // A line is whole characters: no half of a surrogate pair, so no cut UTF-8 sequence once written.
        expect(UNPAIRED_SURROGATE.test(line), line).toBe(false);
        expect(Buffer.from(line, 'utf8').toString('utf8')).toBe(line);
      }
      // Unfolded (a CRLF followed by a space removed), the name line is the escaped name whole.
      const unfolded = text.replace(/\r\n /g, '');
      expect(unfolded).toContain(`X-WR-CALNAME:${name.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,')}\r\n`);
      expect(calendarName(text)).toBe(name);
      expect(parseFeed(text, hotel).events).toHaveLength(2);
    },
  );
});
