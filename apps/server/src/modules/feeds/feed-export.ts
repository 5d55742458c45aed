import type { FastifyInstance } from 'fastify';
import ICAL from 'ical.js';
import { ACTIVE_STAY_STATES, localDate } from '@console/shared';
import type { Deps } from '../../context';

/** How far back the export shows a room's stays (channels keep past dates blocked anyway). */
const EXPORT_PAST_DAYS = 30;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * A room's bookings as an RFC 5545 calendar (written with ical.js): one all-day event per active
 * stay (reserved, in house, expired) from its arrival date to its departure date (exclusive, the
 * channels' convention for nights), "Booked" and nothing of the guest, so a channel importing it
 * blocks those dates and learns nothing else.
 */
export function roomCalendar(
  stays: { id: number; checkInAt: Date; expectedCheckOutAt: Date; updatedAt: Date }[],
  timeZone: string,
  roomName: string,
  now = new Date(),
): string {
  const cal = new ICAL.Component(['vcalendar', [], []]);
  cal.updatePropertyWithValue('prodid', '-//smart-lock-console//calendar export//EN');
  cal.updatePropertyWithValue('version', '2.0');
  cal.updatePropertyWithValue('calscale', 'GREGORIAN');
  cal.updatePropertyWithValue('x-wr-calname', roomName);
  const stamp = ICAL.Time.fromJSDate(now, true);
  for (const stay of stays) {
    const from = localDate(stay.checkInAt, timeZone);
    let until = localDate(stay.expectedCheckOutAt, timeZone);
    if (until <= from) until = ICAL.Time.fromDateString(from).adjust(1, 0, 0, 0).toString().slice(0, 10);
    const event = new ICAL.Component('vevent');
    event.updatePropertyWithValue('uid', `stay-${stay.id}@smart-lock-console`);
    event.updatePropertyWithValue('dtstamp', stamp);
    event.updatePropertyWithValue('last-modified', ICAL.Time.fromJSDate(stay.updatedAt, true));
    event.updatePropertyWithValue('dtstart', ICAL.Time.fromDateString(from));
    event.updatePropertyWithValue('dtend', ICAL.Time.fromDateString(until));
    event.updatePropertyWithValue('summary', 'Booked');
    event.updatePropertyWithValue('transp', 'OPAQUE');
    cal.addSubcomponent(event);
  }
  // RFC 5545 §3.1: lines end with CRLF.
  return cal.toString().replace(/\r?\n/g, '\r\n') + '\r\n';
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
