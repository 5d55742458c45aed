import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HOTEL_DEFAULT_TIMES, STAY_LENGTH_UNITS, localDateTime } from '@console/shared';
import { addToTime, checkInTimeOn, checkOutAfter, isSmallHours, lengthOfStay, walkInTimes, type HotelClock } from './stay-times';

const shanghai: HotelClock = { timeZone: 'Asia/Shanghai', checkInTime: '14:00', checkOutTime: '12:00' };
/** Another zone than the machine's (UTC) and the browser's, and its own times. */
const newYork: HotelClock = { timeZone: 'America/New_York', checkInTime: '15:00', checkOutTime: '11:00' };

describe('the times a check-in proposes', () => {
  it('a walk-in in the afternoon: in now, out at the hotel check-out time the next day', () => {
    // 15:37 in Shanghai.
    expect(walkInTimes(new Date('2026-11-26T07:37:00Z'), shanghai)).toEqual({ checkInAt: '2026-11-26T15:37', expectedCheckOutAt: '2026-11-27T12:00' });
    // Late in the evening: still the next day at 12:00.
    expect(walkInTimes(new Date('2026-11-26T15:50:00Z'), shanghai)).toEqual({ checkInAt: '2026-11-26T23:50', expectedCheckOutAt: '2026-11-27T12:00' });
  });

  it('a walk-in at 01:00 is sold the rest of the night: out at 12:00 the same morning, not a day later', () => {
    // 01:00 on the 26th in Shanghai is still the 25th in UTC (the machine's day).
    expect(walkInTimes(new Date('2026-11-25T17:00:00Z'), shanghai)).toEqual({ checkInAt: '2026-11-26T01:00', expectedCheckOutAt: '2026-11-26T12:00' });
    expect(isSmallHours(new Date('2026-11-25T17:00:00Z'), shanghai)).toBe(true);
    // 05:59 as well; from 06:00 an arrival starts the coming night (an early check-in), and leaves the next day.
    expect(walkInTimes(new Date('2026-11-25T21:59:00Z'), shanghai).expectedCheckOutAt).toBe('2026-11-26T12:00');
    expect(walkInTimes(new Date('2026-11-25T22:00:00Z'), shanghai).expectedCheckOutAt).toBe('2026-11-27T12:00');
    // Just before the check-out time: never a stay of minutes.
    expect(walkInTimes(new Date('2026-11-26T03:30:00Z'), shanghai).expectedCheckOutAt).toBe('2026-11-27T12:00');
  });

  it('uses the hotel zone and its own times, whatever the machine zone', () => {
    // 22:00 on the 25th in New York is the 26th in UTC.
    expect(walkInTimes(new Date('2026-11-26T03:00:00Z'), newYork)).toEqual({ checkInAt: '2026-11-25T22:00', expectedCheckOutAt: '2026-11-26T11:00' });
    // 01:30 on the 26th in New York: out at 11:00 the same morning.
    expect(walkInTimes(new Date('2026-11-26T06:30:00Z'), newYork)).toEqual({ checkInAt: '2026-11-26T01:30', expectedCheckOutAt: '2026-11-26T11:00' });
    // 10:30 in New York, half an hour before its check-out time: the next day.
    expect(walkInTimes(new Date('2026-11-26T15:30:00Z'), newYork).expectedCheckOutAt).toBe('2026-11-27T11:00');
  });

  it('keeps the check-out time across a daylight-saving change', () => {
    // 15:00 EST on 7 March 2026; clocks go forward on the 8th.
    const out = checkOutAfter(new Date('2026-03-07T20:00:00Z'), 1, 'day', newYork);
    expect(localDateTime(out, 'America/New_York')).toBe('2026-03-08T11:00');
    expect(out.toISOString()).toBe('2026-03-08T15:00:00.000Z');
  });

  it('counts further days, months and years from the date of check-in, at the check-out time; hours exactly', () => {
    const checkIn = new Date('2026-11-26T07:37:00Z'); // 15:37 in Shanghai
    const out = (amount: number, unit: (typeof STAY_LENGTH_UNITS)[number]) => localDateTime(checkOutAfter(checkIn, amount, unit, shanghai), 'Asia/Shanghai');
    expect(out(2, 'day')).toBe('2026-11-28T12:00');
    expect(out(1, 'month')).toBe('2026-12-26T12:00');
    expect(out(1, 'year')).toBe('2027-11-26T12:00');
    expect(out(3, 'hour')).toBe('2026-11-26T18:37');
    // The guest of the small hours: two nights are two nights of the price (the 26th and the 27th).
    expect(localDateTime(checkOutAfter(new Date('2026-11-25T17:00:00Z'), 2, 'day', shanghai), 'Asia/Shanghai')).toBe('2026-11-28T12:00');
    expect(localDateTime(checkOutAfter(new Date('2026-11-25T17:00:00Z'), 1, 'month', shanghai), 'Asia/Shanghai')).toBe('2026-12-26T12:00');
  });

  it('never proposes less than the shortest stay (a check-out time just after midnight and a late arrival)', () => {
    const lateNight: HotelClock = { timeZone: 'Asia/Shanghai', checkInTime: '14:00', checkOutTime: '00:30' };
    // 23:45 on the 26th: 00:30 on the 27th would be 45 minutes.
    expect(localDateTime(checkOutAfter(new Date('2026-11-26T15:45:00Z'), 1, 'day', lateNight), 'Asia/Shanghai')).toBe('2026-11-28T00:30');
  });

  it('reads the length back from a check-out as it proposes it (the length field and the check-out agree)', () => {
    for (const hotel of [shanghai, newYork]) {
      for (const now of ['2026-11-26T07:37:00Z', '2026-11-25T17:00:00Z', '2026-11-26T06:30:00Z', '2026-03-07T20:00:00Z']) {
        const checkIn = new Date(now);
        for (const unit of STAY_LENGTH_UNITS) {
          for (const n of [1, 2, 3, 7, 13])
            expect(lengthOfStay(checkIn, checkOutAfter(checkIn, n, unit, hotel), unit, hotel), `${hotel.timeZone} ${now} ${n} ${unit}`).toBe(n);
        }
      }
    }
    // A check-out typed by hand: nights as the price counts them, from the date of check-in.
    expect(lengthOfStay(new Date('2026-11-26T07:37:00Z'), new Date('2026-11-28T02:00:00Z'), 'day', shanghai)).toBe(2);
    expect(lengthOfStay(new Date('2026-11-26T07:37:00Z'), new Date('2026-11-26T06:00:00Z'), 'day', shanghai)).toBe(1);
    // 01:00 on the 26th to 12:00 on the 27th: one night (the 26th), as the quote says; to the 28th, two.
    expect(lengthOfStay(new Date('2026-11-25T17:00:00Z'), new Date('2026-11-27T04:00:00Z'), 'day', shanghai)).toBe(1);
    expect(lengthOfStay(new Date('2026-11-25T17:00:00Z'), new Date('2026-11-28T04:00:00Z'), 'day', shanghai)).toBe(2);
  });

  it('gives a day picked for the check-in the hotel check-in time, and today the time it is now', () => {
    const now = new Date('2026-11-25T17:00:00Z'); // 01:00 on the 26th in Shanghai
    expect(checkInTimeOn('2026-11-26', shanghai, now)).toBe('01:00');
    expect(checkInTimeOn('2026-11-27', shanghai, now)).toBe('14:00');
    expect(checkInTimeOn('2026-11-25', shanghai, now)).toBe('14:00');
    expect(checkInTimeOn('2026-11-25', newYork, now)).toBe('12:00');
    expect(checkInTimeOn('2026-11-26', newYork, now)).toBe('15:00');
  });

  it('falls back to the database defaults of the hotel times', () => {
    const schema = fs.readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../../prisma/schema.prisma'), 'utf8');
    expect(schema).toMatch(new RegExp(`checkInTime\\s+String\\s+@default\\("${HOTEL_DEFAULT_TIMES.checkInTime}"\\)`));
    expect(schema).toMatch(new RegExp(`checkOutTime\\s+String\\s+@default\\("${HOTEL_DEFAULT_TIMES.checkOutTime}"\\)`));
  });
});

describe('the quick "+1" buttons', () => {
  it('add to what the field holds: "+1 day" pressed twice is two days', () => {
    const start = new Date('2026-11-27T04:00:00Z');
    const once = addToTime('2026-11-27T12:00', start, 1, 'day', 'Asia/Shanghai');
    expect(once).toBe('2026-11-28T12:00');
    expect(addToTime(once, start, 1, 'day', 'Asia/Shanghai')).toBe('2026-11-29T12:00');
    expect(addToTime('2026-11-27T12:00', start, 1, 'hour', 'Asia/Shanghai')).toBe('2026-11-27T13:00');
    expect(addToTime('2026-11-27T12:00', start, 7, 'day', 'Asia/Shanghai')).toBe('2026-12-04T12:00');
    expect(addToTime('2026-11-27T12:00', start, 1, 'month', 'Asia/Shanghai')).toBe('2026-12-27T12:00');
    expect(addToTime('2026-11-27T12:00', start, 1, 'year', 'Asia/Shanghai')).toBe('2027-11-27T12:00');
  });

  it('start from the current check-out when the field holds no time', () => {
    expect(addToTime('', new Date('2026-11-27T04:00:00Z'), 1, 'day', 'Asia/Shanghai')).toBe('2026-11-28T12:00');
    expect(addToTime('2026-11-2 12', new Date('2026-11-27T04:00:00Z'), 1, 'day', 'Asia/Shanghai')).toBe('2026-11-28T12:00');
  });
});
