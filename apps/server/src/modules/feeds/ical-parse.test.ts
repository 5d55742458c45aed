import { describe, expect, it } from 'vitest';
import { phoneOf } from './ical-facts';
import { parseFeed } from './ical-parse';

const hotel = { timeZone: 'Asia/Shanghai', checkInTime: '14:00', checkOutTime: '12:00' };
const now = new Date('2026-11-20T00:00:00Z');

function calendar(...eventLines: string[][]): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN'];
  for (const [i, extra] of eventLines.entries()) {
    lines.push('BEGIN:VEVENT', `UID:e${i}@test`, 'DTSTART:20261201T060000Z', 'DTEND:20261203T040000Z', 'SUMMARY:Reserved', ...extra, 'END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return `${lines.join('\r\n')}\r\n`;
}

/** A calendar of whole events (each a list of its lines). */
function raw(...events: string[][]): string {
  return `${['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...events.flatMap((e) => ['BEGIN:VEVENT', ...e, 'END:VEVENT']), 'END:VCALENDAR'].join('\r\n')}\r\n`;
}

describe('the guest e-mail a channel event carries', () => {
  it('is read from an ATTENDEE mailto or an "Email:" line of the description, and only when it is an address', () => {
    const { events } = parseFeed(
      calendar(
        ['ATTENDEE;CN=Nora Quinn;ROLE=REQ-PARTICIPANT:mailto:nora.quinn@example.com', 'DESCRIPTION:Email: other@example.com'],
        ['DESCRIPTION:Guest: Lin\\nPhone: +86 137 0000 1234\\nEmail: lin.xiaoyu@example.cn'],
        ['DESCRIPTION:E-mail address: mailto:salma@example.sa'],
        ['ATTENDEE:https://example.com/nora', 'DESCRIPTION:Email: not-an-address'],
        ['DESCRIPTION:Email: a\u0000b@example.com'],
        ['DESCRIPTION:Email: \ud800x@example.com'],
        [`ATTENDEE:mailto:${'a'.repeat(250)}@example.com`],
        [],
      ),
      hotel,
      now,
    );
    expect(events.map((e) => e.email)).toEqual(['nora.quinn@example.com', 'lin.xiaoyu@example.cn', 'salma@example.sa', null, null, null, null, null]);
    expect(events[1]!.phone).toBe('+8613700001234');
    expect(events[0]!.checkInAt.toISOString()).toBe('2026-12-01T06:00:00.000Z');
  });
});

describe('phone fields of the channels', () => {
  it('reads a whole number as a phone, and last digits only (a label, a mask, too few digits) as a tail', () => {
    expect(phoneOf('Reservation URL: x\nPhone Number (Last 4 Digits): 4821')).toEqual({ phone: null, tail: '4821' });
    expect(phoneOf('Phone Number (Last 4 Digits): 4821\\nEmail: a@b.c')).toEqual({ phone: null, tail: '4821' });
    expect(phoneOf('Guest phone: +1 (415) 555-0134')).toEqual({ phone: '+14155550134', tail: null });
    expect(phoneOf('Telephone: +44 20 7946 0321')).toEqual({ phone: '+442079460321', tail: null });
    expect(phoneOf('Phone: ***-***-4821')).toEqual({ phone: null, tail: '4821' });
    expect(phoneOf('Mobile: •••• 904821')).toEqual({ phone: null, tail: '904821' });
    expect(phoneOf('Phone: 4821')).toEqual({ phone: null, tail: '4821' });
    expect(phoneOf('Phone: 12')).toEqual({ phone: null, tail: null });
    expect(phoneOf('No phone here')).toEqual({ phone: null, tail: null });
  });
});

describe('overrides, duplicates and unreadable events', () => {
  it('an override of a single event replaces it: one booking, at the override dates, whatever the order', () => {
    const master = ['UID:r1@test', 'DTSTART;VALUE=DATE:20261210', 'DTEND;VALUE=DATE:20261212', 'SUMMARY:Reserved'];
    const override = [
      'UID:r1@test',
      'RECURRENCE-ID;VALUE=DATE:20261210',
      'SEQUENCE:1',
      'DTSTART;VALUE=DATE:20261211',
      'DTEND;VALUE=DATE:20261214',
      'SUMMARY:Reserved',
    ];
    for (const text of [raw(master, override), raw(override, master)]) {
      const { events, skipped } = parseFeed(text, hotel, now);
      expect(skipped).toEqual([]);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        uid: 'r1@test',
        recurrenceId: '',
        checkInAt: new Date('2026-12-11T06:00:00Z'),
        checkOutAt: new Date('2026-12-14T04:00:00Z'),
      });
    }
  });

  it('a recurring event gives one booking per instance; an override replaces its instance; EXDATE removes one', () => {
    const text = raw(
      ['UID:w@test', 'DTSTART:20261205T060000Z', 'DTEND:20261206T040000Z', 'RRULE:FREQ=WEEKLY;COUNT=4', 'EXDATE:20261219T060000Z', 'SUMMARY:Reserved'],
      ['UID:w@test', 'RECURRENCE-ID:20261212T060000Z', 'DTSTART:20261213T060000Z', 'DTEND:20261214T040000Z', 'SUMMARY:Reserved'],
    );
    const { events } = parseFeed(text, hotel, now);
    expect(events.map((e) => [e.recurrenceId, e.checkInAt.toISOString()])).toEqual([
      ['20261205T060000Z', '2026-12-05T06:00:00.000Z'],
      ['20261212T060000Z', '2026-12-13T06:00:00.000Z'],
      ['20261226T060000Z', '2026-12-26T06:00:00.000Z'],
    ]);
  });

  it('the same UID twice without RECURRENCE-ID is one booking: the higher SEQUENCE', () => {
    const a = ['UID:d@test', 'SEQUENCE:2', 'DTSTART;VALUE=DATE:20261210', 'DTEND;VALUE=DATE:20261212'];
    const b = ['UID:d@test', 'SEQUENCE:1', 'DTSTART;VALUE=DATE:20261215', 'DTEND;VALUE=DATE:20261216'];
    expect(parseFeed(raw(a, b), hotel, now).events.map((e) => e.checkInAt.toISOString())).toEqual(['2026-12-10T06:00:00.000Z']);
    expect(parseFeed(raw(b, a), hotel, now).events.map((e) => e.checkInAt.toISOString())).toEqual(['2026-12-10T06:00:00.000Z']);
  });

  it('skips and names an unreadable event, reads the others; hostile UIDs stay distinct and storable', () => {
    const long = 'u'.repeat(600);
    const text = raw(
      ['UID:bad@test', 'DTSTART:garbage', 'DTEND:20261203T040000Z'],
      ['UID:nostart@test', 'DTEND:20261203T040000Z'],
      ['UID:back@test', 'DTSTART:20261205T060000Z', 'DTEND:20261203T040000Z'],
      ['UID:rr@test', 'DTSTART:20261205T060000Z', 'DTEND:20261206T040000Z', 'RRULE:FREQ=NOPE'],
      ['UID:good@test', 'DTSTART:20261201T060000Z', 'DTEND:20261203T040000Z'],
      [`UID:${long}`, 'DTSTART:20261201T060000Z', 'DTEND:20261203T040000Z'],
      [`UID:${long}x`, 'DTSTART:20261201T060000Z', 'DTEND:20261203T040000Z'],
      ['UID:a\u0000b\ud800', 'DTSTART:20261201T060000Z', 'DTEND:20261203T040000Z', 'SUMMARY:Na\u0000me\ud800'],
    );
    const { events, skipped } = parseFeed(text, hotel, now);
    expect(skipped.map((s) => [s.uid, s.reason]).sort()).toEqual(
      [
        ['bad@test', 'bad_date'],
        ['nostart@test', 'no_start'],
        ['back@test', 'ends_before_start'],
        ['rr@test', 'unreadable'],
      ].sort(),
    );
    expect(events.map((e) => e.uid.length <= 512)).toEqual([true, true, true, true]);
    expect(new Set(events.map((e) => e.uid)).size).toBe(4);
    const hostile = events.find((e) => e.uid.startsWith('ab'))!;
    expect(hostile.uid.includes('\u0000') || hostile.uid.includes('\ud800')).toBe(false);
    expect(hostile.guestName).toBe('Name\ufffd');
  });
});
