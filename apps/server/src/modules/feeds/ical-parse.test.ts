import { describe, expect, it } from 'vitest';
import { parseFeed } from './ical-parse';

const hotel = { timeZone: 'Asia/Shanghai', checkInTime: '14:00', checkOutTime: '12:00' };

function calendar(...eventLines: string[][]): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN'];
  for (const [i, extra] of eventLines.entries()) {
    lines.push('BEGIN:VEVENT', `UID:e${i}@test`, 'DTSTART:20261201T060000Z', 'DTEND:20261203T040000Z', 'SUMMARY:Reserved', ...extra, 'END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return `${lines.join('\r\n')}\r\n`;
}

describe('the guest e-mail a channel event carries', () => {
  it('is read from an ATTENDEE mailto or an "Email:" line of the description, and only when it is an address', () => {
    const events = parseFeed(
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
    );
    expect(events.map((e) => e.email)).toEqual(['nora.quinn@example.com', 'lin.xiaoyu@example.cn', 'salma@example.sa', null, null, null, null, null]);
    expect(events[1]!.phone).toBe('+8613700001234');
    expect(events[0]!.checkInAt.toISOString()).toBe('2026-12-01T06:00:00.000Z');
  });
});
