import { describe, expect, it } from 'vitest';
import { passwordValidity } from './credentials';
import { ceilToZoneHour, floorToZoneHour, zoneOffsetMs } from './time';

const at = (iso: string) => new Date(iso);

describe("whole hours of the hotel's clock", () => {
  it('are whole UTC hours in a whole-hour zone, and :30 UTC in India (+5:30)', () => {
    expect(zoneOffsetMs(at('2026-11-23T10:50:00Z'), 'Asia/Kolkata')).toBe(19_800_000);
    expect(floorToZoneHour(at('2026-11-23T10:50:00Z'), 'Asia/Shanghai')).toEqual(at('2026-11-23T10:00:00Z'));
    expect(floorToZoneHour(at('2026-11-23T10:50:00Z'), 'Asia/Kolkata')).toEqual(at('2026-11-23T10:30:00Z'));
    expect(floorToZoneHour(at('2026-11-23T10:20:00Z'), 'Asia/Kolkata')).toEqual(at('2026-11-23T09:30:00Z'));
    expect(ceilToZoneHour(at('2026-11-23T10:50:00Z'), 'Asia/Kolkata')).toEqual(at('2026-11-23T11:30:00Z'));
    expect(ceilToZoneHour(at('2026-11-23T10:30:00Z'), 'Asia/Kolkata')).toEqual(at('2026-11-23T10:30:00Z'));
    // Nepal is +5:45.
    expect(floorToZoneHour(at('2026-11-23T10:50:00Z'), 'Asia/Kathmandu')).toEqual(at('2026-11-23T10:15:00Z'));
  });

  it('give a generated password its whole hours, start back and end forward; a custom one its minutes', () => {
    const from = at('2026-11-23T08:40:10Z');
    const until = at('2026-11-25T04:10:00Z');
    expect(passwordValidity('air', from, until, 'Asia/Kolkata')).toEqual({ validFrom: at('2026-11-23T08:30:00Z'), validUntil: at('2026-11-25T04:30:00Z') });
    expect(passwordValidity('one_time', from, null, 'Asia/Kolkata')).toEqual({ validFrom: at('2026-11-23T08:30:00Z'), validUntil: at('2026-11-23T14:30:00Z') });
    expect(passwordValidity('custom', from, until, 'Asia/Kolkata')).toEqual({ validFrom: at('2026-11-23T08:40:00Z'), validUntil: until });
  });
});
