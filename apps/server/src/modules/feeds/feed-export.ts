import type { FastifyInstance } from 'fastify';
import { ACTIVE_STAY_STATES, addDays, localDate } from '@console/shared';
import type { Deps } from '../../context';
import { icalLine } from './ical-text';

/** How far back the export shows a room's stays (channels keep past dates blocked anyway). */
const EXPORT_PAST_DAYS = 30;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** `20270302` for a hotel date `2027-03-02`. */
const icalDate = (date: string) => date.replaceAll('-', '');
/** `20270301T120000Z`: an instant in UTC. */
const icalInstant = (at: Date) =>
  at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');

/**
 * A room's bookings as an RFC 5545 calendar: one all-day event per active stay (reserved, in house,
 * expired) from its arrival date to its departure date (exclusive, the channels' convention for
 * nights), "Booked" and nothing of the guest, so a channel importing it blocks those dates and
 * learns nothing else. Written line by line (ical-text.ts): every TEXT value escaped, every line
 * folded at 75 octets, so the room's name is one value whatever it holds (issue 27 §9).
 */
export function roomCalendar(
  stays: { id: number; checkInAt: Date; expectedCheckOutAt: Date; updatedAt: Date }[],
  timeZone: string,
  roomName: string,
  now = new Date(),
): string {
  const lines = [
    'BEGIN:VCALENDAR',
    icalLine('PRODID', '-//smart-lock-console//calendar export//EN'),
    'VERSION:2.0',
    'CALSCALE:GREGORIAN',
    icalLine('X-WR-CALNAME', roomName),
  ];
  const stamp = icalInstant(now);
  for (const stay of stays) {
    const from = localDate(stay.checkInAt, timeZone);
    let until = localDate(stay.expectedCheckOutAt, timeZone);
    if (until <= from) until = addDays(from, 1);
    lines.push(
      'BEGIN:VEVENT',
      icalLine('UID', `stay-${stay.id}@smart-lock-console`),
      icalLine('DTSTAMP', stamp, { raw: true }),
      icalLine('LAST-MODIFIED', icalInstant(stay.updatedAt), { raw: true }),
      icalLine('DTSTART;VALUE=DATE', icalDate(from), { raw: true }),
      icalLine('DTEND;VALUE=DATE', icalDate(until), { raw: true }),
      icalLine('SUMMARY', 'Booked'),
      'TRANSP:OPAQUE',
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  // RFC 5545 §3.1: every line ends with CRLF.
  return `${lines.join('\r\n')}\r\n`;
}

/** `GET /calendar/<token>.ics`: public (the token is the secret); an unknown or replaced token is 404. */
export function registerCalendarExport(app: FastifyInstance, deps: Deps) {
  app.get('/calendar/:file', async (req, reply) => {
    const file = (req.params as { file: string }).file;
    const token = file.endsWith('.ics') ? file.slice(0, -4) : '';
    const found = TOKEN.test(token)
      ? await deps.prisma.roomCalendarExport.findUnique({
          where: { token },
          select: { roomId: true, hotelId: true, room: { select: { name: true, deletedAt: true, hotel: { select: { timeZone: true } } } } },
        })
      : null;
    if (!found || found.room.deletedAt) return reply.code(404).header('cache-control', 'no-store').send('Not found');
    const now = new Date();
    const stays = await deps.prisma.stay.findMany({
      where: {
        hotelId: found.hotelId,
        roomId: found.roomId,
        status: { in: [...ACTIVE_STAY_STATES] },
        expectedCheckOutAt: { gt: new Date(now.getTime() - EXPORT_PAST_DAYS * 86_400_000) },
      },
      orderBy: { checkInAt: 'asc' },
      select: { id: true, checkInAt: true, expectedCheckOutAt: true, updatedAt: true },
      take: 5_000,
    });
    return reply
      .header('content-type', 'text/calendar; charset=utf-8')
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .send(roomCalendar(stays, found.room.hotel.timeZone, found.room.name, now));
  });
}
